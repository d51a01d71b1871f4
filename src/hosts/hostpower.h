#pragma once

#include "config/config.h"
#include "hosts/hoststatemachine.h"
#include "store/historyevent.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace switchyard {

class EngineDriver;
class HealthCheck;
class SleepCommandRun;
class UpstreamPool;

// The I/O of a host that saves power (docs/HOSTS.md, "Wake and idle stop"): the wake-on-LAN
// packet and the asking until the host answers, and the sleep command after an idle stop. The
// HostController says when; what follows is decided by its HostStateMachine.
//
// "The host answers": a static host's engine answers /health 200; another driver's probe answers
// (its agent, or for driver "command" an engine's /health) through the driver's statusKnown,
// which the controller reads itself.
class HostPower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostPower)

public:
    static constexpr std::chrono::milliseconds AskEvery{500};

    HostPower(const HostConfig &host, EngineDriver *driver, UpstreamPool *pool, QObject *parent = nullptr);
    ~HostPower() override;

    // What the state machine needs to know: the idle limit of each engine (its own, else the
    // host's), whether it sleeps and wakes.
    static HostStateMachine::Power policy(const HostConfig &host);

    bool canWake() const { return m_wake.enabled(); }
    bool isStatic() const { return m_static; }
    // Sends the magic packet (its journal line: historyEvent), then asks every AskEvery until
    // stopAsking().
    void wake();
    void stopAsking();
    bool isAsking() const { return m_asking.isActive(); }
    // Asks once: a static host's engine answers with answered() or silent(); another driver's
    // through its own signals.
    void ask();
    // Runs sleep_command once; its exit code goes to the journal (historyEvent) if this host is
    // still there when it ends. It is never cut short by our destruction or our process's exit.
    void sleep();

Q_SIGNALS:
    void answered(const QString &runningEngine);
    void silent();
    void historyEvent(const switchyard::HistoryEvent &event);   // time stamped by the controller

private:
    HistoryEvent event(HistoryEvent::Kind kind, const QString &detail) const;

    QString m_host;
    bool m_static;
    QString m_engine;      // a static host's one engine
    QUrl m_engineUrl;
    WakeConfig m_wake;
    QStringList m_sleepCommand;
    EngineDriver *m_driver;
    UpstreamPool *m_pool;
    QTimer m_asking;
    QPointer<HealthCheck> m_check;
    QPointer<SleepCommandRun> m_sleeping;   // not ours: it outlives us if need be
};

} // namespace switchyard
