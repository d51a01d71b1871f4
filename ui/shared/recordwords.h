#pragma once

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// The window's words for the English records that reach it only as text: a host's "why it is
// down" as the catalog's polls and the upstream exchange record it, a request's relay error that
// no facts stand behind (an upstream failure, a rewrite), both kept in English (scripts grep
// them, and a relay elsewhere sends them so). Each known record is recognised by its shape and
// said again through tr(), its parts (a host, a nested reason) kept; anything else, such as an
// engine's own words, is shown as it is. Where the history kept the facts (a failed switch's
// EngineFailure, a host's refusal of a request), FailureWords says them instead, and a record
// from before they were kept is shown as it was stored.
class RecordWords final
{
    Q_DECLARE_TR_FUNCTIONS(RecordWords)

public:
    static QString say(const QString &record);

    RecordWords() = delete;
};

} // namespace switchyard
