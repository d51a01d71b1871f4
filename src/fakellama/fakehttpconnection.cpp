#include "fakehttpconnection.h"

#include "fakeerrors.h"
#include "fakehttphead.h"
#include "fakelogging.h"

#include <QTcpSocket>

namespace switchyard::fake {

namespace {
constexpr qsizetype kMaxHeadBytes = 64 * 1024;
}

FakeHttpConnection::FakeHttpConnection(QTcpSocket *socket, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
{
    m_socket->setParent(this);
    // Without it small SSE writes wait on delayed ACKs (~40 ms outliers).
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);

    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(IdleTimeout);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (m_state == State::Reading && m_buffer.isEmpty()) {
            m_state = State::Closing;
            m_socket->disconnectFromHost();
        }
    });
    connect(m_socket, &QTcpSocket::readyRead, this, &FakeHttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &FakeHttpConnection::onDisconnected);
    m_idleTimer.start();
    if (m_socket->bytesAvailable() > 0)
        QTimer::singleShot(0, this, &FakeHttpConnection::onReadyRead);
}

FakeHttpConnection::~FakeHttpConnection() = default;

bool FakeHttpConnection::isConnected() const
{
    return m_socket && m_state != State::Closed && m_socket->state() == QAbstractSocket::ConnectedState;
}

bool FakeHttpConnection::isAnswering() const
{
    return m_state == State::Answering;
}

void FakeHttpConnection::sendResponse(const QByteArray &head, const QByteArray &body, After after)
{
    if (m_state != State::Answering)
        return;
    m_socket->write(m_headRequest ? head : head + body);
    answerComplete(after);
}

void FakeHttpConnection::startChunked(const QByteArray &head)
{
    if (m_state == State::Answering)
        m_socket->write(head);
}

void FakeHttpConnection::sendChunk(const QByteArray &payload)
{
    if (m_state != State::Answering || payload.isEmpty())
        return; // an empty chunk would end the body
    m_socket->write(QByteArray::number(payload.size(), 16) + "\r\n" + payload + "\r\n");
}

void FakeHttpConnection::finishChunked(After after)
{
    if (m_state != State::Answering)
        return;
    m_socket->write(QByteArrayLiteral("0\r\n\r\n"));
    answerComplete(after);
}

void FakeHttpConnection::sendChunkedResponse(const QByteArray &head, const QByteArray &body, After after)
{
    if (m_state != State::Answering)
        return;
    if (m_headRequest)
        m_socket->write(head);
    else
        m_socket->write(head + QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n");
    answerComplete(after);
}

void FakeHttpConnection::drop()
{
    if (m_state == State::Closing || m_state == State::Closed)
        return;
    m_state = State::Closing;
    m_idleTimer.stop();
    // disconnectFromHost() still sends what was written, then FIN: the client
    // sees an answer cut short, as when llama-server dies mid-stream.
    m_socket->disconnectFromHost();
}

void FakeHttpConnection::onReadyRead()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    if (m_state == State::Reading)
        parseNext();
}

void FakeHttpConnection::onDisconnected()
{
    const bool wasAnswering = m_state == State::Answering;
    m_state = State::Closed;
    m_idleTimer.stop();
    if (wasAnswering)
        emit peerClosed();
    emit closed();
    deleteLater();
}

