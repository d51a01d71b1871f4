#pragma once

#include "http/httpheaders.h"

#include <QBasicTimer>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <initializer_list>
#include <optional>

class QTcpSocket;

namespace switchyard {

class ClientConnection;

// Writes one response onto a client connection: status line, headers, then the body either with
// a Content-Length or in chunked framing written by hand (QtHttpServer 6.4 has no streaming API).
// Safe after the client left: every write checks the socket first (QT64_NOTES trap 1).
class ResponseWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResponseWriter)

public:
    ResponseWriter(ClientConnection *connection, bool headRequest, bool http10, bool keepAlive,
                   std::chrono::steady_clock::time_point arrived);
    ~ResponseWriter() override;

    // Now: to the client at once. WithNext: the bytes wait and leave with the next write that
    // flushes (one write() for the head and the first event, or the last event and the
    // terminator), or when the event loop next turns, whichever comes first. Hold: the same,
    // but the next write may take a while: the bytes leave with it, or after HoldLimit.
    enum class Flush { Now, WithNext, Hold };
    static constexpr std::chrono::milliseconds HoldLimit{5};

    // contentLength < 0: the body is streamed (chunked for HTTP/1.1, until close for HTTP/1.0).
    void writeHead(int status, const HeaderList &headers, qint64 contentLength = -1, Flush flush = Flush::Now);
    void writeBody(QByteArrayView data, Flush flush = Flush::Now);
    void finish();
    // head + whole body + finish.
    void respond(int status, const HeaderList &headers, const QByteArray &body);
    // Ends the response without its terminator, so the client sees it as truncated.
    void abort();

    bool headWritten() const { return m_headWritten; }
    bool isFinished() const { return m_finished; }
    bool clientGone() const;
    bool congested() const;
    int status() const { return m_status; }
    qint64 bodyBytes() const { return m_bodyBytes; }
    // From arrival to the first body byte that is not an SSE comment (a keepalive is no answer).
    std::optional<std::chrono::nanoseconds> timeToFirstByte() const { return m_timeToFirstByte; }

    static QByteArray reasonPhrase(int status);

Q_SIGNALS:
    void drained();              // unsent bytes fell below the low watermark again
    void clientDisconnected();   // the response can no longer be delivered: stop producing it
    void finished();

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    friend class ClientConnection;
    void onBytesWritten();
    void onClientDisconnected();
    QTcpSocket *socket() const;
    void output(std::initializer_list<QByteArrayView> parts, Flush flush);

    QPointer<ClientConnection> m_connection;
    bool m_headRequest;
    bool m_http10;
    bool m_keepAlive;
    bool m_chunked = false;
    bool m_headWritten = false;
    bool m_finished = false;
    bool m_wasCongested = false;
    bool m_gone = false;
    int m_status = 0;
    qint64 m_bodyBytes = 0;
    std::chrono::steady_clock::time_point m_arrived;
    std::optional<std::chrono::nanoseconds> m_timeToFirstByte;
    QByteArray m_pending;   // written with Flush::WithNext or Hold, not sent yet
    QBasicTimer m_holdTimer;
};

} // namespace switchyard
