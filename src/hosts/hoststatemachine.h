#pragma once

#include "config/config.h"
#include "hosts/batchdecision.h"
#include "hosts/hostrefusal.h"
#include "hosts/pendingrequest.h"
#include "store/historyevent.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

#include <chrono>
#include <optional>
#include <variant>

namespace switchyard {

// The decisions of one host, without I/O (llama-swap's scheduler idea): events go in, actions
// come out, and the HostController carries them out. A host runs one engine at a time; a request
// that needs another engine drains the running one (no stream is ever cut) and switches. Which
// request goes next is the scheduling policy's (SchedulingConfig): strictly in arrival order, or
// batched by engine under a bound: the running engine keeps the host while it has work (running
// requests, or one finished within dwell), a request for another engine waits at most maxWait,
// and a switch releases everything that waited for the new engine together. Requests for the
// current engine that arrive while a switch is pending wait behind it, so neither side starves.
//
// Time is an input like any other: every input carries `now` (a steady clock's time, virtual in
// the simulator), and nextWakeUp() says when the machine wants tick() even if nothing happens.
class HostStateMachine
{
public:
    using TimePoint = std::chrono::steady_clock::time_point;

    enum class State {
        Unknown,    // not probed yet: the first request decides
        Serving,    // an engine is up and requests for it pass
        Draining,   // a switch (or lease) is decided: running requests finish, new ones wait
        Switching,  // the driver is stopping the old engine and starting the new one
        Leased,     // something else owns the GPU: model requests get 423
        Down,       // the engine could not be started; a later request tries again
        Waking,     // the wake-on-LAN packet went out: requests wait until the host answers
        Asleep,     // stopped for idleness and put to sleep, or found off: a request wakes it
        Idle,       // stopped for idleness: the next request starts its engine
    };

    // How a host saves power (HostConfig's idle_stop_after_s, sleep_command and wake). The
    // default saves nothing: never stopped for idleness, never woken.
    struct Power
    {
        QHash<QString, std::chrono::milliseconds> idleStopAfter;   // by engine; absent = never
        bool sleeps = false;    // a sleep_command runs after an idle stop
        bool canWake = false;   // wake-on-LAN: a request for a host that is off wakes it
        std::chrono::milliseconds wakeTimeout{std::chrono::seconds(120)};
    };

    using RequestId = quint64;

    struct Admit { RequestId id; };
    // Only facts: the catalogue words `why` for the client, the window for the desktop.
    struct Refuse { RequestId id; HostRefusal why; };
    struct StartEngine { QString engine; QString forAlias; };
    struct StopEngine { QString engine; };
    struct LeaseGranted { QString owner; };   // drained and stopped: the lease holder may go
    struct SendWake {};          // the magic packet; then ask until the host answers (woke())
    struct RunSleepCommand {};   // the host's sleep_command, once, after an idle stop
    // Something the journal and the timeline show. The controller stamps the event's time (and
    // a lease's duration) and publishes it; text is the event's one wording, HistoryEvent::toString.
    // A step with no kind of history event (an engine stopped for a lease) is a debug log line.
    struct Journal { QString text; std::optional<HistoryEvent> event; };
    using Action = std::variant<Admit, Refuse, StartEngine, StopEngine, LeaseGranted, Journal, SendWake, RunSleepCommand>;
    using Actions = QList<Action>;

    HostStateMachine(QString host, bool canSwitch, QString initialEngine = {}, SchedulingConfig scheduling = {});

    // Inputs.
    // A side call waits at most SchedulingConfig::sideCallMaxWait for another engine's work.
    Actions requestArrived(RequestId id, const QString &engine, const QString &alias, TimePoint now,
                           bool sideCall = false);
    // A switch on command: queued like a request, but due at once under any policy (the host
    // drains and switches as soon as the running requests are done).
    Actions commandArrived(RequestId id, const QString &engine, const QString &by, TimePoint now);
    Actions requestFinished(RequestId id, TimePoint now);   // also for a client that left while waiting
    Actions engineStarted(const QString &engine, TimePoint now);
    Actions engineStartFailed(const QString &engine, const EngineFailure &failure, TimePoint now);
    Actions engineStopped(const QString &engine, TimePoint now);
    Actions probed(const QString &runningEngine, TimePoint now);
    Actions takeLease(const QString &owner, const QDateTime &until, TimePoint now);
    Actions releaseLease(TimePoint now);
    Actions tick(TimePoint now);   // the time asked for by nextWakeUp() has come
    // Waking: the host answers again, running runningEngine (empty: none yet; a static host's is
    // its one engine).
    Actions woke(const QString &runningEngine, TimePoint now);
    // The host did not answer a probe at all (its agent, or a static host's engine): a host that
    // can be woken and has nothing to do is taken for asleep.
    Actions unreachable(TimePoint now);
    void setPower(Power power) { m_power = std::move(power); }
    const Power &power() const { return m_power; }

