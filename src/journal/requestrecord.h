#pragma once

#include "journal/waitreason.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <chrono>
#include <optional>

namespace switchyard {

// Everything known about one request the relay answered: one journal line, one store row.
struct RequestRecord
{
    qint64 id = 0;
    QDateTime startedAt;                 // local wall clock at arrival
    std::chrono::steady_clock::time_point startedSteady;   // for measuring, not for display
    QString method;
    QString path;                        // without query
    QString model;                       // alias as the client sent it; empty when none
    QString host;                        // empty when not routed to a host
    QString engine;
    int status = 0;
    qint64 bytesOut = 0;                 // body bytes sent to the client
    std::chrono::nanoseconds duration{0};
    std::optional<std::chrono::nanoseconds> timeToFirstByte;
    std::optional<qint64> streamedTokens;
    std::optional<double> tokensPerSecond;
    QString clientAddress;               // IPv4 peers without the ::ffff: prefix
    QString userAgent;
    QString relayError;                  // the relay's own error, if it made one
    // The facts behind relayError, when it came from them (a host's refusal, as
    // hosts/recordedfacts.h writes it): the window words them itself. Empty otherwise.
    QJsonObject relayFacts;

    // What came in and how long it waited before going upstream (issue #21).
    qint64 bytesIn = 0;                  // body bytes the client sent
    std::chrono::nanoseconds waited{0};  // 0 when it did not wait; a model load counts to its answer
    WaitReason waitReason;               // why it waited (its first reason)

    // Only while the relay serves it (Relay::requestProgress), never stored.
    quint64 liveId = 0;                  // the relay's number for it, also on its finished record
    std::chrono::steady_clock::time_point waitingSince;   // set while it waits now
    // While it waits for its host to finish another engine's work (the batch policy): the latest
    // its host leaves that engine for it, on the wall clock. Invalid when no bound is known.
    QDateTime waitUntil;

    // The client went away before its answer was complete.
    bool clientLeft() const { return relayError == ClientLeftError; }
    static constexpr QLatin1StringView ClientLeftError{"client closed the connection"};

    // Usage per client key (switchyard usage, /admin/usage).
    QString keyName;                     // the name of the client key it came with, never the key; empty: none
    std::optional<qint64> promptTokens;  // tokens in: the whole prompt, cached part included
    qint64 restoredPromptTokens = 0;     // prompt tokens restored from a saved cache just before it went upstream
    bool sideCall = false;               // a client's title or small-model call (relay/sidecall.h)
};

} // namespace switchyard

#include <QMetaType>
Q_DECLARE_METATYPE(switchyard::RequestRecord)
