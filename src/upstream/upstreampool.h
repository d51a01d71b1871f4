#pragma once

#include <QBasicTimer>
#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <chrono>
#include <memory>

namespace switchyard {

class UpstreamSocket;

// Keep-alive connections to upstreams, by "host:port". No cap on connections per host: each
// request that finds no idle connection opens its own (QNetworkAccessManager's cap of six per
// host would hold back concurrent streams, QT64_NOTES).
class UpstreamPool final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamPool)

public:
    // What an upstream's base URL ("http://box:8080/llama") comes to on the wire. Worked out
    // once per URL and kept here: QUrl's accessors on every request cost more than the rest
    // of building the request head.
    struct Target
    {
        QString host;
        QHostAddress address;    // the host if it is an IP address, else null (a name to look up)
        quint16 port = 80;
        QByteArray hostHeader;   // the authority, encoded
        QByteArray pathPrefix;   // every request goes under it; no trailing '/'
        QString key;             // "host:port", for the idle connections
    };
    const Target &target(const QUrl &base);

    explicit UpstreamPool(QObject *parent = nullptr);
    ~UpstreamPool() override;

    // An idle connected socket for the key, or nullptr; it becomes a child of owner.
    UpstreamSocket *take(const QString &key, QObject *owner);
    // Hand a socket back after a complete response that allows reuse.
    void give(const QString &key, UpstreamSocket *socket);
    // Opens one connection to the target ahead of the next request and keeps it idle, unless
    // one is idle or on its way already. llama-server closes the connection after every
    // completion, so without this each request would wait for a TCP handshake (a round trip
    // on a LAN) before its bytes could leave; Envoy's "preconnect" does the same. At most one
    // per target, closed unused after the idle timeout.
    void preconnect(const Target &target);

    // Where every exchange of this thread reads its socket: each read is parsed before the
    // next one starts, so one buffer serves all of them instead of one per stream.
    char *readBuffer() { return m_readBuffer.get(); }
    static constexpr qsizetype ReadBufferSize = 64 * 1024;

    // Shorter than llama-server's own keep-alive (5 s), so we never reuse a connection it closes.
    static constexpr std::chrono::milliseconds DefaultIdleTimeout{std::chrono::seconds(4)};
    void setIdleTimeout(std::chrono::milliseconds timeout) { m_idleTimeout = timeout; }
    static constexpr int MaxIdlePerKey = 32;

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    struct Idle
    {
        QPointer<UpstreamSocket> socket;
        std::chrono::steady_clock::time_point since;
        QMetaObject::Connection dropWhenReadable;
    };
    struct Connecting
    {
        QPointer<UpstreamSocket> socket;
        std::chrono::steady_clock::time_point since;
    };
    void drop(UpstreamSocket *socket);
    void closeExpired();

    QHash<QString, QList<Idle>> m_idle;
    QHash<QString, Connecting> m_preconnecting;   // by key: the connection on its way
    QBasicTimer m_sweepTimer;                     // runs while connections are idle
    std::chrono::milliseconds m_idleTimeout = DefaultIdleTimeout;
    QHash<QUrl, Target> m_targets;
    std::unique_ptr<char[]> m_readBuffer{new char[ReadBufferSize]};
};

} // namespace switchyard
