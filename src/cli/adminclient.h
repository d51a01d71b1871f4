#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <chrono>

namespace switchyard {

// One blocking call to a running relay's admin API, for the command-line tools (lease, log).
// Runs a local event loop; not for use inside the relay itself.
struct AdminReply
{
    int status = 0;           // 0: no answer (see error)
    QByteArray body;
    QString error;
};

AdminReply callRelay(const QUrl &relay, const QByteArray &method, const QByteArray &target,
                     const QByteArray &body = {}, std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The relay's URL from --relay, or the default local one.
QUrl relayUrlFrom(const QString &flag);

} // namespace switchyard
