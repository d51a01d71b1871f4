#include "demo/demoenginedriver.h"

#include "demo/demoboxpower.h"
#include "fakellamaserver.h"

#include <QCoreApplication>
#include <QTimer>

namespace switchyard {

using namespace std::chrono_literals;

DemoEngineDriver::DemoEngineDriver(QHash<QString, fake::FakeLlamaServer *> engines, QHash<QString, quint16> ports,
                                   QString running, std::chrono::milliseconds startDelay)
    : m_engines(std::move(engines))
    , m_ports(std::move(ports))
    , m_running(std::move(running))
    , m_startDelay(startDelay)
{
}

void DemoEngineDriver::setPower(DemoBoxPower *power)
{
    m_power = power;
    connect(power, &DemoBoxPower::wentToSleep, this, [this] {
        for (fake::FakeLlamaServer *server : std::as_const(m_engines))
            server->close();
        m_running.clear();
        emit gpusKnown({});   // its agent sleeps with it: the card shows no stale GPU row
    });
}

void DemoEngineDriver::setGpuMemory(int usedMiB, int totalMiB)
{
    m_gpuUsedMiB = usedMiB;
    m_gpuTotalMiB = totalMiB;
}

void DemoEngineDriver::startEngine(const QString &engine)
{
    if (m_power && !m_power->isAwake()) {
        QTimer::singleShot(0ms, this, [this, engine] {
            emit engineStartFailed(engine, QCoreApplication::translate("DemoEngineDriver", "the box is asleep"));
        });
        return;
    }
    for (auto it = m_engines.cbegin(); it != m_engines.cend(); ++it) {
        if (it.key() != engine && it.value()->isListening())
            it.value()->close();
    }
    m_running.clear();
    reportGpu();   // the old engine's memory is free while the new one starts
    QTimer::singleShot(m_startDelay, this, [this, engine] {
        fake::FakeLlamaServer *server = m_engines.value(engine);
        if (!server) {
            emit engineStartFailed(engine, QCoreApplication::translate("DemoEngineDriver", "the demo has no engine %1").arg(engine));
            return;
        }
        if (!server->isListening() && !server->listen(QHostAddress::LocalHost, m_ports.value(engine))) {
            emit engineStartFailed(engine, QCoreApplication::translate("DemoEngineDriver", "its loopback port is taken"));
            return;
        }
        m_running = engine;
        emit engineStarted(engine);
        reportGpu();
    });
}

void DemoEngineDriver::stopEngine(const QString &engine)
{
    if (fake::FakeLlamaServer *server = m_engines.value(engine))
        server->close();
    if (m_running == engine)
        m_running.clear();
    QTimer::singleShot(0ms, this, [this, engine] {
        emit engineStopped(engine);
        reportGpu();
    });
}

void DemoEngineDriver::reportGpu()
{
    if (m_power && !m_power->isAwake())
        return;   // its agent sleeps with it
    const bool running = !m_running.isEmpty();
    emit gpusKnown({GpuReading{0, QStringLiteral("nvidia"), running ? m_gpuUsedMiB : 412, m_gpuTotalMiB, running ? 31 : 0,
                               running ? 58 : 36}});
}

void DemoEngineDriver::probe()
{
    QTimer::singleShot(0ms, this, [this] {
        if (m_power && !m_power->isAwake()) {
            emit unreachable(QCoreApplication::translate("DemoEngineDriver", "the box is asleep"));
            return;
        }
        reportGpu();
        emit statusKnown(m_running);
    });
}

} // namespace switchyard