    // When the machine must be ticked though no other input comes (a dwell ends, a waiter reaches
    // its wait limit); empty when nothing is due.
    std::optional<TimePoint> nextWakeUp() const;
    const SchedulingConfig &scheduling() const { return m_scheduling; }

    State state() const { return m_state; }
    QString currentEngine() const { return m_current; }
    QString targetEngine() const { return m_target; }
    QString leaseOwner() const { return m_leaseOwner; }
    QDateTime leaseUntil() const { return m_leaseUntil; }
    // Why the last start failed, until an engine is up again (Down).
    const std::optional<EngineFailure> &lastFailure() const { return m_lastFailure; }
    int runningRequests() const { return int(m_running.size()); }
    int waitingRequests() const { return int(m_waiting.size()); }
    QList<RequestId> runningIds() const;
    QList<RequestId> waitingIds() const;
    // What a waiting request is waiting for, in facts: the relay words the early-200 comments.
    struct Wait
    {
        // Batching: the engine that runs still has work; the host switches when it is done or
        // a waiter has waited its limit (maxWait; sideCallMaxWait for a side call).
        enum class Phase { Draining, Switching, Stopping, Batching, Waking, Other };
        Phase phase = Phase::Other;
        QString host;
        int running = 0;
        QString engine;   // the engine it switches to
        // Batching: how long the running engine may still keep the host before it drains for
        // a waiter that reached its limit; negative when not known (HostController fills it in).
        std::chrono::milliseconds holdLeft{-1};
    };
    Wait waitFor() const;
    // Batching: when the first waiter for another engine reaches its limit; nullopt otherwise.
    std::optional<TimePoint> holdDeadline() const;
    // The engine the host would switch to if it left the current one now (empty: none waits).
    QString nextEngine(TimePoint now) const;
    QString waitingFor() const;   // the same in one line, for logs and tests

    static QString stateName(State state);
    static std::optional<State> stateFromName(const QString &name);

private:
    using Pending = PendingRequest;

    Actions arrive(const Pending &request, TimePoint now);
    Actions pump(TimePoint now);            // release waiting requests / start the next switch
    Actions pumpInArrivalOrder();
    Actions pumpBatched(TimePoint now);
    Actions admitWaitersForCurrent();
    Actions admitAllWaiting();
    BatchDecision batch() const;            // the batch policy's view of the host as it is now
    Actions beginSwitch(const QString &engine, const QString &alias);
    Actions refuseAllWaiting(const HostRefusal &why);
    HostRefusal leased() const;
    std::optional<TimePoint> idleDue() const;   // when the running engine is stopped for idleness
    Actions beginWake(TimePoint now);
    Actions wakeTimedOut(TimePoint now);
    Actions idleStop();
    Journal journal(HistoryEvent::Kind kind, const QString &engine, const QString &model, const QString &detail) const;

    QString m_host;
    bool m_canSwitch;
    State m_state;
    QString m_current;
    QString m_target;
    QString m_targetAlias;
    // Keyed by id, so that each request's end finds its own in O(log n), not by walking every
    // running one (1,000 streams on one host); listed in arrival order.
    QMap<RequestId, Pending> m_running;
    QList<Pending> m_waiting;
    QString m_leaseOwner;
    QDateTime m_leaseUntil;
    bool m_leaseWanted = false;
    std::optional<EngineFailure> m_lastFailure;
    SchedulingConfig m_scheduling;
    std::optional<TimePoint> m_lastFinish;   // of a request on the current engine, since it is up
    Power m_power;
    TimePoint m_lastActivity{};   // the last request's arrival or end, or the engine's start
    TimePoint m_wakeSince{};      // when the packet went out
    bool m_idleStopping = false;  // the stop under way is an idle stop
};

} // namespace switchyard
