#include "hosts/hoststatemachine.h"


namespace switchyard {

using namespace Qt::StringLiterals;

HostStateMachine::HostStateMachine(QString host, bool canSwitch, QString initialEngine)
    : m_host(std::move(host))
    , m_canSwitch(canSwitch)
    , m_state(canSwitch ? State::Unknown : State::Serving)
    , m_current(std::move(initialEngine))
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
    }
    return {};
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
    if (m_state == State::Draining)
        wait.phase = Wait::Phase::Draining;
    else if (m_state == State::Switching)
        wait.phase = m_target.isEmpty() ? Wait::Phase::Stopping : Wait::Phase::Switching;
    return wait;
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

HostStateMachine::Actions HostStateMachine::requestArrived(RequestId id, const QString &engine, const QString &alias)
{
    if (m_state == State::Leased || m_leaseWanted)
        return {Refuse{id, 423, leased().facts(), leased()}};
    if (!m_canSwitch) {
        m_running.append({id, engine, alias});
        return {Admit{id}};
    }
    if (m_state == State::Serving && engine == m_current && m_waiting.isEmpty()) {
        m_running.append({id, engine, alias});
        return {Admit{id}};
    }
    m_waiting.append({id, engine, alias});
    return pump();
}

HostStateMachine::Actions HostStateMachine::beginSwitch(const QString &engine, const QString &alias)
{
    m_state = State::Switching;
    m_target = engine;
    m_targetAlias = alias;
    return {journal(HistoryEvent::Kind::SwitchStart, engine, alias, {}), StartEngine{engine, alias}};
}

HostStateMachine::Actions HostStateMachine::pump()
{
    Actions actions;
    if (m_state == State::Switching || m_state == State::Leased)
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
    while (!m_waiting.isEmpty()) {
        const Pending front = m_waiting.first();
        if (m_state == State::Serving && front.engine == m_current) {
            m_waiting.removeFirst();
            m_running.append(front);
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

HostStateMachine::Actions HostStateMachine::refuseAllWaiting(const HostRefusal &why)
{
    Actions actions;
    for (const Pending &p : std::as_const(m_waiting))
        actions.append(Refuse{p.id, why.status(), why.facts(), why});
    m_waiting.clear();
    return actions;
}

HostStateMachine::Actions HostStateMachine::requestFinished(RequestId id)
{
    for (qsizetype i = 0; i < m_waiting.size(); ++i) {
        if (m_waiting.at(i).id == id) {
            m_waiting.removeAt(i);
            return pump();
        }
    }
    for (qsizetype i = 0; i < m_running.size(); ++i) {
        if (m_running.at(i).id == id) {
            m_running.removeAt(i);
            return m_running.isEmpty() ? pump() : Actions{};
        }
    }
    return {};
}

HostStateMachine::Actions HostStateMachine::engineStarted(const QString &engine)
{
    if (m_leaseWanted || m_state == State::Leased) {
        // Up just as a lease came: it is stopped again, and nothing waits for it any more.
        m_current = engine;
        m_target.clear();
        m_state = State::Switching;
        return {StopEngine{engine}};
    }
    m_current = engine;
    m_target.clear();
    m_lastError.clear();
    m_state = State::Serving;
    return pump();
}

HostStateMachine::Actions HostStateMachine::engineStartFailed(const QString &engine, const QString &reason)
{
    m_current.clear();
    m_target.clear();
    m_state = State::Down;
    m_lastError = reason;
    Actions actions{journal(HistoryEvent::Kind::SwitchFailed, engine, m_targetAlias, reason)};
    HostRefusal why;
    why.reason = HostRefusal::Reason::SwitchFailed;
    why.host = m_host;
    why.engine = engine;
    why.detail = reason;
    // Those who waited for this engine get the answer; the others get their own attempt.
    QList<Pending> others;
    for (const Pending &p : std::as_const(m_waiting)) {
        if (p.engine == engine)
            actions.append(Refuse{p.id, why.status(), why.facts(), why});
        else
            others.append(p);
    }
    m_waiting = others;
    actions.append(pump());
    return actions;
}

HostStateMachine::Actions HostStateMachine::engineStopped(const QString &engine)
{
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
    return pump();
}

HostStateMachine::Actions HostStateMachine::probed(const QString &runningEngine)
{
    if (m_state == State::Unknown || m_state == State::Down) {
        if (runningEngine.isEmpty())
            return {};
        m_current = runningEngine;
        m_state = State::Serving;
        m_lastError.clear();
        return pump();
    }
    if (m_state == State::Serving && !runningEngine.isEmpty())
        m_current = runningEngine;   // changed behind our back: believe the host
    if (m_state == State::Serving && runningEngine.isEmpty()) {
        // Its engine died behind our back (a request met it unreachable): the next request
        // starts it again instead of meeting the dead one.
        m_current.clear();
        m_state = State::Unknown;
        return pump();
    }
    return {};
}

HostStateMachine::Actions HostStateMachine::takeLease(const QString &owner, const QDateTime &until)
{
    m_leaseOwner = owner;
    m_leaseUntil = until;
    const Journal taken = journal(HistoryEvent::Kind::LeaseTaken, m_current, {},
                                  u"%1 until %2"_s.arg(owner, until.toString(Qt::ISODate)));
    if (m_state == State::Leased)
        return {taken, LeaseGranted{owner}};
    m_leaseWanted = true;
    Actions actions{taken};
    actions.append(refuseAllWaiting(leased()));
    actions.append(pump());
    return actions;
}

HostStateMachine::Actions HostStateMachine::releaseLease()
{
    if (!m_leaseWanted && m_state != State::Leased)
        return {};
    const QString owner = m_leaseOwner;
    m_leaseWanted = false;
    m_leaseOwner.clear();
    m_leaseUntil = QDateTime();
    if (m_state == State::Leased)
        m_state = m_canSwitch ? State::Unknown : State::Serving;
    Actions actions{journal(HistoryEvent::Kind::LeaseReleased, {}, {}, owner)};
    actions.append(pump());
    return actions;
}

} // namespace switchyard
