#pragma once

#include "engines/enginefailure.h"
#include "hosts/hostrefusal.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace switchyard {

// The window's words for the facts the hosts and engines hand up, through tr(): the same
// HostRefusal and EngineFailure that the relay words in English for its clients (src/replies).
class FailureWords final
{
    Q_DECLARE_TR_FUNCTIONS(FailureWords)

public:
    static QString refusal(const HostRefusal &why);
    static QString engineFailure(const EngineFailure &failure);
    // A refused request's error as its client was told it (ClientReplies::fromHost), in the
    // window's words: the host and the engine named, then why.
    static QString requestRefused(const HostRefusal &why);
    // A history record's facts (hosts/recordedfacts.h: an engine failure, a host's refusal as a
    // request's error) in the window's words; `text`, the record's stored English, when there are
    // none (a row from before they were kept, or copied from a relay before them).
    static QString recorded(const QJsonObject &facts, const QString &text);
    // A timeline marker's detail (a wake that timed out: "no answer within 60 s") from the facts
    // its event keeps, without the host the marker already names; `text`, its stored English,
    // without facts.
    static QString eventDetail(const QJsonObject &facts, const QString &text);

    FailureWords() = delete;
};

} // namespace switchyard
