#pragma once

#include "engines/enginefailure.h"
#include "engines/gpureading.h"

#include <QObject>
#include <QString>

namespace switchyard {

// How one host's engines are started and stopped: "static", "local", "agent" or "command".
// One driver per host. Every call is asynchronous and ends in exactly one signal for that engine;
// the host controller decides when to call (it has drained the host first), the driver only does.
class EngineDriver : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~EngineDriver() override = default;

    // Stop whatever engine runs on the host, start `engine`, and wait until its /health answers
    // 200 (within the engine's start timeout). Ends in engineStarted or engineStartFailed.
    virtual void startEngine(const QString &engine) = 0;
    // Stop `engine` (SIGTERM, then SIGKILL after the stop timeout, or the stop command).
    // Ends in engineStopped.
    virtual void stopEngine(const QString &engine) = 0;
    // Ask which engine runs now (agent: its status; local: own state; static: the only one;
    // command: whichever engine's /health answers). Ends in statusKnown or unreachable.
    virtual void probe() = 0;
    // What the driver last knew to be running; empty when none or not known yet.
    virtual QString runningEngine() const = 0;
    // Static hosts never switch.
    virtual bool canSwitch() const = 0;

Q_SIGNALS:
    void engineStarted(const QString &engine);
    void engineStartFailed(const QString &engine, const switchyard::EngineFailure &failure);
    void engineStopped(const QString &engine);
    void statusKnown(const QString &runningEngine);
    void unreachable(const switchyard::EngineFailure &failure);
    // The box's GPUs as its agent reads them (agent driver only; the others have no agent).
    void gpusKnown(const QList<switchyard::GpuReading> &gpus);
};

} // namespace switchyard
