#pragma once

#include "http/serverlimits.h"

#include <QHostAddress>
#include <QPointer>
#include <QSslConfiguration>
#include <QTcpServer>

namespace switchyard {

class Clock;
class RequestHandler;

// The relay's HTTP/1.1 server: listens, and gives each accepted socket to a ClientConnection
// (reading requests, limits, timeouts, pipelining, Expect, keep-alive) whose ResponseWriters
// write the answers to the socket directly.
class HttpServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpServer)

public:
    // Requests are stamped with the time of `clock` (the system's when none is given).
    HttpServer(const ServerLimits &limits, RequestHandler *handler, const Clock *clock = nullptr,
               QObject *parent = nullptr);
    ~HttpServer() override;

    // Serve HTTPS only, with this certificate and key (call before listenOn).
    void setTls(const QSslConfiguration &config);
    bool isTls() const { return !m_tls.isNull(); }

    // Returns false with errorString() set when the address cannot be bound.
    bool listenOn(const QHostAddress &address, quint16 port);
    quint16 port() const;
    QHostAddress address() const;
    QString errorString() const { return m_error; }

    // Stop accepting; let running responses finish; close keep-alive connections as they go idle.
    void stopAccepting();
    int openConnections() const;
    // Response bytes written but not yet taken by the clients' sockets: what slow readers cost
    // the relay in memory (bounded by ServerLimits::writeHighWatermark per response).
    qint64 pendingOutputBytes() const;

private:
    ServerLimits m_limits;
    RequestHandler *m_handler;
    const Clock *m_clock;
    QPointer<QTcpServer> m_listener;
    QSslConfiguration m_tls;
    QString m_error;
};

} // namespace switchyard
