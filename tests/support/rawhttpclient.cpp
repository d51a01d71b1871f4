#include "rawhttpclient.h"

namespace switchyard::test {

// One clock for every client of the test process, so times of different clients compare.
static const QElapsedTimer &sharedClock()
{
    static const QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock;
}

RawHttpClient::RawHttpClient(quint16 port, QObject *parent)
    : QObject(parent)
    , m_clock(sharedClock())
    , m_port(port)
{
    connect(&m_socket, &QTcpSocket::readyRead, this, &RawHttpClient::onReadyRead);
    connect(&m_socket, &QTcpSocket::disconnected, this, [this] {
        onReadyRead();
        m_disconnected = true;
        m_disconnectedAtMs = m_clock.elapsed();
    });
}

bool RawHttpClient::connectToServer()
{
    m_socket.connectToHost(QHostAddress::LocalHost, m_port);
    // Completes in the kernel's accept queue, so blocking here does not need the server's loop.
    return m_socket.waitForConnected(5000);
}

void RawHttpClient::send(const QByteArray &raw)
{
    m_socket.write(raw);
    m_socket.flush();
}

void RawHttpClient::close()
{
    m_socket.abort();
}

QByteArray RawHttpClient::post(const QByteArray &path, const QByteArray &json, const QByteArray &extraHeaders)
{
    return "POST " + path + " HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(json.size()) + "\r\n" + extraHeaders + "\r\n" + json;
}

QByteArray RawHttpClient::get(const QByteArray &path, const QByteArray &extraHeaders)
{
    return "GET " + path + " HTTP/1.1\r\nHost: relay\r\n" + extraHeaders + "\r\n";
}

void RawHttpClient::onReadyRead()
{
    if (!m_socket.isOpen())
        return;
    const QByteArray data = m_socket.readAll();
    if (data.isEmpty())
        return;
    const qint64 now = m_clock.elapsed();
    m_raw += data;
    m_unparsed += data;
    while (!m_unparsed.isEmpty()) {
        if (!m_current) {
            m_responses.append(Response());
            m_current = true;
            m_parser = ResponseParser();
        }
        Response &r = m_responses.last();
        QByteArray body;
        const bool hadHead = m_parser.headComplete();
        const qsizetype used = m_parser.feed(m_unparsed, &body);
        m_unparsed.remove(0, used);
        if (!hadHead && m_parser.headComplete()) {
            r.status = m_parser.status();
            r.headers = m_parser.headers();
            r.headAtMs = now;
        }
        if (!body.isEmpty()) {
            r.body += body;
            r.chunkArrivalsMs.append(now);
        }
        if (m_parser.isDone()) {
            r.completedAtMs = now;
            m_current = false;
        } else if (m_parser.hasError()) {
            qWarning("RawHttpClient: %s", qPrintable(m_parser.errorString()));
            m_unparsed.clear();
            break;
        } else if (used == 0) {
            break;
        }
        if (!m_parser.isDone() && used >= 0 && m_unparsed.isEmpty())
            break;
    }
}

} // namespace switchyard::test
