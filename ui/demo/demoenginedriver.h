#pragma once

#include "engines/enginedriver.h"

#include <QJsonObject>

namespace switchyard {

class DemoFleetProcess;

// A demo box's engines, switched in the demo fleet's own process (switchyard-demo-fleet): each
// call is a command to it, and its events for this host become the driver's signals. The helper
// simulates what a real box does: a start delay, one engine at a time, a box asleep that fails a
// start and answers no probe, and the GPU figures an agent would report.
class DemoEngineDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoEngineDriver)

public:
    // The fleet must outlive the driver; `running` is the engine the helper last said runs.
    DemoEngineDriver(DemoFleetProcess *fleet, QString host, QString running);

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }

    // Why the helper refused a start or a probe ("asleep", "no_engine", "port_taken"), in words.
    static QString reasonText(const QString &reason, const QString &engine);

private:
    void follow(const QJsonObject &event);
    void send(const QString &action, const QString &engine = {});

    DemoFleetProcess *m_fleet;
    QString m_host;
    QString m_running;
    // What this driver asked for: the events answer them. Another driver of the same host (the
    // one a config reload replaces) sees the same events and must not answer for this one.
    QStringList m_starting;
    QStringList m_stopping;
    int m_probes = 0;
};

} // namespace switchyard
