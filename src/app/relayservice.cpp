#include "app/relayservice.h"

#include "admin/adminapi.h"
#include "app/consolejournal.h"
#include "catalog/catalog.h"
#include "catalog/modelevents.h"
#include "common/clock.h"
#include "engines/driverfactory.h"
#include "engines/enginedriver.h"
#include "engines/gpuboard.h"
#include "hosts/enginediscovery.h"
#include "hosts/hostcontroller.h"
#include "hosts/promptcachekeeper.h"
#include "http/httpserver.h"
#include "http/tlscredentials.h"
#include "metrics/fleetgauges.h"
#include "metrics/relaymetrics.h"
#include "store/historystore.h"
#include "replies/clientreplies.h"
#include "relay/relay.h"
#include "upstream/upstreampool.h"

#include <QSysInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

ServerLimits serverLimits(const Config &config)
{
    ServerLimits limits;
    limits.maxBodyBytes = config.limits.maxBodyBytes;
    limits.idleTimeout = config.limits.clientIdleTimeout;
    limits.requestReadTimeout = config.limits.headerTimeout;
    return limits;
}

QHash<QString, HostController *> controllersByHost(const QList<HostController *> &controllers)
{
    QHash<QString, HostController *> byHost;
    for (HostController *c : controllers)
        byHost.insert(c->host(), c);
    return byHost;
}

} // namespace

RelayService::RelayService(const Config &config, DriverFactory drivers, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_clock(clock ? clock : &systemClock())
    , m_pool(new UpstreamPool(this))
    , m_catalog(new Catalog(config, m_pool, m_clock, this))
    , m_events(new ModelEvents(m_catalog, m_pool, this))
    , m_admin(new AdminApi(m_clock, this))
    , m_relay(new Relay(config, m_catalog, m_pool, m_admin, m_clock, this))
    , m_server(new HttpServer(serverLimits(config), m_relay, m_clock, this))
    , m_gpus(new GpuBoard(this))
    , m_metrics(new RelayMetrics(m_clock->now(), [this] { return fleetGauges(*m_catalog, controllersByHost(m_controllers)); },
                                 [this](const QString &alias) { return m_servedAliases.contains(alias); }, this))
{
    m_admin->setMetrics(m_metrics);
    m_admin->setGpuBoard(m_gpus);
    m_admin->setModelEvents(m_events);
    m_admin->setCatalog(m_catalog);
    QHash<QString, QString> driverNames;
    for (const HostConfig &host : config.hosts)
        driverNames.insert(host.name, host.driver);
    m_admin->setDrivers(driverNames);
    m_admin->setActiveRequests(&m_active);
    connect(m_relay, &Relay::requestProgress, this, [this](const RequestRecord &record, RequestPhase phase) {
        m_active.update(record, phase);
        m_admin->requestProgress(record, phase);   // to the watching windows' /admin/stream
    });
    connect(m_relay, &Relay::requestFinished, this, [this](const RequestRecord &record) { m_active.finish(record); });
    // The metrics' alias labels: read once per change of the catalog, not per request.
    const auto readServedAliases = [this] {
        const QStringList aliases = m_catalog->aliases();
        m_servedAliases = QSet<QString>(aliases.cbegin(), aliases.cend());
    };
    readServedAliases();
    connect(m_catalog, &Catalog::changed, this, readServedAliases);
    connect(m_relay, &Relay::requestFinished, m_metrics, &RelayMetrics::requestFinished);
    if (drivers) {
        for (const HostConfig &host : config.hosts) {
            if (std::unique_ptr<EngineDriver> driver = drivers(host)) {
                connect(driver.get(), &EngineDriver::gpusKnown, m_gpus,
                        [board = m_gpus, name = host.name](const QList<GpuReading> &gpus) { board->set(name, gpus); });
                auto *controller = new HostController(host.name, std::move(driver), m_catalog, m_clock,
                                                      host.scheduling, this);
                controller->setPower(host, m_pool);
                // How a shared box's agent lists this relay's waiters and holders.
                controller->setRelayName(u"%1:%2"_s.arg(QSysInfo::machineHostName()).arg(config.listenPort));
                if (host.promptCache.enabled() && controller->canSwitch())
                    controller->setPromptCacheKeeper(new PromptCacheKeeper(host, m_pool, m_catalog, m_clock));
                m_controllers.append(controller);
            }
        }
        m_relay->setHostControllers(m_controllers);
        m_admin->setHostControllers(m_controllers);
        // Router engines never seen running are asked what they serve once their host is probed.
        for (HostController *c : std::as_const(m_controllers)) {
            auto *discovery = new EngineDiscovery(c, m_catalog, this);
            connect(c, &HostController::probed, discovery, &EngineDiscovery::start);
        }
        for (HostController *c : std::as_const(m_controllers))
            connect(c, &HostController::historyEvent, m_metrics, &RelayMetrics::historyEvent);
        // Switches and leases join the merged /models/sse feed as the relay's own events.
        for (HostController *c : std::as_const(m_controllers)) {
            connect(c, &HostController::historyEvent, m_relay, [this](const HistoryEvent &e) {
                const QJsonObject data{{"engine"_L1, e.engine}, {"model"_L1, e.model}, {"detail"_L1, e.detail},
                                       {"text"_L1, e.toString()},
                                       {"duration_ms"_L1, e.duration ? QJsonValue(double(e.duration->count())) : QJsonValue()}};
                const QJsonObject event{{"model"_L1, e.host + u"-*"_s},
                                        {"event"_L1, u"switchyard_"_s + HistoryEvent::kindName(e.kind)},
                                        {"data"_L1, data},
                                        {"proxy"_L1, QJsonObject{{"host"_L1, e.host}, {"key"_L1, u"*"_s}}}};
                m_relay->broadcastModelEvent("data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n");
            });
        }
    }
}

RelayService::DriverFactory RelayService::standardDrivers(const Config &config)
{
    DriverContext context;
    context.stateDir = config.stateDir;
    context.connectTimeout = config.limits.upstreamConnectTimeout;
    return [context](const HostConfig &host) { return createEngineDriver(host, context); };
}

bool RelayService::isWatcherPoll(const RequestRecord &record)
{
    return (record.method == "GET"_L1 || record.method == "HEAD"_L1) && record.path.startsWith("/admin/"_L1)
           && record.userAgent.startsWith("switchyard-desktop/"_L1) && record.status == 200;
}

HostController *RelayService::hostController(const QString &host) const
{
    for (HostController *c : m_controllers) {
        if (c->host() == host)
            return c;
    }
    return nullptr;
}

RelayService::~RelayService() = default;

void RelayService::rememberEnginesIn(const QString &path)
{
    m_catalog->setMemoryFile(path);
}

bool RelayService::start(QString *error)
{
    if (m_config.access.tls()) {
        QSslConfiguration tls;
        QString why;
        if (!TlsCredentials::serverConfiguration(m_config.access.tlsCertFile, m_config.access.tlsKeyFile, &tls, &why)) {
            *error = tr("cannot serve HTTPS: %1").arg(why);
            return false;
        }
        m_server->setTls(tls);
    }
    if (!m_server->listenOn(m_config.listenAddress, m_config.listenPort)) {
        *error = tr("cannot listen on %1:%2: %3")
                     .arg(m_config.listenAddress.toString())
                     .arg(m_config.listenPort)
                     .arg(m_server->errorString());
        return false;
    }
    connect(m_events, &ModelEvents::event, m_relay, &Relay::broadcastModelEvent);
    m_catalog->start();
    m_events->start();
    for (HostController *c : std::as_const(m_controllers))
        c->start();
    return true;
}

void RelayService::stopAccepting()
{
    m_server->stopAccepting();
    // A watcher's /admin/stream would keep this service's connection open (and it from being
    // retired): cut, it reconnects to whatever listens next.
    m_admin->endStreams();
}

void RelayService::shutdown(std::chrono::milliseconds grace)
{
    if (m_stopping)
        return;
    m_stopping = true;
    stopAccepting();
    // Nothing new starts now: what waits for a switch, a wake or a lease is told so at once.
    m_relay->refuseWaiting(ClientReplies::relayStopping());
    auto finishIfIdle = [this] {
        if (m_stopping && m_relay->requestsInFlight() == 0) {
            m_stopping = false;
            m_graceTimer.stop();
            emit stopped();
        }
    };
    connect(m_relay, &Relay::requestFinished, this, finishIfIdle, Qt::QueuedConnection);
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, [this] {
        if (!m_stopping)
            return;
        m_stopping = false;
        emit stopped();   // the grace period is over: whatever still runs is cut
    });
    m_graceTimer.start(grace);
    QMetaObject::invokeMethod(this, finishIfIdle, Qt::QueuedConnection);
}

