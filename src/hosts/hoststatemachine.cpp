#include "hosts/hoststatemachine.h"

#include "hosts/recordedfacts.h"

#include <QHash>

#include <algorithm>
#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

HostStateMachine::HostStateMachine(QString host, bool canSwitch, QString initialEngine, SchedulingConfig scheduling)
    : m_host(std::move(host))
    , m_canSwitch(canSwitch)
    , m_state(canSwitch ? State::Unknown : State::Serving)
    , m_current(std::move(initialEngine))
    , m_scheduling(scheduling)
{
}

QString HostStateMachine::stateName(State state)
{
    switch (state) {
    case State::Unknown: return u"unknown"_s;
    case State::Serving: return u"serving"_s;
    case State::Draining: return u"draining"_s;
    case State::Switching: return u"switching"_s;
    case State::Leased: return u"leased"_s;
    case State::Down: return u"down"_s;
    case State::Waking: return u"waking"_s;
    case State::Asleep: return u"asleep"_s;
    case State::Idle: return u"idle"_s;
    }
    return {};
}

std::optional<HostStateMachine::State> HostStateMachine::stateFromName(const QString &name)
{
    for (State state : {State::Unknown, State::Serving, State::Draining, State::Switching, State::Leased,
                        State::Down, State::Waking, State::Asleep, State::Idle}) {
        if (stateName(state) == name)
            return state;
    }
    return std::nullopt;
}

// Refusals and waits carry facts; relay/clientreplies.cpp words them for API clients.
HostRefusal HostStateMachine::leased() const
{
    HostRefusal why;
    why.reason = HostRefusal::Reason::Leased;
    why.host = m_host;
    why.owner = m_leaseOwner;
    why.until = m_leaseUntil;
    return why;
}

HostStateMachine::Journal HostStateMachine::journal(HistoryEvent::Kind kind, const QString &engine,
                                                    const QString &model, const QString &detail) const
{
    HistoryEvent e;
    e.kind = kind;
    e.host = m_host;
    e.engine = engine;
    e.model = model;
    e.detail = detail;
    return {e.toString(), e};
}

HostStateMachine::Wait HostStateMachine::waitFor() const
{
    Wait wait;
    wait.host = m_host;
    wait.running = int(m_running.size());
    wait.engine = m_target;
    if (m_state == State::Draining) {
        wait.phase = Wait::Phase::Draining;
    } else if (m_state == State::Serving && !m_waiting.isEmpty()) {
        wait.phase = Wait::Phase::Batching;
        wait.engine = m_current;
    } else if (m_state == State::Switching) {
        wait.phase = m_target.isEmpty() ? Wait::Phase::Stopping : Wait::Phase::Switching;
    } else if (m_state == State::Waking) {
        wait.phase = Wait::Phase::Waking;
    }
    return wait;
}

std::optional<HostStateMachine::TimePoint> HostStateMachine::holdDeadline() const
{
    if (m_scheduling.policy != SchedulingConfig::Policy::Batch || m_state != State::Serving || m_leaseWanted)
        return std::nullopt;
    return batch().firstDeadline();
}

QString HostStateMachine::waitingFor() const
{
    const Wait wait = waitFor();
    switch (wait.phase) {
    case Wait::Phase::Draining:
        return u"host %1 drains %2 running request(s), then switches to engine %3"_s
            .arg(m_host).arg(wait.running).arg(wait.engine.isEmpty() ? u"-"_s : wait.engine);
    case Wait::Phase::Switching:
        return u"host %1 switches to engine %2"_s.arg(m_host, wait.engine);
    case Wait::Phase::Stopping:
        return u"host %1 stops its engine"_s.arg(m_host);
    case Wait::Phase::Batching:
        return u"host %1 finishes the work of engine %2, then switches"_s.arg(m_host, wait.engine);
    case Wait::Phase::Waking:
        return u"host %1 wakes"_s.arg(m_host);
    case Wait::Phase::Other:
        break;
    }
    return u"host %1 (%2)"_s.arg(m_host, stateName(m_state));
}

