#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTcpSocket>

#include <functional>

// A client that shows the exact bytes a server writes, and when they came.
class RawHttpClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RawHttpClient)

public:
    struct Response
    {
        QByteArray statusLine;
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray headBytes;        // everything up to and including the blank line
        QByteArray body;             // decoded (de-chunked) body
        QList<QByteArray> chunks;    // the chunked body's chunks, in order
        bool chunked = false;
        bool complete = false;       // Content-Length reached, or the 0-chunk seen
        qsizetype consumed = 0;      // bytes of the raw data this response used

        int status() const;
        QByteArray header(const QByteArray &name) const;
        int headerCount(const QByteArray &name) const;
    };

    explicit RawHttpClient(quint16 port, QObject *parent = nullptr);

    bool connectToServer(); // waits with a timeout
    void send(const QByteArray &bytes);
    void get(const QByteArray &target);
    void post(const QByteArray &target, const QByteArray &json, const QByteArray &extraHeaders = {});
    void abort();

    const QByteArray &data() const { return m_data; }
    bool isClosed() const { return m_closed; }
    qint64 firstByteAtMs() const { return m_firstByteAtMs; }
    qint64 sentAtMs() const { return m_sentAtMs; }
    qint64 closedAtMs() const { return m_closedAtMs; }
    // (arrival time, bytes) of every read.
    const QList<QPair<qint64, QByteArray>> &arrivals() const { return m_arrivals; }

    // Parses the response that starts at `offset` in the data received so far.
    Response response(qsizetype offset = 0) const;
    static Response parse(const QByteArray &raw);

    bool waitForClose(int timeoutMs);
    bool waitForComplete(int timeoutMs, qsizetype offset = 0);
    bool waitForData(const QByteArray &needle, int timeoutMs);

private:
    bool waitUntil(const std::function<bool()> &done, int timeoutMs);

    QTcpSocket m_socket;
    quint16 m_port;
    QByteArray m_data;
    QList<QPair<qint64, QByteArray>> m_arrivals;
    bool m_closed = false;
    qint64 m_firstByteAtMs = -1;
    qint64 m_sentAtMs = -1;
    qint64 m_closedAtMs = -1;
};
