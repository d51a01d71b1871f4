#include "http/clientconnection.h"

#include "common/clock.h"
#include "http/incomingrequest.h"
#include "http/requesthandler.h"
#include "http/responsewriter.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace switchyard {

ClientConnection::ClientConnection(QTcpSocket *socket, const ServerLimits &limits, RequestHandler *handler,
                                   const Clock *clock)
    : QObject(socket)
    , m_socket(socket)
    , m_limits(limits)
    , m_handler(handler)
    , m_clock(clock)
    , m_peer(socket->peerAddress())
    , m_peerText(IncomingRequest::addressText(m_peer))
{
    m_readTimer.setSingleShot(true);
    m_idleTimer.setSingleShot(true);
    connect(&m_readTimer, &QTimer::timeout, this, [this] {
        rejectAndClose(408, "request not received in time", m_headComplete ? &m_head : nullptr);
    });
    // Reads do not stop this timer (a timer stopped and started per request costs more than the
    // rest of reading it): when it fires, a connection with a request in hand or on its way is
    // not idle, and the end of that request's response starts the timer again.
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (!isBusy() && m_input.isEmpty() && !m_headComplete && !m_rejecting && m_socket)
            m_socket->disconnectFromHost();
    });
    connect(socket, &QTcpSocket::readyRead, this, &ClientConnection::onReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &ClientConnection::onDisconnected);
    connect(socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_active)
            m_active->onBytesWritten();
    });
    armIdleTimer();
}

void ClientConnection::stamp(IncomingRequest &request) const
{
    request.peer = m_peer;
    request.clientAddress = m_peerText;
    request.arrivedAt = m_clock->now();
    // Durations (time to first byte, a request's length) stay on the system's steady clock, as
    // the writer and the relay measure them.
    request.arrivedSteady = std::chrono::steady_clock::now();
}

ClientConnection::~ClientConnection()
{
    if (m_active)
        m_active->onClientDisconnected();
}

void ClientConnection::armIdleTimer()
{
    if (!isBusy() && m_input.isEmpty())
        m_idleTimer.start(m_limits.idleTimeout);
}

void ClientConnection::onReadyRead()
{
    if (!m_socket)
        return;
    if (m_rejecting) {
        m_socket->readAll();   // discard the refused body so the client can read our answer
        return;
    }
    readAvailable();
}

void ClientConnection::readAvailable()
{
    // Pipelined requests wait in the socket while a few are queued already: a client cannot
    // make the relay hold an unbounded queue.
    // Straight into m_input: readAll() would make a QByteArray of its own and copy it over.
    const qint64 available = m_queue.size() < MaxQueuedRequests ? m_socket->bytesAvailable() : 0;
    if (available > 0) {
        const qsizetype had = m_input.size();
        m_input.resize(had + qsizetype(available));
        const qint64 got = m_socket->read(m_input.data() + had, available);
        m_input.resize(had + qsizetype(qMax<qint64>(got, 0)));
    }
    parseBuffered();
}

void ClientConnection::parseBuffered()
{
    qsizetype used = 0;
    bool partial = false;   // a request's bytes have begun and not all are here
    while (!m_rejecting && m_queue.size() < MaxQueuedRequests) {
        const QByteArrayView input = QByteArrayView(m_input).sliced(used);
        if (!m_headComplete) {
            if (input.isEmpty())
                break;
            const RequestHead head = RequestHead::parse(input, m_limits.maxHeadBytes);
            if (head.state == RequestHead::State::Invalid) {
                // Named by its method and path when those were read, so the journal says which.
                rejectAndClose(input.size() > m_limits.maxHeadBytes ? 431 : 400, "malformed request head: " + head.error,
                               head.method.isEmpty() ? nullptr : &head);
                return;
            }
            if (head.state == RequestHead::State::Incomplete) {
                partial = true;
                break;
            }
            used += head.headLength;
            if (!takeHead(head))
                return;
            continue;
        }
        if (m_chunks) {
            used += m_chunks->feed(input, &m_body);
            if (m_chunks->hasError()) {
                rejectAndClose(400, "malformed chunked request body: " + m_chunks->errorString().toUtf8(), &m_head);
                return;
            }
            if (m_body.size() > m_limits.maxBodyBytes) {
                rejectAndClose(413, "chunked request body over the limit of " + QByteArray::number(m_limits.maxBodyBytes)
                                        + " bytes", &m_head);
                return;
            }
            if (!m_chunks->isDone()) {
                partial = true;
                break;
            }
        } else {
            const qint64 expected = qMax<qint64>(m_head.contentLength, 0);
            const qsizetype take = qsizetype(qMin<qint64>(expected - m_body.size(), input.size()));
            m_body.append(input.first(take));
            used += take;
            if (m_body.size() < expected) {
                partial = true;
                break;
            }
        }
        // The request is complete.
        IncomingRequest request = IncomingRequest::fromHead(m_head);
        request.body = std::move(m_body);
        stamp(request);
        m_body = QByteArray();
        m_chunks.reset();
        m_headComplete = false;
        m_readTimer.stop();
        enqueue(std::move(request));
    }
    if (m_rejecting)
        return;
    m_input.remove(0, used);
    // The request-read timer runs from the first read that leaves a request unfinished until it
    // is whole: a request that comes in one read, as nearly all do, never arms it. Bytes that
    // wait only because the queue is full are not the client's delay.
    if (partial && !m_readTimer.isActive())
        m_readTimer.start(m_limits.requestReadTimeout);
    else if (m_input.isEmpty() && !m_headComplete)
        m_readTimer.stop();
}

