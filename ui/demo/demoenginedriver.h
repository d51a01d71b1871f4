#pragma once

#include "engines/enginedriver.h"

#include <QHash>

#include <chrono>

namespace switchyard::fake {
class FakeLlamaServer;
}

namespace switchyard {

class DemoBoxPower;

// The demo fleet's switchable box: its engines are simulated routers in this process, each with
// its own loopback port. Starting one closes the others and opens it after a start delay, as a
// real engine process takes a while before its /health answers.
class DemoEngineDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoEngineDriver)

public:
    // The servers must outlive the driver; `running` is listening already.
    DemoEngineDriver(QHash<QString, fake::FakeLlamaServer *> engines, QHash<QString, quint16> ports, QString running,
                     std::chrono::milliseconds startDelay);

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }

    // A box that sleeps: while it does, its engines are down and a probe finds nothing (as an
    // agent that does not answer). It must outlive the driver.
    void setPower(DemoBoxPower *power);
    // What its card shows: the memory of its one GPU, MiB (default: a 24 GiB card).
    void setGpuMemory(int usedMiB, int totalMiB);

private:
    // What an agent on a 24 GiB card would report: most of it taken while an engine runs.
    void reportGpu();

    QHash<QString, fake::FakeLlamaServer *> m_engines;
    QHash<QString, quint16> m_ports;
    QString m_running;
    std::chrono::milliseconds m_startDelay;
    DemoBoxPower *m_power = nullptr;
    int m_gpuUsedMiB = 20582;
    int m_gpuTotalMiB = 24576;
};

} // namespace switchyard
