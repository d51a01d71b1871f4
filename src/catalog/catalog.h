#pragma once

#include "catalog/hostmodels.h"
#include "config/config.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <optional>

namespace switchyard {

class UpstreamPool;
class UpstreamExchange;

// What every host's engine says it serves: per-host snapshots of GET /models, read at start,
// on demand and on a timer, merged into one list whose ids are aliases. Requests are answered
// from the snapshots, never by asking the hosts on the request's path.
class Catalog final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Catalog)

public:
    struct HostState
    {
        QString host;
        QString engine;
        QUrl url;
        bool everFetched = false;
        bool reachable = false;
        QString lastError;
        QDateTime lastPoll;
        qint64 roundTripMs = -1;
        QList<ModelEntry> models;
    };

    Catalog(const Config &config, UpstreamPool *pool, QObject *parent = nullptr);
    ~Catalog() override;

    void start();
    void refreshHost(const QString &host);
    void refreshAll();

    const HostState *host(const QString &name) const;
    QStringList hostNames() const { return m_order; }
    std::optional<ModelEntry> model(const QString &host, const QString &key) const;
    // Marks a model's state at once (e.g. "loading" after a load was accepted).
    void setModelStatus(const QString &host, const QString &key, const QString &status);
    // A load was accepted: the model reads "loading" from now on, even if a snapshot taken in the
    // instant before the engine starts it still says "unloaded", until the engine reports it
    // loaded, failed, or LoadGrace passes.
    void markLoading(const QString &host, const QString &key);
    void markUnloading(const QString &host, const QString &key);
    static constexpr std::chrono::milliseconds LoadGrace{std::chrono::seconds(30)};

    // "<host>-<key>" for every model of every host, in host order.
    QStringList aliases() const;
    static QString aliasFor(const QString &host, const QString &key) { return host + u'-' + key; }

    // Merged router-format list (`/models`), cached until something changes.
    QByteArray modelsJson() const;

Q_SIGNALS:
    void hostRefreshed(const QString &host);
    void changed();

private:
    void fetch(HostState &state);
    void invalidate();
    void applyLoadingOverlay(HostState &state);

    UpstreamPool *m_pool;
    std::chrono::milliseconds m_connectTimeout;
    QStringList m_order;
    QHash<QString, HostState> m_hosts;
    QHash<QString, QPointer<UpstreamExchange>> m_inFlight;
    QHash<QString, QStringList> m_explicitModels;   // host -> configured model list of its engine
    QHash<QString, std::chrono::steady_clock::time_point> m_loading;   // "host\nkey" -> since
    QTimer m_pollTimer;
    mutable QByteArray m_cachedJson;
};

} // namespace switchyard
