#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

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
    // What an upstream's base URL ("http://box:8080/llama") comes to on the wire. Worked out
    // once per URL and kept here: QUrl's accessors on every request cost more than the rest
    // of building the request head.
    struct Target
    {
        QString host;
        quint16 port = 80;
        QByteArray hostHeader;   // the authority, encoded
        QByteArray pathPrefix;   // every request goes under it; no trailing '/'
        QString key;             // "host:port", for the idle connections
    };
    const Target &target(const QUrl &base);

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
    QHash<QUrl, Target> m_targets;
};

} // namespace switchyard
