#pragma once

#include "engines/boxprotocol.h"
#include "engines/enginefailure.h"
#include "engines/gpureading.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <chrono>
#include <functional>

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

    // A box shared with other relays, whose agent decides its switches (agent protocol 2): the
    // host controller holds a place there for every request instead of switching itself.
    virtual bool sharedBox() const { return false; }
    // Opens the hold (an AgentStream, already started, owned by `parent`); nullptr when not shared.
    virtual class AgentStream *holdOnBox(const BoxAsk &ask, QObject *parent)
    {
        Q_UNUSED(ask);
        Q_UNUSED(parent);
        return nullptr;
    }
    // A lease on a shared box, taken and released at its agent: done(200, {}) once granted, else
    // the agent's status and its refusal's facts (status 0: the agent did not answer).
    using BoxLeaseDone = std::function<void(int status, const QJsonObject &refusal, const QString &failure)>;
    virtual void leaseBox(const QString &owner, std::chrono::seconds ttl, BoxLeaseDone done)
    {
        Q_UNUSED(owner);
        Q_UNUSED(ttl);
        if (done)
            done(0, {}, QStringLiteral("this host has no agent"));
    }
    virtual void releaseBoxLease() {}
    // The agent protocol the box's agent speaks (BoxProtocol::Version is this relay's); 0 for a
    // driver without an agent, or before the agent said.
    virtual int agentProtocol() const { return 0; }
    // The engines the driver can start, where it knows them itself (the agent's own box).
    virtual QStringList engineNames() const { return {}; }

Q_SIGNALS:
    void engineStarted(const QString &engine);
    void engineStartFailed(const QString &engine, const switchyard::EngineFailure &failure);
    void engineStopped(const QString &engine);
    void statusKnown(const QString &runningEngine);
    void unreachable(const switchyard::EngineFailure &failure);
    // The box's GPUs as its agent reads them (agent driver only; the others have no agent).
    void gpusKnown(const QList<switchyard::GpuReading> &gpus);
    // A shared box as its agent sees it (/agent/events): engine, state, holds per relay, lease.
    void boxSeen(const QJsonObject &box);
    // The agent speaks another protocol version than this relay (BoxProtocol::Version).
    void protocolMismatch(int agentProtocol);
};

} // namespace switchyard
