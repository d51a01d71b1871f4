#include "http/httpserver.h"

#include "common/clock.h"
#include "http/clientconnection.h"

#include <QSslSocket>
#include <QTcpSocket>

namespace switchyard {

namespace {

// Accepts connections for the server: sets TCP_NODELAY (small SSE events must not wait for
// Nagle) and gives the socket to a ClientConnection, which owns everything after. With TLS the
// socket is a QSslSocket in server mode: its readyRead carries decrypted bytes only, so the
// connection works as it does on plain TCP. A client that never finishes the handshake is closed
// by the ClientConnection's idle timer.
class Listener final : public QTcpServer
{
public:
    Listener(const ServerLimits &limits, RequestHandler *handler, const Clock *clock, const QSslConfiguration &tls,
             QObject *parent)
        : QTcpServer(parent)
        , m_limits(limits)
        , m_handler(handler)
        , m_clock(clock)
        , m_tls(tls)
    {
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        QTcpSocket *socket = nullptr;
        QSslSocket *ssl = nullptr;
        if (!m_tls.isNull()) {
            ssl = new QSslSocket(this);
            ssl->setSslConfiguration(m_tls);
            socket = ssl;
        } else {
            socket = new QTcpSocket(this);
        }
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        new ClientConnection(socket, m_limits, m_handler, m_clock);
        if (ssl) {
            // A failed handshake (plain HTTP on the TLS port, a bad certificate) ends the connection.
            connect(ssl, &QSslSocket::sslErrors, ssl, [ssl] { ssl->abort(); });
            connect(ssl, &QAbstractSocket::errorOccurred, ssl, [ssl](QAbstractSocket::SocketError error) {
                if (error == QAbstractSocket::SslHandshakeFailedError)
                    ssl->abort();
            });
            ssl->startServerEncryption();
        }
    }

private:
    ServerLimits m_limits;
    RequestHandler *m_handler;
    const Clock *m_clock;
    QSslConfiguration m_tls;
};

} // namespace

HttpServer::HttpServer(const ServerLimits &limits, RequestHandler *handler, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_handler(handler)
    , m_clock(clock ? clock : &systemClock())
{
}

HttpServer::~HttpServer() = default;

bool HttpServer::listenOn(const QHostAddress &address, quint16 port)
{
    auto *listener = new Listener(m_limits, m_handler, m_clock, m_tls, this);
    // Qt's default backlog of 50 drops SYNs when 200 agents connect at once (bench/run.sh).
    listener->setListenBacklogSize(1024);
    if (!listener->listen(address, port)) {
        m_error = listener->errorString();
        delete listener;
        return false;
    }
    m_listener = listener;
    return true;
}

void HttpServer::setTls(const QSslConfiguration &config)
{
    m_tls = config;
}

quint16 HttpServer::port() const
{
    return m_listener ? m_listener->serverPort() : 0;
}

QHostAddress HttpServer::address() const
{
    return m_listener ? m_listener->serverAddress() : QHostAddress();
}

void HttpServer::stopAccepting()
{
    if (m_listener)
        m_listener->close();
    const auto connections = findChildren<ClientConnection *>();
    for (ClientConnection *c : connections)
        c->closeWhenIdle();
}

int HttpServer::openConnections() const
{
    return findChildren<ClientConnection *>().size();
}

qint64 HttpServer::pendingOutputBytes() const
{
    qint64 total = 0;
    for (const ClientConnection *c : findChildren<ClientConnection *>()) {
        if (const QTcpSocket *s = c->socket())
            total += s->bytesToWrite();
    }
    return total;
}

} // namespace switchyard
