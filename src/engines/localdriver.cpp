#include "engines/localdriver.h"

#include "engines/enginelogging.h"
#include "engines/enginesupervisor.h"

namespace switchyard {

using namespace Qt::StringLiterals;

LocalDriver::LocalDriver(const HostConfig &host, const QString &stateDir, UpstreamPool *pool, QObject *parent)
    : EngineDriver(parent)
    , m_host(host.name)
    , m_supervisor(new EngineSupervisor(host.engines, stateDir + u'/' + stateFileName(host.name), pool, this))
{
    EngineFailure failure;
    if (!m_supervisor->open(&failure)) {
        failure.host = m_host;
        m_openFailure = failure;
        qCWarning(lcEngines).noquote() << u"host %1: %2"_s.arg(m_host, failure.toString());
    }
    watchSupervisor();
}

LocalDriver::LocalDriver(QString host, EngineSupervisor *supervisor, QObject *parent)
    : EngineDriver(parent)
    , m_host(std::move(host))
    , m_supervisor(supervisor)
{
    watchSupervisor();
}

void LocalDriver::watchSupervisor()
{
    // Queued: the supervisor's state is settled before anyone hears of it, and a listener that
    // calls back into the driver never runs inside the supervisor.
    // A start or stop nobody asked this driver for (the agent's own /agent/stop, beside its
    // arbiter) still reaches the host: as what runs now.
    connect(m_supervisor, &EngineSupervisor::engineReady, this, [this](const QString &engine) {
        const int asked = m_pendingStarts.take(engine);
        if (asked == 0)
            emit statusKnown(runningEngine());
        for (int n = asked; n > 0; --n)
            emit engineStarted(engine);
    }, Qt::QueuedConnection);
    connect(m_supervisor, &EngineSupervisor::engineFailedToStart, this, [this](const QString &engine, const EngineFailure &failure) {
        for (int n = m_pendingStarts.take(engine); n > 0; --n)
            emit engineStartFailed(engine, failure);
    }, Qt::QueuedConnection);
    connect(m_supervisor, &EngineSupervisor::engineStopped, this, [this](const QString &engine) {
        const int asked = m_pendingStops.take(engine);
        if (asked == 0 && m_pendingStarts.isEmpty())
            emit statusKnown(runningEngine());
        for (int n = asked; n > 0; --n)
            emit engineStopped(engine);
    }, Qt::QueuedConnection);
    connect(m_supervisor, &EngineSupervisor::engineDied, this, [this](const QString &, const EngineFailure &) {
        emit statusKnown(runningEngine());
    }, Qt::QueuedConnection);
}

LocalDriver::~LocalDriver() = default;

QString LocalDriver::stateFileName(const QString &host)
{
    return u"local-%1.json"_s.arg(host);
}

void LocalDriver::startEngine(const QString &engine)
{
    if (m_openFailure) {
        EngineFailure locked = *m_openFailure;
        locked.engine = engine;
        QMetaObject::invokeMethod(this, [this, engine, locked] { emit engineStartFailed(engine, locked); },
                                  Qt::QueuedConnection);
        return;
    }
    ++m_pendingStarts[engine];
    m_supervisor->switchTo(engine);
}

void LocalDriver::stopEngine(const QString &engine)
{
    ++m_pendingStops[engine];
    m_supervisor->stop(engine);
}

void LocalDriver::probe()
{
    QMetaObject::invokeMethod(this, [this] { emit statusKnown(runningEngine()); }, Qt::QueuedConnection);
}

QStringList LocalDriver::engineNames() const
{
    return m_supervisor->engineNames();
}

QString LocalDriver::runningEngine() const
{
    return m_supervisor->readyEngine();
}

} // namespace switchyard
