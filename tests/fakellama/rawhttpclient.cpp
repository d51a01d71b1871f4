#include "rawhttpclient.h"

#include "fakellamaserver.h"

#include <QEventLoop>
#include <QTimer>

using switchyard::fake::FakeLlamaServer;

int RawHttpClient::Response::status() const
{
    const QList<QByteArray> parts = statusLine.split(' ');
    return parts.size() >= 2 ? parts.at(1).toInt() : 0;
}

QByteArray RawHttpClient::Response::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

int RawHttpClient::Response::headerCount(const QByteArray &name) const
{
    int count = 0;
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            ++count;
    }
    return count;
}

RawHttpClient::RawHttpClient(quint16 port, QObject *parent)
    : QObject(parent)
    , m_port(port)
{
    connect(&m_socket, &QTcpSocket::readyRead, this, [this] {
        const QByteArray bytes = m_socket.readAll();
        const qint64 now = FakeLlamaServer::nowMs();
        if (m_firstByteAtMs < 0 && !bytes.isEmpty())
            m_firstByteAtMs = now;
        m_arrivals.append({now, bytes});
        m_data += bytes;
    });
    connect(&m_socket, &QTcpSocket::disconnected, this, [this] {
        m_closed = true;
        m_closedAtMs = FakeLlamaServer::nowMs();
    });
}

bool RawHttpClient::connectToServer()
{
    m_socket.connectToHost(QHostAddress::LocalHost, m_port);
    return m_socket.waitForConnected(3000);
}

void RawHttpClient::send(const QByteArray &bytes)
{
    m_sentAtMs = FakeLlamaServer::nowMs();
    m_socket.write(bytes);
    m_socket.flush();
}

void RawHttpClient::get(const QByteArray &target)
{
    send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n");
}

void RawHttpClient::post(const QByteArray &target, const QByteArray &json, const QByteArray &extraHeaders)
{
    send("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\nContent-Type: application/json\r\n"
         + extraHeaders + "Content-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json);
}

void RawHttpClient::abort()
{
    m_socket.abort();
}

RawHttpClient::Response RawHttpClient::response(qsizetype offset) const
{
    return parse(m_data.mid(offset));
}

RawHttpClient::Response RawHttpClient::parse(const QByteArray &raw)
{
    Response r;
    const qsizetype headEnd = raw.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return r;
    r.headBytes = raw.left(headEnd + 4);
    const QList<QByteArray> lines = raw.left(headEnd).split('\n');
    r.statusLine = lines.constFirst().trimmed();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i);
        const qsizetype colon = line.indexOf(':');
        r.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    qsizetype pos = headEnd + 4;
    r.chunked = r.header("Transfer-Encoding") == "chunked";
    if (!r.chunked) {
        const qsizetype length = r.header("Content-Length").toLongLong();
        r.body = raw.mid(pos, length);
        r.complete = raw.size() - pos >= length;
        r.consumed = pos + r.body.size();
        return r;
    }
    for (;;) {
        const qsizetype lineEnd = raw.indexOf("\r\n", pos);
        if (lineEnd < 0)
            break;
        bool ok = false;
        const qsizetype size = raw.mid(pos, lineEnd - pos).toLongLong(&ok, 16);
        if (!ok || raw.size() < lineEnd + 2 + size + 2)
            break;
        if (size == 0) {
            r.complete = raw.mid(lineEnd + 2, 2) == "\r\n";
            r.consumed = lineEnd + 4;
            break;
        }
        const QByteArray chunk = raw.mid(lineEnd + 2, size);
        r.chunks.append(chunk);
        r.body += chunk;
        pos = lineEnd + 2 + size + 2;
        r.consumed = pos;
    }
    return r;
}

bool RawHttpClient::waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    if (done())
        return true;
    // Woken by the socket, not by polling: every read or the close re-checks.
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    auto check = [&] {
        if (done())
            loop.quit();
    };
    connect(&m_socket, &QTcpSocket::readyRead, &loop, check, Qt::QueuedConnection);
    connect(&m_socket, &QTcpSocket::disconnected, &loop, check, Qt::QueuedConnection);
    deadline.start(timeoutMs);
    loop.exec();
    return done();
}

bool RawHttpClient::waitForClose(int timeoutMs)
{
    return waitUntil([this] { return m_closed; }, timeoutMs);
}

bool RawHttpClient::waitForComplete(int timeoutMs, qsizetype offset)
{
    return waitUntil([this, offset] { return response(offset).complete; }, timeoutMs);
}

bool RawHttpClient::waitForData(const QByteArray &needle, int timeoutMs)
{
    return waitUntil([this, needle] { return m_data.contains(needle); }, timeoutMs);
}