QList<HostStateMachine::RequestId> HostStateMachine::runningIds() const
{
    QList<RequestId> ids;
    for (const Pending &p : m_running)
        ids.append(p.id);
    return ids;
}

QList<HostStateMachine::RequestId> HostStateMachine::waitingIds() const
{
    QList<RequestId> ids;
    for (const Pending &p : m_waiting)
        ids.append(p.id);
    return ids;
}

HostStateMachine::Actions HostStateMachine::requestArrived(RequestId id, const QString &engine, const QString &alias,
                                                           TimePoint now, bool sideCall)
{
    return arrive({id, engine, alias, now, false, sideCall}, now);
}

HostStateMachine::Actions HostStateMachine::commandArrived(RequestId id, const QString &engine, const QString &by,
                                                           TimePoint now)
{
    return arrive({id, engine, by, now, true}, now);
}

HostStateMachine::Actions HostStateMachine::arrive(const Pending &request, TimePoint now)
{
    if (m_state == State::Leased || m_leaseWanted)
        return {Refuse{request.id, leased()}};
    m_lastActivity = now;
    if (m_state == State::Waking) {
        m_waiting.append(request);
        return {};
    }
    if (m_power.canWake && (m_state == State::Asleep || m_state == State::Down)) {
        m_waiting.append(request);
        return beginWake(now);
    }
    if (!m_canSwitch || (m_state == State::Serving && request.engine == m_current && m_waiting.isEmpty())) {
        m_running.insert(request.id, request);
        return {Admit{request.id}};
    }
    m_waiting.append(request);
    return pump(now);
}

std::optional<HostStateMachine::TimePoint> HostStateMachine::nextWakeUp() const
{
    if (m_state == State::Waking)
        return m_wakeSince + m_power.wakeTimeout;
    if (const std::optional<TimePoint> idle = idleDue())
        return idle;
    if (m_scheduling.policy != SchedulingConfig::Policy::Batch || m_state != State::Serving || m_leaseWanted)
        return std::nullopt;
    const std::optional<TimePoint> deadline = batch().firstDeadline();
    if (!deadline)
        return std::nullopt;
    TimePoint due = *deadline;
    if (m_running.isEmpty() && m_lastFinish)
        due = std::min(due, *m_lastFinish + m_scheduling.dwell);
    return due;
}

// Only an engine the relay can stop, with nothing running, waiting or leased, is idle.
std::optional<HostStateMachine::TimePoint> HostStateMachine::idleDue() const
{
    if (!m_canSwitch || m_state != State::Serving || m_leaseWanted || !m_running.isEmpty() || !m_waiting.isEmpty()
        || m_current.isEmpty())
        return std::nullopt;
    const auto limit = m_power.idleStopAfter.constFind(m_current);
    if (limit == m_power.idleStopAfter.constEnd())
        return std::nullopt;
    return m_lastActivity + *limit;
}

HostStateMachine::Actions HostStateMachine::tick(TimePoint now)
{
    if (m_state == State::Waking)
        return now >= m_wakeSince + m_power.wakeTimeout ? wakeTimedOut(now) : Actions{};
    if (const std::optional<TimePoint> idle = idleDue(); idle && now >= *idle)
        return idleStop();
    return pump(now);
}

HostStateMachine::Actions HostStateMachine::beginWake(TimePoint now)
{
    m_state = State::Waking;
    m_wakeSince = now;
    return {SendWake{}};   // the controller words the journal line: it knows the MAC and address
}

HostStateMachine::Actions HostStateMachine::woke(const QString &runningEngine, TimePoint now)
{
    if (m_state != State::Waking)
        return {};
    Journal up = journal(HistoryEvent::Kind::Woke, m_canSwitch ? runningEngine : m_current, {}, {});
    up.event->duration = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_wakeSince);
    up.text = up.event->toString();
    Actions actions{up};
    m_lastActivity = now;
    m_lastFinish.reset();
    m_lastFailure.reset();
    if (!m_canSwitch) {
        // Its one engine answers: everyone waited for it.
        m_state = State::Serving;
        actions.append(admitAllWaiting());
        return actions;
    }
    m_current = runningEngine;
    m_state = runningEngine.isEmpty() ? State::Idle : State::Serving;
    actions.append(pump(now));   // admits the waiters for what runs, or starts their switch
    return actions;
}

