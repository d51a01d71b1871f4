#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <chrono>

class QTcpSocket;

namespace switchyard {

// Keep-alive connections to upstreams, by "host:port". No cap on connections per host: each
// request that finds no idle connection opens its own (QNetworkAccessManager's cap of six per
// host would hold back concurrent streams, QT64_NOTES).
class UpstreamPool final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamPool)

public:
    explicit UpstreamPool(QObject *parent = nullptr);
    ~UpstreamPool() override;

    // An idle connected socket for the key, or nullptr. The caller owns it.
    QTcpSocket *take(const QString &key);
    // Hand a socket back after a complete response that allows reuse.
    void give(const QString &key, QTcpSocket *socket);
    int idleCount() const;

    // Shorter than llama-server's own keep-alive (5 s), so we never reuse a connection it closes.
    static constexpr std::chrono::milliseconds IdleTimeout{std::chrono::seconds(4)};
    static constexpr int MaxIdlePerKey = 32;

private:
    struct Idle
    {
        QPointer<QTcpSocket> socket;
        std::chrono::steady_clock::time_point since;
    };
    void drop(QTcpSocket *socket);

    QHash<QString, QList<Idle>> m_idle;
};

} // namespace switchyard
