#pragma once

#include <QDateTime>
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
    qint64 restoredPromptTokens = 0;     // prompt tokens restored from a saved cache just before it went upstream
};

} // namespace switchyard

#include <QMetaType>
Q_DECLARE_METATYPE(switchyard::RequestRecord)
