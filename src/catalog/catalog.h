#pragma once

#include "catalog/hostmodels.h"
#include "catalog/loadprogress.h"
#include "catalog/replicaset.h"
#include "config/config.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

namespace switchyard {

class Clock;

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
    // What the relay knows of one engine of a host, running or not.
    struct EngineModels
    {
        QString name;
        QUrl url;
        QStringList explicitModels;   // configured: not a router, its models are up with it
        QList<ModelEntry> lastSeen;   // its list the last time it ran
        // How it starts (drivers local, agent, and the demo's): a single-model server's -c says
        // its model's context before the engine has ever run.
        QStringList argv;
    };

    struct HostState
    {
        QString host;
        QString engine;                // the engine running now (or believed to)
        QUrl url;                      // its URL
        QString apiKey;                // the host's api_key: the engine may want it on /models too
        QList<EngineModels> engines;   // all of the host's engines, in config order
        bool everFetched = false;
        bool reachable = false;
        QString lastError;
        QDateTime lastPoll;
        qint64 roundTripMs = -1;
        QList<ModelEntry> models;
        // "asleep" or "unloaded" while the relay has stopped the host for idleness (or it sleeps):
        // every model of it reads so, whatever the last snapshot said. Empty = as listed.
        QString powerStatus;
        // Key -> how far the load (or download) of a model that reads "loading" (or
        // "downloading") has got, as the host's /models/sse said; none before the router says.
        QHash<QString, LoadProgress> loadProgress;
    };

    // Without a clock, the system's (systemClock()).
    Catalog(const Config &config, UpstreamPool *pool, const Clock *clock = nullptr, QObject *parent = nullptr);
    ~Catalog() override;

    // Remember each engine's models across restarts in this file (see EngineMemory).
    void setMemoryFile(const QString &path);
    void start();
    void refreshHost(const QString &host);
    void refreshAll();
    // A request met the host's engine unreachable: the host reads down from now on, with why,
    // until a read of its list succeeds again.
    void markUnreachable(const QString &host, const QString &why);
    // Reads the host's list now, within ProbeTimeout, and tells whether it answered: a request
    // for a host that reads down asks once before it is refused, so a box that came back is used
    // at once rather than at the next poll. done() runs once, in context's thread, unless
    // context is gone.
    void probe(const QString &host, QObject *context, std::function<void(bool reachable)> done);
    static constexpr std::chrono::milliseconds ProbeTimeout{1500};

    const HostState *host(const QString &name) const;
    QStringList hostNames() const { return m_order; }
    // Whether a read of the host's list is under way (its answer has not been applied yet).
    bool isRefreshing(const QString &host) const { return !m_inFlight.value(host).isNull(); }
    std::optional<ModelEntry> model(const QString &host, const QString &key) const;
    // Which engine serves a key: the running one if it lists it, else the first engine (in
    // config order) that listed it. Empty when no engine is known to have it.
    QString engineFor(const QString &host, const QString &key) const;
    bool isExplicitModel(const QString &host, const QString &engine, const QString &key) const;
    // The host now runs `engine` (after a switch, or as a probe found): read its list.
    void setCurrentEngine(const QString &host, const QString &engine);
    // Marks a model's state at once (e.g. "loading" after a load was accepted).
    void setModelStatus(const QString &host, const QString &key, const QString &status);
    // A load was accepted: the model reads "loading" from now on, even if a snapshot taken in the
    // instant before the engine starts it still says "unloaded", until the engine reports it
    // loaded, failed, or LoadGrace passes.
    void markLoading(const QString &host, const QString &key);
    void markUnloading(const QString &host, const QString &key);
    // A /models/sse event about a load (ModelEvents hears them): kept in HostState::loadProgress
    // until the model no longer reads loading or downloading.
    void applyLoadProgress(const QString &host, const ProgressEvent &event);
    // The host's power state as its models show it: "asleep", "unloaded", or empty for none.
    void setPowerStatus(const QString &host, const QString &status);
    static constexpr std::chrono::milliseconds LoadGrace{std::chrono::seconds(30)};

    // "<host>-<key>" for every model of every engine of every host, running or not, in host order,
    // then the replicated aliases (what /models lists).
    QStringList aliases() const;
    static QString aliasFor(const QString &host, const QString &key) { return host + u'-' + key; }

    // Every model of every engine of every host, in host order: the running engine's as it
    // reports them, the others' as remembered or configured (reading unloaded, or loading).
    struct ListedModel
    {
        QString host;
        QString engine;
        ModelEntry entry;
        // Tokens: meta.n_ctx of a model loaded now, else the one last seen while it was
        // loaded (a model of an engine not running now included); 0 when never seen.
        qint64 contextSize = 0;
    };
    QList<ListedModel> listedModels() const;

    // The config's replicated aliases, each listed once in /models after the hosts' models.
    const QList<ReplicaSet> &replicaSets() const { return m_replicaSets; }

    // Merged router-format list (`/models`), cached until something changes. Each entry's
    // "proxy" names its host, key and engine, and "n_ctx" when ListedModel::contextSize knows it.
    QByteArray modelsJson() const;

Q_SIGNALS:
    void hostRefreshed(const QString &host);
    void engineChanged(const QString &host);   // the host now runs another engine, at another URL
    void changed();

private:
    void fetch(HostState &state, std::optional<std::chrono::milliseconds> timeout = std::nullopt);
    void invalidate();
    void applyLoadingOverlay(HostState &state);
    static void dropEndedProgress(HostState &state);
    void remember();

    UpstreamPool *m_pool;
    const Clock *m_clock;
    std::chrono::milliseconds m_connectTimeout;
    QStringList m_order;
    QHash<QString, HostState> m_hosts;
    QHash<QString, QPointer<UpstreamExchange>> m_inFlight;
    QHash<QString, std::chrono::steady_clock::time_point> m_loading;   // "host\nkey" -> since
    QTimer m_pollTimer;
    QString m_memoryFile;
    QList<ReplicaSet> m_replicaSets;
    mutable QByteArray m_cachedJson;
};

} // namespace switchyard
