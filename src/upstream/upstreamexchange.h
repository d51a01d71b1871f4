#pragma once

#include "http/httpheaders.h"
#include "http/responseparser.h"
#include "upstream/upstreampool.h"

#include <QObject>
#include <QPointer>
#include <QBasicTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamPool;
class UpstreamSocket;

// One request to an upstream llama-server and its response, streamed: the body arrives through
// bodyData() as it comes off the wire. Pausing stops reading the socket, so a slow client slows
// the upstream through TCP instead of filling the relay's memory.
class UpstreamExchange final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamExchange)

public:
    enum class Failure {
        None,
        Refused,          // connection refused or host unreachable
        HostNotFound,
        ConnectTimeout,
        Dropped,          // closed or reset before any response byte
        Truncated,        // closed in the middle of the body
        Protocol,         // the answer was not HTTP
        Inactivity,       // no byte for longer than the inactivity limit
    };
    Q_ENUM(Failure)

    struct Request
    {
        QUrl base;                  // scheme://host:port[/prefix] of the upstream
        QByteArray method = "GET";
        QByteArray target = "/";    // path and query, already encoded; sent below base's path
        HeaderList headers;         // forwardable headers; Host and framing are added here
        QByteArray body;
        // Bytes [replaceFrom, replaceTo) of body go upstream as `replacement` instead: the relay
        // swaps the model's name without copying 100 KB of conversation around it.
        qsizetype replaceFrom = -1;
        qsizetype replaceTo = -1;
        QByteArray replacement;
        std::chrono::milliseconds connectTimeout{std::chrono::seconds(10)};
        // 0 = none. Reset by every byte, so a long prefill with ':' pings is never cut.
        std::chrono::milliseconds inactivityTimeout{0};
    };

    UpstreamExchange(UpstreamPool *pool, Request request, QObject *parent = nullptr);
    ~UpstreamExchange() override;

    void start();
    // Close the upstream connection now: the upstream sees the cancellation at once.
    void abort();
    void setPaused(bool paused);

    int status() const { return m_parser.status(); }
    // While responseHead is emitted: whether body bytes of the same read follow (bodyData).
    bool bodyInThisRead() const { return !m_body.isEmpty(); }
    // Whether the whole response has been read (finished follows the last bodyData).
    bool responseComplete() const { return m_parser.isDone(); }
    const HeaderList &headers() const { return m_parser.headers(); }
    bool headReceived() const { return m_parser.headComplete(); }
    Failure failure() const { return m_failure; }
    QString errorString() const { return m_error; }
    static bool isConnectFailure(Failure f) { return f == Failure::Refused || f == Failure::HostNotFound || f == Failure::ConnectTimeout; }

Q_SIGNALS:
    void responseHead();
    void bodyData(const QByteArray &data);
    void finished();
    void failed(switchyard::UpstreamExchange::Failure failure, const QString &message);

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    void connectSocket(bool allowPooled);
    void sendRequest();
    void onReadyRead();
    void consume(QByteArrayView bytes);
    void onDisconnected();
    void fail(Failure failure, const QString &message);
    void complete();
    void releaseSocket(bool reusable);

    UpstreamPool *m_pool;
    Request m_request;
    UpstreamPool::Target m_target;   // what m_request.base comes to, looked up once at start()
    UpstreamSocket *m_socket = nullptr;   // a child
    ResponseParser m_parser;
    QByteArray m_body;   // the body bytes decoded from one read
    QBasicTimer m_connectTimer;
    QBasicTimer m_inactivityTimer;
    std::chrono::steady_clock::time_point m_lastByte;   // for the inactivity limit
    Failure m_failure = Failure::None;
    QString m_error;
    bool m_paused = false;
    bool m_reused = false;
    bool m_gotBytes = false;
    bool m_done = false;
};

} // namespace switchyard
