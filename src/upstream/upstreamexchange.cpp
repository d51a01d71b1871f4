#include "upstream/upstreamexchange.h"

#include "upstream/upstreampool.h"

#include "http/socketoutput.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTcpSocket>

#include <poll.h>

namespace switchyard {

namespace {
// Bytes the socket may hold unread while paused; beyond it TCP pushes back on the upstream.
constexpr qint64 ReadBufferWhilePaused = 256 * 1024;
}

UpstreamExchange::UpstreamExchange(UpstreamPool *pool, Request request, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_request(std::move(request))
    , m_parser(m_request.method == "HEAD")
{
    m_connectTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        fail(Failure::ConnectTimeout, QStringLiteral("no connection within %1 s")
                 .arg(double(m_request.connectTimeout.count()) / 1000.0));
    });
    m_inactivityTimer.setSingleShot(true);
    // Reads only note the time of the last byte (re-arming a timer on every read costs more than
    // relaying the event); when the timer fires it checks, and waits out the rest if a byte came.
    connect(&m_inactivityTimer, &QTimer::timeout, this, [this] {
        const auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - m_lastByte);
        if (silent < m_request.inactivityTimeout) {
            m_inactivityTimer.start(m_request.inactivityTimeout - silent);
            return;
        }
        fail(Failure::Inactivity, QStringLiteral("the engine sent nothing for %1 s")
                 .arg(double(m_request.inactivityTimeout.count()) / 1000.0));
    });
}

UpstreamExchange::~UpstreamExchange()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        m_socket->deleteLater();
    }
}

QString UpstreamExchange::poolKey() const
{
    return m_pool->target(m_request.base).key;
}

void UpstreamExchange::start()
{
    connectSocket(true);
}

void UpstreamExchange::connectSocket(bool allowPooled)
{
    m_socket = allowPooled ? m_pool->take(poolKey()) : nullptr;
    m_reused = m_socket != nullptr;
    if (!m_socket)
        m_socket = new QTcpSocket;
    m_socket->setReadBufferSize(ReadBufferWhilePaused);
    connect(m_socket, &QTcpSocket::readyRead, this, &UpstreamExchange::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &UpstreamExchange::onDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &UpstreamExchange::onSocketError);
    if (m_reused) {
        sendRequest();
        return;
    }
    connect(m_socket, &QTcpSocket::connected, this, [this] {
        m_connectTimer.stop();
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        sendRequest();
    });
    m_connectTimer.start(m_request.connectTimeout);
    const UpstreamPool::Target target = m_pool->target(m_request.base);   // a copy: connecting may look up others
    m_socket->connectToHost(target.host, target.port);
    completeConnectIfReady();
}

// On loopback, and often on a LAN, the handshake is done by the time connect() returns, but Qt
// learns it only from its write notifier on the next event-loop turn, after every other socket
// that turn woke. With 200 requests arriving at once the engine got the first of them only
// after the relay had read all 200 (docs/PERFORMANCE.md). When a zero-timeout poll() finds the
// socket writable without error, this hands Qt's own notifier the event it was about to get:
// Qt completes the connection its usual way, and `connected` sends the request now. Errors are
// left to the event loop, so a refusal still arrives after start() has returned.
void UpstreamExchange::completeConnectIfReady()
{
    if (m_socket->state() != QAbstractSocket::ConnectingState)
        return;
    // While connecting, socketDescriptor() is still -1: the notifier knows the descriptor.
    const auto notifiers = m_socket->findChildren<QSocketNotifier *>();
    for (QSocketNotifier *notifier : notifiers) {
        if (notifier->type() != QSocketNotifier::Write || !notifier->isEnabled())
            continue;
        pollfd ready{int(notifier->socket()), POLLOUT, 0};
        if (::poll(&ready, 1, 0) == 1 && ready.revents == POLLOUT) {
            QEvent activated(QEvent::SockAct);
            QCoreApplication::sendEvent(notifier, &activated);
        }
        return;
    }
}

void UpstreamExchange::sendRequest()
{
    // An engine may live below a path ("http://box/llama"): every request goes under it.
    const UpstreamPool::Target &target = m_pool->target(m_request.base);
    QByteArray head;
    head.reserve(512);
    head.append(m_request.method).append(' ').append(target.pathPrefix).append(m_request.target)
        .append(" HTTP/1.1\r\nHost: ").append(target.hostHeader).append("\r\n");
    for (const auto &h : m_request.headers)
        head.append(h.first).append(": ").append(h.second).append("\r\n");
    if (!m_request.body.isEmpty() || m_request.method == "POST" || m_request.method == "PUT")
        head.append("Content-Length: ").append(QByteArray::number(m_request.body.size())).append("\r\n");
    head.append("\r\n");
    sendToSocket(m_socket, {head, m_request.body});
    if (m_request.inactivityTimeout.count() > 0) {
        m_lastByte = std::chrono::steady_clock::now();
        m_inactivityTimer.start(m_request.inactivityTimeout);
    }
}