void FakeHttpConnection::parseNext()
{
    if (m_state != State::Reading)
        return;
    if (!m_headParsed) {
        // Tolerate stray CRLFs between requests (RFC 9112 §2.2).
        qsizetype skip = 0;
        while (skip + 1 < m_buffer.size() && m_buffer.at(skip) == '\r' && m_buffer.at(skip + 1) == '\n')
            skip += 2;
        if (skip > 0)
            m_buffer.remove(0, skip);
        if (m_buffer.isEmpty())
            return;
        m_idleTimer.stop();
        const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            if (m_buffer.size() > kMaxHeadBytes)
                rejectMalformed();
            return;
        }
        if (!parseHead(headEnd)) {
            rejectMalformed();
            return;
        }
    }

    QByteArray body;
    const qsizetype consumed = bodyComplete(&body);
    if (consumed == -2) {
        rejectMalformed();
        return;
    }
    if (consumed < 0) {
        if (!m_sentContinue && m_pending.header("Expect").compare("100-continue", Qt::CaseInsensitive) == 0) {
            m_sentContinue = true;
            m_socket->write(QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
        }
        return;
    }

    m_pending.body = body;
    m_buffer.remove(0, m_bodyStart + consumed);
    m_headParsed = false;
    m_sentContinue = false;
    m_state = State::Answering;
    m_headRequest = m_pending.method == "HEAD";
    const FakeHttpRequest request = std::exchange(m_pending, {});
    emit requestReady(request);
}

bool FakeHttpConnection::parseHead(qsizetype headEnd)
{
    const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
    const QList<QByteArray> requestLine = lines.constFirst().trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1."))
        return false;

    FakeHttpRequest request;
    request.method = requestLine.at(0);
    request.target = requestLine.at(1);
    request.version = requestLine.at(2);
    const qsizetype question = request.target.indexOf('?');
    request.path = question < 0 ? request.target : request.target.left(question);
    request.query = question < 0 ? QByteArray() : request.target.mid(question + 1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return false;
        request.headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    }
    m_pending = request;
    m_headParsed = true;
    m_bodyStart = headEnd + 4;
    return true;
}

qsizetype FakeHttpConnection::bodyComplete(QByteArray *body)
{
    const QByteArrayView data = QByteArrayView(m_buffer).sliced(m_bodyStart);
    if (m_pending.header("Transfer-Encoding").toLower().contains("chunked")) {
        qsizetype pos = 0;
        QByteArray decoded;
        for (;;) {
            const qsizetype lineEnd = data.indexOf(QByteArrayView("\r\n"), pos);
            if (lineEnd < 0)
                return -1;
            QByteArray sizeField = data.sliced(pos, lineEnd - pos).toByteArray();
            const qsizetype semicolon = sizeField.indexOf(';');
            if (semicolon >= 0)
                sizeField.truncate(semicolon);
            bool ok = false;
            const qsizetype size = sizeField.trimmed().toLongLong(&ok, 16);
            if (!ok || size < 0)
                return -2;
            pos = lineEnd + 2;
            if (size == 0) {
                // Skip trailers up to the empty line.
                const qsizetype end = data.indexOf(QByteArrayView("\r\n"), pos);
                if (end < 0)
                    return -1;
                if (end == pos) {
                    *body = decoded;
                    return pos + 2;
                }
                pos = end + 2;
                continue;
            }
            if (data.size() < pos + size + 2)
                return -1;
            decoded += data.sliced(pos, size);
            pos += size + 2;
        }
    }

    const QByteArray lengthField = m_pending.header("Content-Length");
    qsizetype length = 0;
    if (!lengthField.isEmpty()) {
        bool ok = false;
        length = lengthField.toLongLong(&ok);
        if (!ok || length < 0)
            return -2;
    }
    if (data.size() < length)
        return -1;
    *body = data.first(length).toByteArray();
    return length;
}

void FakeHttpConnection::answerComplete(After after)
{
    if (after == After::Close) {
        m_state = State::Closing;
        m_socket->disconnectFromHost();
        return;
    }
    m_state = State::Reading;
    m_idleTimer.start();
    // Not re-entrant: the next pipelined request waits for the event loop.
    QTimer::singleShot(0, this, &FakeHttpConnection::parseNext);
}

void FakeHttpConnection::rejectMalformed()
{
    qCDebug(lcFake) << "malformed request, closing";
    const QByteArray body = fakeerrors::invalidRequest(QStringLiteral("Bad Request"));
    m_state = State::Answering;
    sendResponse(FakeHttpHead::fixed(400, FakeHttpHead::JsonType, body.size(), FakeHttpHead::Connection::Close),
                 body, After::Close);
}

} // namespace switchyard::fake
