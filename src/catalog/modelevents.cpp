#include "catalog/modelevents.h"

#include "catalog/catalog.h"
#include "catalog/eventrelabel.h"
#include "catalog/loadprogress.h"
#include "upstream/upstreamexchange.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

ModelEvents::ModelEvents(Catalog *catalog, UpstreamPool *pool, QObject *parent)
    : QObject(parent)
    , m_catalog(catalog)
    , m_pool(pool)
{
    for (const QString &name : catalog->hostNames()) {
        Feed feed;
        feed.host = name;
        feed.url = catalog->host(name)->url;
        feed.apiKey = catalog->host(name)->apiKey;
        feed.refreshTimer = new QTimer(this);
        feed.refreshTimer->setSingleShot(true);
        connect(feed.refreshTimer, &QTimer::timeout, this, [this, name] {
            auto it = m_feeds.find(name);
            if (it == m_feeds.end())
                return;
            it->lastRefresh = std::chrono::steady_clock::now();
            m_catalog->refreshHost(name);
        });
        m_feeds.insert(name, feed);
    }
    // A switch moves the host's feed to the new engine's URL.
    connect(catalog, &Catalog::engineChanged, this, [this](const QString &host) {
        auto it = m_feeds.find(host);
        if (it == m_feeds.end())
            return;
        if (it->exchange) {
            it->exchange->disconnect(this);
            it->exchange->abort();
            it->exchange->deleteLater();
        }
        it->url = m_catalog->host(host)->url;
        it->connected = false;
        it->retryDelay = std::chrono::seconds(1);
        connectFeed(*it);
    });
}

ModelEvents::~ModelEvents()
{
    for (Feed &feed : m_feeds) {
        if (feed.exchange)
            feed.exchange->abort();
    }
}

void ModelEvents::start()
{
    for (Feed &feed : m_feeds)
        connectFeed(feed);
}

bool ModelEvents::isConnected(const QString &host) const
{
    auto it = m_feeds.constFind(host);
    return it != m_feeds.constEnd() && it->connected;
}

void ModelEvents::connectFeed(Feed &feed)
{
    UpstreamExchange::Request request;
    request.base = feed.url;
    request.target = "/models/sse";
    request.headers = {{"Accept", "text/event-stream"}};
    if (!feed.apiKey.isEmpty())
        request.headers.append({"Authorization", "Bearer " + feed.apiKey.toUtf8()});
    auto *exchange = new UpstreamExchange(m_pool, request, this);
    feed.exchange = exchange;
    feed.buffer.clear();
    const QString host = feed.host;
    connect(exchange, &UpstreamExchange::responseHead, this, [this, host, exchange] {
        auto it = m_feeds.find(host);
        if (it == m_feeds.end())
            return;
        if (exchange->status() != 200) {
            exchange->abort();
            exchange->deleteLater();
            it->connected = false;
            reconnectLater(host);
            return;
        }
        it->connected = true;
        it->retryDelay = std::chrono::seconds(1);
        // Whatever changed while we were not listening is only in the list: read it now.
        m_catalog->refreshHost(host);
    });
    connect(exchange, &UpstreamExchange::bodyData, this, [this, host](const QByteArray &data) { onData(host, data); });
    auto ended = [this, host, exchange] {
        exchange->deleteLater();
        auto it = m_feeds.find(host);
        if (it == m_feeds.end())
            return;
        it->connected = false;
        reconnectLater(host);
    };
    connect(exchange, &UpstreamExchange::finished, this, ended);
    connect(exchange, &UpstreamExchange::failed, this, ended);
    exchange->start();
}

void ModelEvents::reconnectLater(const QString &host)
{
    auto it = m_feeds.find(host);
    if (it == m_feeds.end())
        return;
    const auto delay = it->retryDelay;
    it->retryDelay = std::min(it->retryDelay * 2, MaxReconnectDelay);
    QTimer::singleShot(delay, this, [this, host] {
        auto it = m_feeds.find(host);
        if (it != m_feeds.end() && !it->connected)
            connectFeed(*it);
    });
}

void ModelEvents::onData(const QString &host, const QByteArray &data)
{
    auto it = m_feeds.find(host);
    if (it == m_feeds.end())
        return;
    it->buffer += data;
    qsizetype end;
    while ((end = it->buffer.indexOf("\n\n")) >= 0) {
        const QByteArray frame = it->buffer.left(end);
        it->buffer.remove(0, end + 2);
        for (const QByteArray &line : frame.split('\n')) {
            if (!line.startsWith("data:"))
                continue;   // pings and comments
            const QByteArray json = line.mid(5).trimmed();
            const QByteArray out = relabelModelEvent(host, json);
            if (out.isEmpty())
                continue;
            if (!json.contains("\"download_progress\""))
                scheduleRefresh(*it);
            if (const std::optional<ProgressEvent> progress = parseProgressEvent(json))
                m_catalog->applyLoadProgress(host, *progress);
            emit event(out);
        }
    }
    if (it->buffer.size() > 1024 * 1024)
        it->buffer.clear();
}

void ModelEvents::scheduleRefresh(Feed &feed)
{
    if (feed.refreshTimer->isActive())
        return;
    const auto since = std::chrono::steady_clock::now() - feed.lastRefresh;
    const auto wait = since >= MinRefreshGap ? std::chrono::milliseconds(0)
                                             : std::chrono::duration_cast<std::chrono::milliseconds>(MinRefreshGap - since);
    feed.refreshTimer->start(wait);
}

} // namespace switchyard
