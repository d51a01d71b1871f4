#pragma once

#include "http/httpheaders.h"
#include "http/responseparser.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTcpSocket>

namespace switchyard::test {

// A test client that speaks HTTP/1.1 by hand over one connection, so tests can see exactly what
// the relay writes: framing, timing of each piece, several responses on one connection.
class RawHttpClient final : public QObject
{
    Q_OBJECT

public:
    struct Response
    {
        int status = 0;
        HeaderList headers;
        QByteArray body;
        QList<qint64> chunkArrivalsMs;   // when each piece of body arrived, ms on a clock all clients share
        qint64 headAtMs = -1;
        qint64 completedAtMs = -1;
        QByteArray header(QByteArrayView name) const { return HttpHeaders::value(headers, name); }
    };

    explicit RawHttpClient(quint16 port, QObject *parent = nullptr);

    bool connectToServer();
    void send(const QByteArray &raw);
    void close();

    // A POST with a JSON body and Content-Length.
    static QByteArray post(const QByteArray &path, const QByteArray &json, const QByteArray &extraHeaders = {});
    static QByteArray get(const QByteArray &path, const QByteArray &extraHeaders = {});

    const QList<Response> &responses() const { return m_responses; }
    int completedResponses() const { return int(m_responses.size()) - (m_current ? 1 : 0); }
    const Response *current() const { return m_current ? &m_responses.last() : nullptr; }
    bool isDisconnected() const { return m_disconnected; }
    qint64 disconnectedAtMs() const { return m_disconnectedAtMs; }
    QByteArray rawReceived() const { return m_raw; }
    qint64 nowMs() const { return m_clock.elapsed(); }
    QTcpSocket *socket() { return &m_socket; }

private:
    void onReadyRead();

    QElapsedTimer m_clock;
    QTcpSocket m_socket;
    quint16 m_port;
    QByteArray m_raw;
    QByteArray m_unparsed;
    ResponseParser m_parser;
    QList<Response> m_responses;
    bool m_current = false;
    bool m_disconnected = false;
    qint64 m_disconnectedAtMs = -1;
};

} // namespace switchyard::test
