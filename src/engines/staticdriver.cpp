#include "engines/staticdriver.h"

#include "engines/enginelogging.h"

namespace switchyard {

using namespace Qt::StringLiterals;

StaticDriver::StaticDriver(const HostConfig &host, QObject *parent)
    : EngineDriver(parent)
    , m_host(host.name)
    , m_engine(host.engines.isEmpty() ? QString() : host.engines.first().name)
{
}

EngineFailure StaticDriver::staticHost() const
{
    EngineFailure failure = EngineFailure::of(EngineFailure::Kind::StaticHost);
    failure.host = m_host;
    failure.engine = m_engine;   // the one it runs
    return failure;
}

// Answers are queued like every other driver's, so callers never see a signal inside their call.
void StaticDriver::startEngine(const QString &engine)
{
    QMetaObject::invokeMethod(this, [this, engine] {
        if (engine == m_engine)
            emit engineStarted(engine);
        else
            emit engineStartFailed(engine, staticHost());
    }, Qt::QueuedConnection);
}

void StaticDriver::stopEngine(const QString &engine)
{
    // Nothing here can stop it; the call still ends, as the interface promises.
    qCWarning(lcEngines).noquote() << u"host %1 is static: engine %2 is not stopped"_s.arg(m_host, engine);
    QMetaObject::invokeMethod(this, [this, engine] { emit engineStopped(engine); }, Qt::QueuedConnection);
}

void StaticDriver::probe()
{
    QMetaObject::invokeMethod(this, [this] { emit statusKnown(m_engine); }, Qt::QueuedConnection);
}

} // namespace switchyard