QUrl RelayService::endpoint() const
{
    QUrl url;
    url.setScheme(m_config.access.tls() ? QStringLiteral("https") : QStringLiteral("http"));
    QHostAddress address = m_server->address();
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4 || address == QHostAddress::AnyIPv6)
        address = QHostAddress::LocalHost;
    url.setHost(address.toString());
    url.setPort(m_server->port());
    return url;
}

void RelayService::setHistory(HistoryStore *store)
{
    m_admin->setHistory(store);
    store->setSecrets(m_config.secrets());
    connect(m_relay, &Relay::requestFinished, store, [store](const RequestRecord &record) {
        if (!isWatcherPoll(record))
            store->record(record);
    });
    connect(m_relay, &Relay::historyEvent, store, &HistoryStore::recordEvent);   // failovers
    for (HostController *c : std::as_const(m_controllers)) {
        connect(c, &HostController::historyEvent, store, &HistoryStore::recordEvent);
        // Saved prompt caches are found again after a restart (the files are still on the box).
        if (PromptCacheKeeper *caches = c->promptCacheKeeper())
            caches->setIndex(store);
    }
}

void RelayService::setJournal(ConsoleJournal *journal)
{
    journal->setSecrets(m_config.secrets());
    connect(m_relay, &Relay::requestFinished, journal, [journal](const RequestRecord &record) {
        if (!isWatcherPoll(record))
            journal->request(record);
    });
    connect(m_relay, &Relay::historyEvent, journal, [journal](const HistoryEvent &e) { journal->event(e.toString()); });
    for (HostController *c : std::as_const(m_controllers))
        connect(c, &HostController::historyEvent, journal, [journal](const HistoryEvent &e) { journal->event(e.toString()); });
}

} // namespace switchyard
