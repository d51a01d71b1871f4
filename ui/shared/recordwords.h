#pragma once

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// The window's words for the English records that reach it only as text: a host's "why it is
// down" in the history, a request's relay error in the store (both kept in English: scripts grep
// them, and a relay elsewhere sends them so). Each known record (the upstream exchange's failures,
// the catalogue's refusals, ClientReplies) is recognised by its shape and said again through
// tr(), its parts (a host, a nested reason) kept; anything else, such as an engine's own words,
// is shown as it is. Where a fact comes whole (HostRefusal, EngineFailure), FailureWords says it.
class RecordWords final
{
    Q_DECLARE_TR_FUNCTIONS(RecordWords)

public:
    static QString say(const QString &record);

    RecordWords() = delete;
};

} // namespace switchyard