HostStateMachine::Actions HostStateMachine::wakeTimedOut(TimePoint now)
{
    m_state = State::Asleep;
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_wakeSince);
    const QString detail = u"no answer within %1 s"_s.arg(QString::number(m_power.wakeTimeout.count() / 1000.0));
    HostRefusal why;
    why.reason = HostRefusal::Reason::WakeTimedOut;
    why.host = m_host;
    why.wakeTimeout = m_power.wakeTimeout;
    Journal timedOut = journal(HistoryEvent::Kind::WakeTimedOut, {}, {}, detail);
    timedOut.event->duration = waited;
    timedOut.event->facts = RecordedFacts::of(why);   // the window words the detail from these
    timedOut.text = timedOut.event->toString();
    Actions actions{timedOut};
    actions.append(refuseAllWaiting(why));
    return actions;
}

HostStateMachine::Actions HostStateMachine::idleStop()
{
    const auto limit = m_power.idleStopAfter.value(m_current);
    const QString engine = m_current;
    m_state = State::Switching;
    m_target.clear();
    m_idleStopping = true;
    return {journal(HistoryEvent::Kind::IdleStop, engine, {},
                    u"no request for %1 s"_s.arg(QString::number(limit.count() / 1000.0))),
            StopEngine{engine}};
}

HostStateMachine::Actions HostStateMachine::unreachable(TimePoint now)
{
    Q_UNUSED(now);
    if (!m_power.canWake || !m_running.isEmpty() || !m_waiting.isEmpty() || m_leaseWanted)
        return {};
    if (m_state == State::Unknown || m_state == State::Idle || m_state == State::Down || m_state == State::Serving) {
        if (m_canSwitch)
            m_current.clear();
        m_state = State::Asleep;
    }
    return {};
}

HostStateMachine::Actions HostStateMachine::admitAllWaiting()
{
    Actions actions;
    for (const Pending &p : std::as_const(m_waiting)) {
        m_running.insert(p.id, p);
        actions.append(Admit{p.id});
    }
    m_waiting.clear();
    return actions;
}

HostStateMachine::Actions HostStateMachine::beginSwitch(const QString &engine, const QString &alias)
{
    m_state = State::Switching;
    m_target = engine;
    m_targetAlias = alias;
    return {journal(HistoryEvent::Kind::SwitchStart, engine, alias, {}), StartEngine{engine, alias}};
}

HostStateMachine::Actions HostStateMachine::pump(TimePoint now)
{
    Actions actions;
    if (m_state == State::Switching || m_state == State::Leased || m_state == State::Waking)
        return actions;
    if (m_leaseWanted) {
        if (!m_running.isEmpty()) {
            m_state = State::Draining;
            return actions;
        }
        if (m_canSwitch && !m_current.isEmpty()) {
            m_state = State::Switching;
            m_target.clear();
            actions.append(StopEngine{m_current});
            return actions;
        }
        m_state = State::Leased;
        actions.append(LeaseGranted{m_leaseOwner});
        return actions;
    }
    if (m_scheduling.policy == SchedulingConfig::Policy::Batch)
        return pumpBatched(now);
    return pumpInArrivalOrder();
}

HostStateMachine::Actions HostStateMachine::pumpInArrivalOrder()
{
    Actions actions;
    while (!m_waiting.isEmpty()) {
        const Pending front = m_waiting.first();
        if (m_state == State::Serving && front.engine == m_current) {
            m_waiting.removeFirst();
            m_running.insert(front.id, front);
            actions.append(Admit{front.id});
            continue;
        }
        if (!m_running.isEmpty()) {
            // Another engine is wanted: let everything running finish first.
            m_state = State::Draining;
            m_target = front.engine;
            m_targetAlias = front.alias;
            return actions;
        }
        actions.append(beginSwitch(front.engine, front.alias));
        return actions;
    }
    if (m_state == State::Draining) {
        // Those who wanted the switch left before it began.
        m_state = m_current.isEmpty() ? State::Unknown : State::Serving;
        m_target.clear();
    }
    return actions;
}

