#include "http/clientconnection.h"

#include "http/incomingrequest.h"
#include "http/requesthandler.h"
#include "http/responsewriter.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace switchyard {

ClientConnection::ClientConnection(QTcpSocket *socket, const ServerLimits &limits, RequestHandler *handler)
    : QObject(socket)
    , m_socket(socket)
    , m_limits(limits)
    , m_handler(handler)
{
    m_readTimer.setSingleShot(true);
    m_idleTimer.setSingleShot(true);
    connect(&m_readTimer, &QTimer::timeout, this, [this] {
        rejectAndClose(408, "request not received in time");
    });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (!isBusy() && m_socket)
            m_socket->disconnectFromHost();
    });
    // Connected before QAbstractHttpServer connects its own slot, so this sees each head first.
    connect(socket, &QTcpSocket::readyRead, this, &ClientConnection::onReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &ClientConnection::onDisconnected);
    connect(socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_active)
            m_active->onBytesWritten();
    });
    armIdleTimer();
}

ClientConnection::~ClientConnection()
{
    if (m_active)
        m_active->onClientDisconnected();
}

void ClientConnection::armIdleTimer()
{
    if (!isBusy())
        m_idleTimer.start(m_limits.idleTimeout);
}

void ClientConnection::onReadyRead()
{
    if (!m_socket)
        return;
    m_idleTimer.stop();
    if (m_rejecting) {
        m_socket->readAll();   // discard the refused body so the client can read our answer
        return;
    }
    // Outside a transaction the server has consumed whole requests only: the buffer starts at a
    // request boundary. Inside one, the server already holds the bytes it read (it reads all it has).
    const bool atBoundary = !m_socket->isTransactionStarted();
    if (atBoundary) {
        m_headBytes.clear();
        m_headComplete = false;
        m_bodySeen = 0;
        if (m_socket->bytesAvailable() > 0 && !m_readTimer.isActive())
            m_readTimer.start(m_limits.requestReadTimeout);
    }
    if (!m_headComplete) {
        m_headBytes += m_socket->peek(m_socket->bytesAvailable());
        const RequestHead head = RequestHead::parse(m_headBytes, m_limits.maxHeadBytes);
        if (head.state == RequestHead::State::Invalid) {
            rejectAndClose(m_headBytes.size() > m_limits.maxHeadBytes ? 431 : 400, "malformed request head");
            return;
        }
        if (head.state == RequestHead::State::Incomplete)
            return;
        m_headComplete = true;
        m_bodyExpected = head.contentLength;
        m_chunkedBody = head.chunked;
        m_bodySeen = m_headBytes.size() - head.headLength;
        m_headBytes.clear();
        if (head.contentLength > m_limits.maxBodyBytes) {
            rejectAndClose(413, "request body of " + QByteArray::number(head.contentLength)
                                    + " bytes is over the limit of " + QByteArray::number(m_limits.maxBodyBytes) + " bytes",
                           &head);
            return;
        }
        if (head.expectContinue && m_bodySeen < qMax<qint64>(head.contentLength, 1))
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        m_heads.enqueue(head);
        return;
    }
    m_bodySeen += m_socket->bytesAvailable();
    if (m_chunkedBody && m_bodySeen > m_limits.maxBodyBytes + 64 * 1024)
        rejectAndClose(413, "chunked request body over the limit of " + QByteArray::number(m_limits.maxBodyBytes) + " bytes",
                       m_heads.isEmpty() ? nullptr : &m_heads.last());
}

RequestHead ClientConnection::takeHead()
{
    m_readTimer.stop();
    m_headComplete = false;
    if (m_heads.isEmpty())
        return {};
    return m_heads.dequeue();
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
    if (!m_queue.isEmpty()) {
        // Not from inside the writer's finish(): the handler may still be on the stack.
        QMetaObject::invokeMethod(this, &ClientConnection::startNext, Qt::QueuedConnection);
        return;
    }
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
    const QByteArray target = head ? head->target : QByteArray();
    // What was read of it, for the journal and the history: a refused request is still a request.
    IncomingRequest refused;
    if (head) {
        refused.method = head->method;
        const qsizetype q = head->target.indexOf('?');
        refused.path = QString::fromLatin1(q < 0 ? head->target : head->target.left(q));
        refused.headers = head->headers;
    }
    refused.peer = m_socket->peerAddress();
    refused.arrivedAt = QDateTime::currentDateTime();
    refused.arrivedSteady = std::chrono::steady_clock::now();
    m_readTimer.stop();
    m_queue.clear();
    m_heads.clear();
    m_socket->readAll();
    if (!m_active) {
        // In the request's own error shape when its path is known (Anthropic's on /v1/messages).
        const qsizetype query = target.indexOf('?');
        const QByteArray path = query < 0 ? target : target.left(query);
        const QByteArray body = m_handler->refusalBody(status, path, QString::fromLatin1(message));
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
}

} // namespace switchyard
