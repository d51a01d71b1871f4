#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <chrono>

namespace switchyard::fake {

class DemoBoxPower;
class FakeLlamaServer;

// One simulated GPU box of the demo fleet: its engines are fake routers in this process, each on a
// loopback port of its own, one running at a time. Starting one closes the others and opens it
// after a start delay, as a real engine process takes a while before its /health answers. A box
// with power (DemoBoxPower) sleeps and wakes; while it sleeps its engines are down and it answers
// no probe, as an agent that sleeps with its box. What it does is reported as events
// (DemoFleetChannel: the protocol), each carrying "host" and "event".
class DemoBox final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoBox)

public:
    // driven: the relay switches its engines through the demo (else it is a static host).
    DemoBox(QString host, bool driven, std::chrono::milliseconds startDelay, QObject *parent = nullptr);

    QString host() const { return m_host; }
    // Adds an engine; the box owns the server. The first one added runs at start.
    void addEngine(const QString &name, FakeLlamaServer *server);
    void setPower(DemoBoxPower *power);
    // What its card shows: the memory of its one GPU, MiB (default: a 24 GiB card).
    void setGpuMemory(int usedMiB, int totalMiB);

    // Every engine takes a loopback port; all but the first close again, keeping theirs.
    bool listen(QString *error);
    // The box for the relay's config: engines (name, url, models), the one running, its power.
    QJsonObject describe() const;

    // The commands: each ends in events, as the relay's EngineDriver calls end in signals.
    void startEngine(const QString &engine);   // "started" or "start_failed"
    void stopEngine(const QString &engine);    // "stopped"
    void probe();                              // "gpus" and "status", or "unreachable"

Q_SIGNALS:
    void event(const QJsonObject &event);

private:
    struct Engine
    {
        QString name;
        FakeLlamaServer *server = nullptr;
        quint16 port = 0;
    };
    const Engine *engine(const QString &name) const;
    bool isAwake() const;
    void send(const QString &kind, QJsonObject fields = {});
    // What an agent on its card would report: most of the memory taken while an engine runs.
    void reportGpu();
    void reportPower();

    QString m_host;
    bool m_driven;
    std::chrono::milliseconds m_startDelay;
    QList<Engine> m_engines;
    QString m_running;
    DemoBoxPower *m_power = nullptr;
    int m_gpuUsedMiB = 20582;
    int m_gpuTotalMiB = 24576;
};

} // namespace switchyard::fake
