#include "demo/demoenginedriver.h"

#include "demo/demofleetprocess.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace switchyard {

using namespace Qt::StringLiterals;

DemoEngineDriver::DemoEngineDriver(DemoFleetProcess *fleet, QString host, QString running)
    : m_fleet(fleet)
    , m_host(std::move(host))
    , m_running(std::move(running))
{
    connect(fleet, &DemoFleetProcess::eventReceived, this, &DemoEngineDriver::follow);
}

QString DemoEngineDriver::reasonText(const QString &reason, const QString &engine)
{
    if (reason == "asleep"_L1)
        return QCoreApplication::translate("DemoEngineDriver", "the box is asleep");
    if (reason == "no_engine"_L1)
        return QCoreApplication::translate("DemoEngineDriver", "the demo has no engine %1").arg(engine);
    if (reason == "port_taken"_L1)
        return QCoreApplication::translate("DemoEngineDriver", "its loopback port is taken");
    return reason;
}

void DemoEngineDriver::send(const QString &action, const QString &engine)
{
    QJsonObject command{{u"host"_s, m_host}, {u"do"_s, action}};
    if (!engine.isEmpty())
        command.insert(u"engine"_s, engine);
    m_fleet->send(command);
}

void DemoEngineDriver::startEngine(const QString &engine)
{
    m_running.clear();
    m_starting.append(engine);
    send(u"start"_s, engine);
}

void DemoEngineDriver::stopEngine(const QString &engine)
{
    if (m_running == engine)
        m_running.clear();
    m_stopping.append(engine);
    send(u"stop"_s, engine);
}

void DemoEngineDriver::probe()
{
    ++m_probes;
    send(u"probe"_s);
}

void DemoEngineDriver::follow(const QJsonObject &event)
{
    if (event.value(u"host"_s).toString() != m_host)
        return;
    const QString kind = event.value(u"event"_s).toString();
    const QString engine = event.value(u"engine"_s).toString();
    if (kind == "started"_L1) {
        m_running = engine;
        if (m_starting.removeOne(engine))
            emit engineStarted(engine);
    } else if (kind == "start_failed"_L1) {
        if (m_starting.removeOne(engine))
            emit engineStartFailed(engine, reasonText(event.value(u"reason"_s).toString(), engine));
    } else if (kind == "stopped"_L1) {
        if (m_running == engine)
            m_running.clear();
        if (m_stopping.removeOne(engine))
            emit engineStopped(engine);
    } else if (kind == "status"_L1) {
        m_running = event.value(u"running"_s).toString();
        if (m_probes > 0) {
            --m_probes;
            emit statusKnown(m_running);
        }
    } else if (kind == "unreachable"_L1) {
        if (m_probes > 0) {
            --m_probes;
            emit unreachable(reasonText(event.value(u"reason"_s).toString(), {}));
        }
    } else if (kind == "power"_L1) {
        if (!event.value(u"awake"_s).toBool())
            m_running.clear();   // its engines went down with it
    } else if (kind == "gpus"_L1) {
        QList<GpuReading> gpus;
        for (const QJsonValue &v : event.value(u"gpus"_s).toArray()) {
            const QJsonObject o = v.toObject();
            GpuReading gpu;
            gpu.index = o.value(u"index"_s).toInt();
            gpu.vendor = o.value(u"vendor"_s).toString();
            gpu.memoryUsedMiB = o.value(u"memory_used_mib"_s).toInteger();
            gpu.memoryTotalMiB = o.value(u"memory_total_mib"_s).toInteger();
            gpu.utilizationPercent = o.value(u"utilization_percent"_s).toInt();
            gpu.temperatureC = o.value(u"temperature_c"_s).toInt();
            gpus.append(gpu);
        }
        emit gpusKnown(gpus);
    }
}

} // namespace switchyard