HostStateMachine::Actions HostStateMachine::admitWaitersForCurrent()
{
    Actions actions;
    for (qsizetype i = 0; i < m_waiting.size();) {
        if (m_waiting.at(i).engine == m_current) {
            const Pending p = m_waiting.takeAt(i);
            m_running.insert(p.id, p);
            actions.append(Admit{p.id});
        } else {
            ++i;
        }
    }
    return actions;
}

BatchDecision HostStateMachine::batch() const
{
    const bool engineUp = m_state != State::Unknown && m_state != State::Down && m_state != State::Idle
        && m_state != State::Asleep;
    return BatchDecision(m_waiting, m_current, engineUp, !m_running.isEmpty(), m_lastFinish, m_scheduling);
}

QString HostStateMachine::nextEngine(TimePoint now) const
{
    const Pending *target = batch().chooseTarget(now);
    return target ? target->engine : QString();
}

HostStateMachine::Actions HostStateMachine::pumpBatched(TimePoint now)
{
    Actions actions;
    const BatchDecision decision = batch();
    if (!decision.mustLeave(now)) {
        // Serving on: everything that waited for the current engine goes, in arrival order.
        if (m_state == State::Draining) {
            m_state = m_current.isEmpty() ? State::Unknown : State::Serving;
            m_target.clear();
        }
        if (m_state == State::Serving)
            actions.append(admitWaitersForCurrent());
        return actions;
    }
    const Pending target = *decision.chooseTarget(now);
    if (!m_running.isEmpty()) {
        m_state = State::Draining;   // new requests for the current engine wait behind the switch
        m_target = target.engine;
        m_targetAlias = target.alias;
        return actions;
    }
    return beginSwitch(target.engine, target.alias);
}

HostStateMachine::Actions HostStateMachine::refuseAllWaiting(const HostRefusal &why)
{
    Actions actions;
    for (const Pending &p : std::as_const(m_waiting))
        actions.append(Refuse{p.id, why});
    m_waiting.clear();
    return actions;
}

HostStateMachine::Actions HostStateMachine::requestFinished(RequestId id, TimePoint now)
{
    for (qsizetype i = 0; i < m_waiting.size(); ++i) {
        if (m_waiting.at(i).id == id) {
            m_waiting.removeAt(i);
            return pump(now);
        }
    }
    const auto running = m_running.find(id);
    if (running == m_running.end())
        return {};
    if (running->engine == m_current && !running->command)
        m_lastFinish = now;   // its client may be back soon: the dwell starts
    m_lastActivity = now;
    m_running.erase(running);
    return m_running.isEmpty() ? pump(now) : Actions{};
}

HostStateMachine::Actions HostStateMachine::engineStarted(const QString &engine, TimePoint now)
{
    m_lastFinish.reset();
    if (m_leaseWanted || m_state == State::Leased) {
        // Up just as a lease came: it is stopped again, and nothing waits for it any more.
        m_current = engine;
        m_target.clear();
        m_state = State::Switching;
        return {StopEngine{engine}};
    }
    m_current = engine;
    m_target.clear();
    m_lastFailure.reset();
    m_state = State::Serving;
    m_lastActivity = now;
    Actions actions;
    if (m_scheduling.policy == SchedulingConfig::Policy::Batch)
        actions = admitWaitersForCurrent();   // the switch was made for them: they go together
    actions.append(pump(now));
    return actions;
}

HostStateMachine::Actions HostStateMachine::engineStartFailed(const QString &engine, const EngineFailure &failure,
                                                              TimePoint now)
{
    m_current.clear();
    m_target.clear();
    m_state = State::Down;
    m_lastFailure = failure;
    // The history keeps the failure's record (English, like every record) and its facts, which
    // the window words.
    Journal failed = journal(HistoryEvent::Kind::SwitchFailed, engine, m_targetAlias, failure.toString());
    failed.event->facts = RecordedFacts::of(failure);
    Actions actions{failed};
    HostRefusal why;
    why.reason = HostRefusal::Reason::SwitchFailed;
    why.host = m_host;
    why.engine = engine;
    why.failure = failure;
    // Those who waited for this engine get the answer; the others get their own attempt.
    QList<Pending> others;
    for (const Pending &p : std::as_const(m_waiting)) {
        if (p.engine == engine)
            actions.append(Refuse{p.id, why});
        else
            others.append(p);
    }
    m_waiting = others;
    actions.append(pump(now));
    return actions;
}

