#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class Catalog;
class UpstreamExchange;
class UpstreamPool;

// Follows every host's GET /models/sse. Each event goes out relabelled (model -> alias,
// "*" or empty -> "<host>-*", plus "proxy":{"host","key"}) to the relay's own /models/sse
// subscribers, and the catalog hears about it too: it re-reads the host's list on each state
// change (at most once per MinRefreshGap) and on every (re)connect, for the events it missed
// while away (llama.cpp does not replay them). A load's progress in the events goes to the
// catalog as it comes (Catalog::applyLoadProgress), since the list does not carry it.
class ModelEvents final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelEvents)

public:
    ModelEvents(Catalog *catalog, UpstreamPool *pool, QObject *parent = nullptr);
    ~ModelEvents() override;

    void start();
    bool isConnected(const QString &host) const;

    static constexpr std::chrono::milliseconds MinRefreshGap{std::chrono::seconds(2)};
    static constexpr std::chrono::milliseconds MaxReconnectDelay{std::chrono::seconds(30)};

Q_SIGNALS:
    // One relabelled SSE frame, ready to write to subscribers.
    void event(const QByteArray &frame);

private:
    struct Feed
    {
        QString host;
        QUrl url;
        QString apiKey;   // the host's api_key, for an engine run with --api-key
        QPointer<UpstreamExchange> exchange;
        QByteArray buffer;
        std::chrono::milliseconds retryDelay{std::chrono::seconds(1)};
        bool connected = false;
        QTimer *refreshTimer = nullptr;
        std::chrono::steady_clock::time_point lastRefresh;
    };

    void connectFeed(Feed &feed);
    void onData(const QString &host, const QByteArray &data);
    void scheduleRefresh(Feed &feed);
    void reconnectLater(const QString &host);

    Catalog *m_catalog;
    UpstreamPool *m_pool;
    QHash<QString, Feed> m_feeds;
};

} // namespace switchyard
