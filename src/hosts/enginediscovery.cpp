#include "hosts/enginediscovery.h"

#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"
#include "hosts/hostslogging.h"

namespace switchyard {

using namespace Qt::StringLiterals;

EngineDiscovery::EngineDiscovery(HostController *host, Catalog *catalog, QObject *parent)
    : QObject(parent)
    , m_host(host)
    , m_catalog(catalog)
{
    m_listTimeout.setSingleShot(true);
    m_listTimeout.setInterval(ListTimeout);
    connect(&m_listTimeout, &QTimer::timeout, this, [this] {
        qCWarning(lcHosts) << "host" << (m_host ? m_host->host() : QString()) << "engine" << m_asking
                               << "listed no models within" << ListTimeout.count() << "s";
        m_asking.clear();
        next();
    });
    connect(m_catalog, &Catalog::hostRefreshed, this, &EngineDiscovery::listed);
}

QStringList EngineDiscovery::unknownEngines() const
{
    QStringList out;
    const Catalog::HostState *state = m_host ? m_catalog->host(m_host->host()) : nullptr;
    if (!state || !m_host->canSwitch())
        return out;
    for (const Catalog::EngineModels &e : state->engines) {
        if (e.explicitModels.isEmpty() && e.lastSeen.isEmpty())
            out.append(e.name);
    }
    return out;
}

void EngineDiscovery::start(const QString &runningEngine)
{
    if (m_running)
        return;
    m_queue = unknownEngines();
    if (m_queue.isEmpty())
        return;
    m_running = true;
    m_runBefore = runningEngine;
    // The one running now is read by the catalog anyway: ask it first, without a switch.
    if (m_queue.removeAll(runningEngine))
        m_queue.prepend(runningEngine);
    qCDebug(lcHosts) << "host" << m_host->host() << "asks" << m_queue << "what they serve";
    next();
}

void EngineDiscovery::next()
{
    if (!m_host) {
        done();
        return;
    }
    if (m_queue.isEmpty()) {
        if (!m_runBefore.isEmpty() && m_host->currentEngine() != m_runBefore)
            m_host->switchEngine(m_runBefore, u"discovery"_s, {});
        done();
        return;
    }
    const QString engine = m_queue.takeFirst();
    QPointer<EngineDiscovery> self(this);
    m_host->switchEngine(engine, u"discovery"_s, [self, engine](const std::optional<HostRefusal> &refused) {
        if (self)
            self->switchedTo(engine, refused);
    });
}

void EngineDiscovery::switchedTo(const QString &engine, const std::optional<HostRefusal> &refused)
{
    if (refused) {
        qCWarning(lcHosts).noquote() << "host" << m_host->host() << "could not start engine" << engine << ":"
                                     << refused->facts();
        next();
        return;
    }
    const QString host = m_host->host();
    const Catalog::HostState *state = m_catalog->host(host);
    m_asking = engine;
    m_listTimeout.start();
    // The switch has the catalog read the new engine's list already; an engine that ran all
    // along may have been read before we asked, or needs one read now.
    if (state && !m_catalog->isRefreshing(host)) {
        if (state->reachable && state->engine == engine && !unknownEngines().contains(engine))
            listed(host);
        else
            m_catalog->refreshHost(host);
    }
}

void EngineDiscovery::listed(const QString &host)
{
    if (m_asking.isEmpty() || !m_host || host != m_host->host())
        return;
    const Catalog::HostState *state = m_catalog->host(host);
    if (!state || state->engine != m_asking || !state->reachable)
        return;
    qCDebug(lcHosts) << "host" << host << "engine" << m_asking << "serves" << state->models.size() << "model(s)";
    m_listTimeout.stop();
    m_asking.clear();
    next();
}

void EngineDiscovery::done()
{
    m_running = false;
    emit finished();
}

} // namespace switchyard
