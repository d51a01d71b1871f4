#include "upstream/upstreamexchange.h"

#include "upstream/upstreampool.h"
#include "upstream/upstreamsocket.h"

#include "common/basictimer.h"
#include "http/headbuilder.h"

#include <QPointer>
#include <QTimerEvent>

namespace switchyard {

UpstreamExchange::UpstreamExchange(UpstreamPool *pool, Request request, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_request(std::move(request))
    , m_parser(m_request.method == "HEAD")
{
}

UpstreamExchange::~UpstreamExchange() = default;   // the socket is a child: it closes with us

// Two QBasicTimers, not QTimer objects: one exchange per request, and two QTimers with their
// connections cost more to make and destroy than the rest of starting the exchange.
void UpstreamExchange::timerEvent(QTimerEvent *event)
{
    if (event->timerId() == m_connectTimer.timerId()) {
        m_connectTimer.stop();
        fail(Failure::ConnectTimeout, QStringLiteral("no connection within %1 s")
                 .arg(double(m_request.connectTimeout.count()) / 1000.0));
        return;
    }
    if (event->timerId() != m_inactivityTimer.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    m_inactivityTimer.stop();
    // Reads only note the time of the last byte (re-arming a timer on every read costs more than
    // relaying the event); when the timer fires it checks, and waits out the rest if a byte came.
    const auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - m_lastByte);
    if (silent < m_request.inactivityTimeout) {
        startBasicTimer(m_inactivityTimer, m_request.inactivityTimeout - silent, this);
        return;
    }
    fail(Failure::Inactivity, QStringLiteral("the engine sent nothing for %1 s")
             .arg(double(m_request.inactivityTimeout.count()) / 1000.0));
}

void UpstreamExchange::start()
{
    m_target = m_pool->target(m_request.base);
    connectSocket(true);
}

void UpstreamExchange::connectSocket(bool allowPooled)
{
    m_socket = allowPooled ? m_pool->take(m_target.key, this) : nullptr;
    m_reused = m_socket != nullptr;
    if (!m_socket)
        m_socket = new UpstreamSocket(this);
    m_socket->setReading(!m_paused);
    connect(m_socket, &UpstreamSocket::readyRead, this, &UpstreamExchange::onReadyRead);
    if (m_reused) {
        sendRequest();
        return;
    }
    connect(m_socket, &UpstreamSocket::connected, this, [this] {
        m_connectTimer.stop();
        sendRequest();
    });
    connect(m_socket, &UpstreamSocket::connectFailed, this, [this](UpstreamSocket::ConnectError error) {
        if (error == UpstreamSocket::ConnectError::HostNotFound)
            fail(Failure::HostNotFound, QStringLiteral("the engine's host name does not resolve"));
        else
            fail(Failure::Refused, QStringLiteral("the engine refused the connection"));
    });
    startBasicTimer(m_connectTimer, m_request.connectTimeout, this);
    m_socket->connectToHost(m_target.host, m_target.port, m_target.address);
}

void UpstreamExchange::sendRequest()
{
    // An engine may live below a path ("http://box/llama"): every request goes under it.
    const UpstreamPool::Target &target = m_target;
    const QByteArray &body = m_request.body;
    const bool spliced = m_request.replaceFrom >= 0 && m_request.replaceFrom <= m_request.replaceTo
        && m_request.replaceTo <= body.size();
    const QByteArrayView before = spliced ? QByteArrayView(body).first(m_request.replaceFrom) : QByteArrayView(body);
    const QByteArrayView inserted = spliced ? QByteArrayView(m_request.replacement) : QByteArrayView();
    const QByteArrayView after = spliced ? QByteArrayView(body).sliced(m_request.replaceTo) : QByteArrayView();
    const qsizetype bodySize = before.size() + inserted.size() + after.size();
    const bool sendsLength = bodySize > 0 || m_request.method == "POST" || m_request.method == "PUT";
    qsizetype expected = 64 + m_request.method.size() + target.pathPrefix.size() + m_request.target.size()
        + target.hostHeader.size();   // request line, Host, Content-Length, the blank line
    for (const auto &h : m_request.headers)
        expected += h.first.size() + h.second.size() + 4;
    HeadBuilder out(expected);
    out.add(m_request.method).add(' ').add(target.pathPrefix).add(m_request.target)
        .add(" HTTP/1.1\r\nHost: ").add(target.hostHeader).add("\r\n");
    for (const auto &h : m_request.headers)
        out.add(h.first).add(": ").add(h.second).add("\r\n");
    if (sendsLength)
        out.add("Content-Length: ").add(QByteArray::number(bodySize)).add("\r\n");
    out.add("\r\n");
    const QByteArray head = out.take();
    m_socket->send({head, before, inserted, after});
    if (m_request.inactivityTimeout.count() > 0) {
        m_lastByte = std::chrono::steady_clock::now();
        startBasicTimer(m_inactivityTimer, m_request.inactivityTimeout, this);
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
        startBasicTimer(m_inactivityTimer, m_request.inactivityTimeout, this);
    }
    // What arrived meanwhile waits in the kernel; the notifier reports it once reading resumes.
    if (m_socket && !m_done)
        m_socket->setReading(!paused);
}

void UpstreamExchange::onReadyRead()
{
    if (!m_socket || m_done || m_paused)
        return;
    char *buffer = m_pool->readBuffer();
    qsizetype got = 0;
    switch (m_socket->read(buffer, UpstreamPool::ReadBufferSize, &got)) {
    case UpstreamSocket::ReadResult::WouldBlock:
        return;
    case UpstreamSocket::ReadResult::Closed:
        onDisconnected();
        return;
    case UpstreamSocket::ReadResult::Data:
        break;
    }
    // A full buffer means more is waiting; the notifier fires again on the next turn, so other
    // streams get their turn in between.
    consume(QByteArrayView(buffer, got));
}

void UpstreamExchange::consume(QByteArrayView bytes)
{
    m_gotBytes = true;
    m_lastByte = std::chrono::steady_clock::now();
    const bool hadHead = m_parser.headComplete();
    m_body.resize(0);   // keeps its capacity: a read costs no allocation
    m_parser.feed(bytes, &m_body);
    if (m_parser.hasError()) {
        fail(hadHead ? Failure::Truncated : Failure::Protocol, m_parser.errorString());
        return;
    }
    QPointer<UpstreamExchange> self(this);
    if (!hadHead && m_parser.headComplete()) {
        emit responseHead();
        if (!self)
            return;
    }
    if (!m_body.isEmpty() && !m_done) {
        emit bodyData(m_body);
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
    if (!m_gotBytes && m_reused) {
        // A pooled connection the upstream had closed: try once more on a fresh one. Nothing
        // came on it, so the parser has seen nothing; it is not told of this close (it kept
        // that as an error and failed the fresh connection's answer as not HTTP: a 502).
        m_socket->disconnect(this);
        m_socket->close();
        m_socket->deleteLater();   // we are inside its notifier's signal
        m_socket = nullptr;
        connectSocket(false);
        return;
    }
    m_parser.connectionClosed();
    if (m_parser.isDone()) {
        complete();
        return;
    }
    fail(m_parser.headComplete() ? Failure::Truncated : Failure::Dropped, m_parser.errorString());
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
    // The client's last bytes leave first: closing a TCP connection costs the kernel a FIN and a
    // wake-up of the engine, and the engine has already said all it will say.
    const bool reusable = m_parser.keepAlive();
    UpstreamPool *pool = m_pool;
    const UpstreamPool::Target target = m_target;
    QPointer<UpstreamExchange> self(this);
    emit finished();
    if (self)
        releaseSocket(reusable);   // else the socket closed with this exchange
    // The engine closes after each answer (llama-server does after every completion): the
    // next request to it finds a connection already open.
    if (!reusable)
        pool->preconnect(target);
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
    UpstreamSocket *socket = m_socket;
    m_socket = nullptr;
    socket->disconnect(this);
    if (reusable) {
        m_pool->give(m_target.key, socket);
        return;
    }
    socket->close();   // the upstream sees the end at once; the object goes with this exchange
}

} // namespace switchyard