HostStateMachine::Actions HostStateMachine::engineStopped(const QString &engine, TimePoint now)
{
    if (std::exchange(m_idleStopping, false) && !m_leaseWanted) {
        // A request that came meanwhile wants the host again: no sleep, its engine starts.
        m_current.clear();
        m_target.clear();
        const bool rest = m_waiting.isEmpty();
        m_state = rest && (m_power.sleeps || m_power.canWake) ? State::Asleep : State::Idle;
        Actions actions;
        if (rest && m_power.sleeps)
            actions.append(RunSleepCommand{});
        actions.append(pump(now));
        return actions;
    }
    if (m_leaseWanted) {
        m_current.clear();
        m_state = State::Leased;
        return {Journal{u"host %1: engine %2 stopped for the lease of %3"_s.arg(m_host, engine, m_leaseOwner), {}},
                LeaseGranted{m_leaseOwner}};
    }
    if (engine == m_current) {
        m_current.clear();
        if (m_state == State::Serving)
            m_state = State::Unknown;
    }
    if (m_state == State::Switching && m_target.isEmpty()) {
        // The stop we asked for (a lease released before it was done): nothing runs now.
        m_current.clear();
        m_state = State::Unknown;
    }
    return pump(now);
}

HostStateMachine::Actions HostStateMachine::probed(const QString &runningEngine, TimePoint now)
{
    if (m_state == State::Unknown || m_state == State::Down || m_state == State::Idle || m_state == State::Asleep) {
        if (runningEngine.isEmpty())
            return {};
        m_current = runningEngine;   // a box that woke by itself, or an engine started behind our back
        m_lastActivity = now;
        m_lastFinish.reset();
        m_state = State::Serving;
        m_lastFailure.reset();
        return pump(now);
    }
    if (m_state == State::Serving && !runningEngine.isEmpty() && runningEngine != m_current) {
        m_current = runningEngine;   // changed behind our back: believe the host
        m_lastFinish.reset();
        return pump(now);
    }
    if (m_state == State::Serving && runningEngine.isEmpty()) {
        // Its engine died behind our back (a request met it unreachable): the next request
        // starts it again instead of meeting the dead one.
        m_current.clear();
        m_state = State::Unknown;
        return pump(now);
    }
    return {};
}

HostStateMachine::Actions HostStateMachine::takeLease(const QString &owner, const QDateTime &until, TimePoint now)
{
    m_leaseOwner = owner;
    m_leaseUntil = until;
    const Journal taken = journal(HistoryEvent::Kind::LeaseTaken, m_current, {},
                                  u"%1 until %2"_s.arg(owner, until.toString(Qt::ISODate)));
    if (m_state == State::Leased)
        return {taken, LeaseGranted{owner}};
    m_leaseWanted = true;
    if (m_state == State::Waking)
        m_state = State::Asleep;   // no one waits for the wake any more: the lease is granted as it is
    Actions actions{taken};
    actions.append(refuseAllWaiting(leased()));
    actions.append(pump(now));
    return actions;
}

HostStateMachine::Actions HostStateMachine::releaseLease(TimePoint now)
{
    if (!m_leaseWanted && m_state != State::Leased)
        return {};
    const QString owner = m_leaseOwner;
    m_leaseWanted = false;
    m_leaseOwner.clear();
    m_leaseUntil = QDateTime();
    // The lease stopped its engine: nothing runs, and the next request starts one (issue 31).
    if (m_state == State::Leased)
        m_state = !m_canSwitch ? State::Serving : m_current.isEmpty() ? State::Idle : State::Unknown;
    Actions actions{journal(HistoryEvent::Kind::LeaseReleased, {}, {}, owner)};
    actions.append(pump(now));
    return actions;
}

} // namespace switchyard