bool ClientConnection::takeHead(const RequestHead &head)
{
    m_head = head;
    m_headComplete = true;
    m_body = QByteArray();
    m_chunks.reset();
    if (head.chunked) {
        m_chunks = ResponseParser::chunkedBody();
    } else if (head.contentLength > m_limits.maxBodyBytes) {
        rejectAndClose(413, "request body of " + QByteArray::number(head.contentLength)
                                + " bytes is over the limit of " + QByteArray::number(m_limits.maxBodyBytes) + " bytes",
                       &head);
        return false;
    }
    const qint64 expected = head.chunked ? 0 : qMax<qint64>(head.contentLength, 0);
    if (expected > 0)
        m_body.reserve(qsizetype(expected));
    const qsizetype bodyHere = m_input.size() - head.headLength;   // a lower bound; enough for the usual case
    if (head.expectContinue && (head.chunked || bodyHere < expected))
        m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    return true;
}

void ClientConnection::enqueue(IncomingRequest request)
{
    if (m_closing || m_rejecting)
        return;
    m_queue.enqueue(std::move(request));
    emit requestQueued();
    if (!m_active)
        startNext();
}

void ClientConnection::startNext()
{
    if (m_active || m_queue.isEmpty() || !m_socket)
        return;
    IncomingRequest request = m_queue.dequeue();
    const bool keepAlive = request.keepAlive && !m_closing;
    auto *writer = new ResponseWriter(this, request.method == "HEAD", request.http10, keepAlive,
                                      request.arrivedSteady);
    m_active = writer;
    m_handler->handleRequest(request, writer);
}

void ClientConnection::responseFinished(ResponseWriter *writer, bool keepAlive)
{
    if (writer != m_active)
        return;
    m_active = nullptr;
    if (!m_socket)
        return;
    if (!keepAlive || m_closing) {
        m_queue.clear();
        m_socket->disconnectFromHost();
        return;
    }
    if (!m_queue.isEmpty() || m_socket->bytesAvailable() > 0 || !m_input.isEmpty()) {
        // Not from inside the writer's finish(): the handler may still be on the stack.
        QMetaObject::invokeMethod(this, &ClientConnection::continueReading, Qt::QueuedConnection);
        return;
    }
    armIdleTimer();
}

void ClientConnection::continueReading()
{
    if (!m_socket || m_rejecting)
        return;
    readAvailable();
    startNext();
    armIdleTimer();
}

void ClientConnection::closeWhenIdle()
{
    m_closing = true;
    if (!m_active && m_socket) {
        m_queue.clear();
        m_socket->disconnectFromHost();
    }
}

void ClientConnection::rejectAndClose(int status, const QByteArray &message, const RequestHead *head)
{
    if (!m_socket || m_rejecting)
        return;
    m_rejecting = true;
    // What was read of it, for the journal and the history: a refused request is still a request.
    IncomingRequest refused = head ? IncomingRequest::fromHead(*head) : IncomingRequest();
    stamp(refused);
    m_readTimer.stop();
    m_queue.clear();
    m_input.clear();
    m_socket->readAll();
    if (!m_active) {
        // In the request's own error shape when its path is known (Anthropic's on /v1/messages).
        const QByteArray body = m_handler->refusalBody(status, refused.path.toUtf8(), QString::fromLatin1(message));
        QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + ResponseWriter::reasonPhrase(status)
            + "\r\nContent-Type: application/json; charset=utf-8\r\nX-Should-Retry: false\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        m_socket->write(out);
        m_socket->flush();
    }
    m_handler->requestRefused(refused, status, QString::fromLatin1(message));
    // Give the client a moment to read the answer; closing with unread input would reset it.
    QTimer::singleShot(std::chrono::seconds(2), this, [this] {
        if (m_socket)
            m_socket->abort();
    });
    // A lingering close: end our side once the answer is out (FIN), but keep reading and
    // dropping what the client still sends (onReadyRead) until it closes or the timer above
    // ends it. Closing at once would reset a client still sending a refused 10 MB body, and
    // the reset can destroy the 413 before the client reads it.
    if (m_socket->bytesToWrite() == 0 && m_socket->socketDescriptor() >= 0) {
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
        return;
    }
    m_socket->disconnectFromHost();
}

void ClientConnection::onDisconnected()
{
    m_readTimer.stop();
    m_idleTimer.stop();
    m_queue.clear();
    if (m_active)
        m_active->onClientDisconnected();
    m_active = nullptr;
    // Later, not now: the socket may be in the middle of emitting. This connection goes with it.
    if (m_socket)
        m_socket->deleteLater();
}

} // namespace switchyard