void UpstreamExchange::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    // While paused the engine's silence is ours (we stopped reading), not the engine's.
    if (paused)
        m_inactivityTimer.stop();
    else if (!m_done && m_socket && m_request.inactivityTimeout.count() > 0) {
        m_lastByte = std::chrono::steady_clock::now();
        m_inactivityTimer.start(m_request.inactivityTimeout);
    }
    if (!paused && m_socket && m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &UpstreamExchange::onReadyRead, Qt::QueuedConnection);
}

void UpstreamExchange::onReadyRead()
{
    if (!m_socket || m_done || m_paused)
        return;
    // Both buffers are members and keep their capacity: a read costs no allocation.
    const qint64 available = m_socket->bytesAvailable();
    if (available <= 0)
        return;
    m_readBuffer.resize(available);
    const qint64 got = m_socket->read(m_readBuffer.data(), available);
    if (got <= 0)
        return;
    m_gotBytes = true;
    m_lastByte = std::chrono::steady_clock::now();
    const bool hadHead = m_parser.headComplete();
    QByteArray &body = m_body;
    body.resize(0);
    m_parser.feed(QByteArrayView(m_readBuffer).first(got), &body);
    if (m_parser.hasError()) {
        fail(hadHead ? Failure::Truncated : Failure::Protocol, m_parser.errorString());
        return;
    }
    if (!hadHead && m_parser.headComplete())
        emit responseHead();
    if (!body.isEmpty() && !m_done) {
        QPointer<UpstreamExchange> self(this);
        emit bodyData(body);
        if (!self)
            return;
    }
    if (m_parser.isDone() && !m_done)
        complete();
}

void UpstreamExchange::onDisconnected()
{
    if (m_done)
        return;
    // Bytes may still be buffered; take them before judging the close.
    if (m_socket && m_socket->bytesAvailable() > 0) {
        const bool paused = m_paused;
        m_paused = false;
        onReadyRead();
        m_paused = paused;
        if (m_done)
            return;
    }
    m_parser.connectionClosed();
    if (m_parser.isDone()) {
        complete();
        return;
    }
    if (!m_gotBytes && m_reused) {
        // A pooled connection the upstream had closed: try once more on a fresh one.
        m_socket->disconnect(this);
        m_socket->deleteLater();
        m_socket = nullptr;
        connectSocket(false);
        return;
    }
    fail(m_parser.headComplete() ? Failure::Truncated : Failure::Dropped, m_parser.errorString());
}

void UpstreamExchange::onSocketError(QAbstractSocket::SocketError error)
{
    if (m_done)
        return;
    switch (error) {
    case QAbstractSocket::RemoteHostClosedError:
        onDisconnected();
        return;
    case QAbstractSocket::ConnectionRefusedError:
        fail(Failure::Refused, QStringLiteral("the engine refused the connection"));
        return;
    case QAbstractSocket::HostNotFoundError:
        fail(Failure::HostNotFound, QStringLiteral("the engine's host name does not resolve"));
        return;
    case QAbstractSocket::NetworkError:
    case QAbstractSocket::SocketTimeoutError:
        if (!m_gotBytes && m_socket && m_socket->state() != QAbstractSocket::ConnectedState && !m_reused) {
            fail(Failure::Refused, QStringLiteral("the engine could not be reached"));
            return;
        }
        onDisconnected();
        return;
    default:
        if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
            return;
        fail(m_gotBytes ? Failure::Truncated : Failure::Refused,
             QStringLiteral("the connection to the engine failed"));
        return;
    }
}

// The messages name no address, port or system error text: they reach clients inside refusals,
// and opencode and pi retry on words and numbers in an error's text ("502", "connection refused",
// "timeout") whatever its status says. The relay adds which host and engine it was.
void UpstreamExchange::fail(Failure failure, const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    m_failure = failure;
    m_error = message;
    m_connectTimer.stop();
    m_inactivityTimer.stop();
    releaseSocket(false);
    emit failed(failure, message);
}

void UpstreamExchange::complete()
{
    m_done = true;
    m_connectTimer.stop();
    m_inactivityTimer.stop();
    releaseSocket(m_parser.keepAlive() && m_socket && m_socket->bytesAvailable() == 0);
    emit finished();
}

void UpstreamExchange::abort()
{
    if (m_done)
        return;
    m_done = true;
    m_connectTimer.stop();
    m_inactivityTimer.stop();
    releaseSocket(false);
}

void UpstreamExchange::releaseSocket(bool reusable)
{
    if (!m_socket)
        return;
    QTcpSocket *socket = m_socket;
    m_socket = nullptr;
    socket->disconnect(this);
    if (reusable) {
        socket->setReadBufferSize(0);
        m_pool->give(poolKey(), socket);
        return;
    }
    socket->abort();
    socket->deleteLater();
}

} // namespace switchyard
