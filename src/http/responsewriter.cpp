#include "http/responsewriter.h"

#include "http/clientconnection.h"
#include "http/headbuilder.h"
#include "http/socketoutput.h"

#include <QTcpSocket>
#include <QThread>
#include <QTimerEvent>
#include <QVarLengthArray>

namespace switchyard {


ResponseWriter::ResponseWriter(ClientConnection *connection, bool headRequest, bool http10,
                               bool keepAlive, std::chrono::steady_clock::time_point arrived)
    : m_connection(connection)
    , m_headRequest(headRequest)
    , m_http10(http10)
    , m_keepAlive(keepAlive && !http10)
    , m_arrived(arrived)
{
}

ResponseWriter::~ResponseWriter() = default;

QTcpSocket *ResponseWriter::socket() const
{
    if (!m_connection || m_gone)
        return nullptr;
    QTcpSocket *s = m_connection->socket();
    if (!s || s->state() != QAbstractSocket::ConnectedState)
        return nullptr;
    return s;
}

bool ResponseWriter::clientGone() const
{
    return socket() == nullptr;
}

bool ResponseWriter::congested() const
{
    QTcpSocket *s = socket();
    return s && m_connection && s->bytesToWrite() > m_connection->limits().writeHighWatermark;
}

namespace {

const char *reasonText(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 423: return "Locked";
    case 424: return "Failed Dependency";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
    }
}

} // namespace

QByteArray ResponseWriter::reasonPhrase(int status)
{
    return QByteArray(reasonText(status));
}

void ResponseWriter::writeHead(int status, const HeaderList &headers, qint64 contentLength, Flush flush)
{
    if (m_headWritten)
        return;
    m_headWritten = true;
    m_status = status;
    const bool bodyless = status == 204 || status == 304 || (status >= 100 && status < 200);
    m_chunked = contentLength < 0 && !bodyless && !m_http10;
    if (contentLength < 0 && !m_chunked && !bodyless)
        m_keepAlive = false;   // HTTP/1.0 stream: the end of the body is the close

    const QByteArrayView reason(reasonText(status));
    qsizetype expected = 80 + reason.size();   // status line, framing, Connection, the blank line
    for (const auto &h : headers)
        expected += h.first.size() + h.second.size() + 4;
    HeadBuilder out(expected);
    out.add("HTTP/1.1 ");
    if (status >= 100 && status <= 999)
        out.add(char('0' + status / 100)).add(char('0' + status / 10 % 10)).add(char('0' + status % 10));
    else
        out.add(QByteArray::number(status));
    out.add(' ').add(reason).add("\r\n");
    for (const auto &h : headers)
        out.add(h.first).add(": ").add(h.second).add("\r\n");
    if (m_chunked)
        out.add("Transfer-Encoding: chunked\r\n");
    else if (contentLength >= 0 && !bodyless)
        out.add("Content-Length: ").add(QByteArray::number(contentLength)).add("\r\n");
    if (!m_keepAlive)
        out.add("Connection: close\r\n");
    out.add("\r\n");
    const QByteArray head = out.take();
    output({head}, flush);
}

void ResponseWriter::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_holdTimer.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    m_holdTimer.stop();
    output({}, Flush::Now);
}

void ResponseWriter::output(std::initializer_list<QByteArrayView> parts, Flush flush)
{
    QTcpSocket *s = socket();
    if (!s)
        return;
    if (flush != Flush::Now) {
        // WithNext: the caller writes again at once as a rule; a zero timer is the safety net
        // (a posted call would cost two syscalls to wake our own event loop).
        if (m_pending.isEmpty())
            m_holdTimer.start(flush == Flush::Hold ? int(HoldLimit.count()) : 0, Qt::PreciseTimer, this);
        for (QByteArrayView part : parts)
            m_pending.append(part);
        return;
    }
    m_holdTimer.stop();
    if (m_pending.isEmpty()) {
        sendToSocket(s, parts);
        return;
    }
    // Held bytes first, in the same sendmsg().
    QVarLengthArray<QByteArrayView, 4> all;
    all.append(m_pending);
    all.append(parts.begin(), qsizetype(parts.size()));
    sendToSocket(s, all.constData(), all.size());
    m_pending.resize(0);
}

void ResponseWriter::writeBody(QByteArrayView data, Flush flush)
{
    if (m_finished || data.isEmpty() || m_headRequest)
        return;
    // The answer's first byte: an SSE comment (the relay's ": waiting for ..." while a request
    // waits for a switch or a load, or an engine's ping) carries none of it.
    if (!m_timeToFirstByte && data.front() != ':')
        m_timeToFirstByte = std::chrono::steady_clock::now() - m_arrived;
    m_bodyBytes += data.size();
    if (!socket())
        return;
    if (m_chunked) {
        char sizeLine[20];
        char *end = sizeLine + sizeof sizeLine;
        char *p = end;
        *--p = '\n';
        *--p = '\r';
        for (quint64 n = quint64(data.size()); n; n >>= 4)
            *--p = "0123456789abcdef"[n & 0xf];
        output({QByteArrayView(p, end - p), data, "\r\n"}, flush);
    } else {
        output({data}, flush);
    }
    if (!m_wasCongested && congested())
        m_wasCongested = true;
}

void ResponseWriter::finish()
{
    if (m_finished)
        return;
    if (!m_headWritten)
        writeHead(500, {}, 0);
    m_finished = true;
    output({m_chunked && !m_headRequest ? QByteArrayView("0\r\n\r\n") : QByteArrayView()}, Flush::Now);
    // The client has its last bytes and our write woke it, perhaps onto this CPU, where it would
    // wait for all that follows: records, closing the engine's connection, opening the next.
    // That tidy-up took 65 µs on a two-core machine; nginx, preempted at the write, lets the
    // client read first. So do we (docs/PERFORMANCE.md, "Who runs after the last write").
    if (socket())
        QThread::yieldCurrentThread();
    if (m_connection)
        m_connection->responseFinished(this, m_keepAlive);
    emit finished();
    deleteLater();
}

void ResponseWriter::respond(int status, const HeaderList &headers, const QByteArray &body)
{
    // The whole answer leaves in one write() instead of two or three (head, body, terminator),
    // and the body is not copied to get there.
    writeHead(status, headers, body.size(), Flush::WithNext);
    writeBody(body, Flush::Now);
    finish();
}

void ResponseWriter::abort()
{
    if (m_finished)
        return;
    if (!m_pending.isEmpty())
        output({}, Flush::Now);   // what was held (a head) still goes: the client sees the cut
    m_finished = true;
    m_keepAlive = false;
    if (m_connection)
        m_connection->responseFinished(this, false);
    emit finished();
    deleteLater();
}

void ResponseWriter::onBytesWritten()
{
    if (!m_wasCongested || !m_connection)
        return;
    QTcpSocket *s = socket();
    if (s && s->bytesToWrite() <= m_connection->limits().writeLowWatermark) {
        m_wasCongested = false;
        emit drained();
    }
}

void ResponseWriter::onClientDisconnected()
{
    if (m_gone || m_finished)
        return;
    m_gone = true;
    emit clientDisconnected();
    deleteLater();
}

} // namespace switchyard
