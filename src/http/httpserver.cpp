#include "http/httpserver.h"

#include "http/clientconnection.h"
#include "http/incomingrequest.h"

#include <QHttpServerRequest>
#include <QSslSocket>
#include <QTcpSocket>

namespace switchyard {

namespace {

// Accepts connections for the server: sets TCP_NODELAY (small SSE events must not wait for
// Nagle) and attaches the ClientConnection before QAbstractHttpServer sees the socket. With TLS
// the socket is a QSslSocket in server mode: its readyRead carries decrypted bytes only, so the
// connection hook and the server's parser work as they do on plain TCP. A client that never
// finishes the handshake is closed by the ClientConnection's idle timer.
class Listener final : public QTcpServer
{
public:
    Listener(const ServerLimits &limits, RequestHandler *handler, const QSslConfiguration &tls)
        : m_limits(limits)
        , m_handler(handler)
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
        new ClientConnection(socket, m_limits, m_handler);
        if (ssl) {
            // A failed handshake (plain HTTP on the TLS port, a bad certificate) ends the connection.
            connect(ssl, &QSslSocket::sslErrors, ssl, [ssl] { ssl->abort(); });
            connect(ssl, &QAbstractSocket::errorOccurred, ssl, [ssl](QAbstractSocket::SocketError error) {
                if (error == QAbstractSocket::SslHandshakeFailedError)
                    ssl->abort();
            });
            ssl->startServerEncryption();
        }
        addPendingConnection(socket);
    }

private:
    ServerLimits m_limits;
    RequestHandler *m_handler;
    QSslConfiguration m_tls;
};

QByteArray methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get: return "GET";
    case QHttpServerRequest::Method::Put: return "PUT";
    case QHttpServerRequest::Method::Delete: return "DELETE";
    case QHttpServerRequest::Method::Post: return "POST";
    case QHttpServerRequest::Method::Head: return "HEAD";
    case QHttpServerRequest::Method::Options: return "OPTIONS";
    case QHttpServerRequest::Method::Patch: return "PATCH";
    case QHttpServerRequest::Method::Connect: return "CONNECT";
    case QHttpServerRequest::Method::Trace: return "TRACE";
    default: return "UNKNOWN";
    }
}

} // namespace

HttpServer::HttpServer(const ServerLimits &limits, RequestHandler *handler, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_limits(limits)
    , m_handler(handler)
{
}

HttpServer::~HttpServer() = default;

bool HttpServer::listenOn(const QHostAddress &address, quint16 port)
{
    auto *listener = new Listener(m_limits, m_handler, m_tls);
    // Qt's default backlog of 50 drops SYNs when 200 agents connect at once (bench/run.sh).
    listener->setListenBacklogSize(1024);
    if (!listener->listen(address, port)) {
        m_error = listener->errorString();
        delete listener;
        return false;
    }
    m_listener = listener;
    bind(listener);
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

bool HttpServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    auto *connection = socket->findChild<ClientConnection *>(QString(), Qt::FindDirectChildrenOnly);
    if (!connection)
        return false;
    const RequestHead head = connection->takeHead();

    // Copy everything now: the QHttpServerRequest is reused for the next request (trap 3).
    IncomingRequest in;
    in.method = methodName(request.method());
    const QUrl url = request.url();
    in.path = url.path();
    in.rawQuery = url.query(QUrl::FullyEncoded).toUtf8();
    in.headers = request.headers();
    in.body = request.body();
    in.peer = request.remoteAddress();
    if (head.state == RequestHead::State::Complete) {
        in.method = head.method;
        in.http10 = head.minorVersion == 0;
        in.keepAlive = head.keepAlive();
    } else {
        in.keepAlive = !HttpHeaders::hasToken(request.value("connection"), "close");
    }
    in.arrivedAt = QDateTime::currentDateTime();
    in.arrivedSteady = std::chrono::steady_clock::now();
    connection->enqueue(std::move(in));
    return true;
}

void HttpServer::missingHandler(const QHttpServerRequest &, QTcpSocket *)
{
    // handleRequest answers everything.
}

} // namespace switchyard
