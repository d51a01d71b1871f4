#pragma once

#include "journal/activerequests.h"
#include "config/config.h"

#include <QObject>
#include <QSet>
#include <QTimer>
#include <QUrl>

#include <chrono>

#include <functional>
#include <memory>

namespace switchyard {

class Catalog;
class Clock;
class ConsoleJournal;
class AdminApi;
class EngineDriver;
class GpuBoard;
class HistoryStore;
class HostController;
class HttpServer;
class RelayMetrics;
class ModelEvents;
class Relay;
class UpstreamPool;

// The relay as one unit: upstream pool, catalog, request handling and the HTTP server, wired
// together from a Config. The window, the tray and headless mode all run one of these.
class RelayService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelayService)

public:
    // Makes the driver that switches a host's engines; without one, hosts are served as they
    // are (never switched).
    using DriverFactory = std::function<std::unique_ptr<EngineDriver>(const HostConfig &host)>;

    // Everything it builds reads the time from `clock` (the system's when none is given).
    explicit RelayService(const Config &config, DriverFactory drivers = {}, const Clock *clock = nullptr,
                          QObject *parent = nullptr);
    // The drivers the config names (static, local, agent, command), for the real application.
    static DriverFactory standardDrivers(const Config &config);
    ~RelayService() override;

    // Keep what each engine serves in this file across restarts (call before start()).
    void rememberEnginesIn(const QString &path);
    bool start(QString *error);
    void stopAccepting();
    // SIGTERM: stop accepting, let running requests finish for up to `grace`, then emit stopped().
    void shutdown(std::chrono::milliseconds grace);
    QUrl endpoint() const;

    void setJournal(ConsoleJournal *journal);
    // Every finished request goes into the store as well (it redacts and batches on its own),
    // but for a watching window's polls (isWatcherPoll()), which neither it nor the journal keeps.
    void setHistory(HistoryStore *store);
    // A window watching this relay from elsewhere asking its admin API (GET /admin/..., answered
    // 200, user agent switchyard-desktop/): several a second, they would crowd out the requests.
    static bool isWatcherPoll(const RequestRecord &record);
    QList<HostController *> hostControllers() const { return m_controllers; }
    HostController *hostController(const QString &host) const;

    Catalog *catalog() const { return m_catalog; }
    Relay *relay() const { return m_relay; }
    AdminApi *admin() const { return m_admin; }
    ModelEvents *modelEvents() const { return m_events; }
    // What each host's agent last said about its GPUs.
    GpuBoard *gpus() const { return m_gpus; }
    HttpServer *server() const { return m_server; }
    const Config &config() const { return m_config; }

Q_SIGNALS:
    void stopped();

private:
    Config m_config;
    const Clock *m_clock;
    UpstreamPool *m_pool;
    Catalog *m_catalog;
    ModelEvents *m_events;
    AdminApi *m_admin;   // before the relay, which is given it
    Relay *m_relay;
    HttpServer *m_server;
    QList<HostController *> m_controllers;
    GpuBoard *m_gpus;
    RelayMetrics *m_metrics;
    QSet<QString> m_servedAliases;   // what the catalog lists, for the metrics' alias labels
    ActiveRequests m_active;         // what the relay serves now, for /admin/requests?state=active
    QTimer m_graceTimer;
    bool m_stopping = false;
};

} // namespace switchyard
