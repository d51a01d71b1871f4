#include "simulator.h"

#include "hosts/hoststatemachine.h"

#include <QHash>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <queue>
#include <vector>

namespace switchyard::switchsim {

using namespace Qt::StringLiterals;
using SM = HostStateMachine;
using TimePoint = SM::TimePoint;

namespace {

const TimePoint T0 = TimePoint() + std::chrono::hours(1);

TimePoint at(double seconds)
{
    return T0 + std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double>(seconds));
}

double seconds(TimePoint t)
{
    return std::chrono::duration<double>(t - T0).count();
}

struct Event
{
    enum class Kind { Arrive, Done, Up, Wake };
    TimePoint at;
    quint64 seq;
    Kind kind;
    int agent = -1;
    SM::RequestId id = 0;
    QString engine;
    bool operator>(const Event &o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

// The part of an agent's conversation an engine holds in its prompt cache, and since which start
// of that engine: a cache from an earlier start is gone (unless caches are kept).
struct Cache
{
    double upTo = 0;
    int start = -1;
};

struct AgentState
{
    int next = 0;
    double context = 0;
    QHash<QString, Cache> caches;
};

struct Request
{
    int agent;
    int turn;
    TimePoint arrived;
};

Waits waitsOf(std::vector<double> values)
{
    Waits w;
    w.turns = int(values.size());
    if (values.empty())
        return w;
    std::sort(values.begin(), values.end());
    auto rank = [&](double p) { return values[std::min(values.size() - 1, size_t(std::ceil(p * double(values.size()))) - 1)]; };
    w.p50 = rank(0.5);
    w.p95 = rank(0.95);
    w.max = values.back();
    return w;
}

class Simulation
{
public:
    Simulation(const Trace &trace, const Policy &policy)
        : m_trace(trace)
        , m_policy(policy)
        , m_machine(u"sim"_s, true, {}, policy.scheduling)
    {
    }

    Result run()
    {
        m_agents.resize(m_trace.agents.size());
        for (qsizetype i = 0; i < m_trace.agents.size(); ++i) {
            const Agent &a = m_trace.agents.at(i);
            m_agents[size_t(i)].context = a.contextS;
            if (!a.turns.isEmpty())
                push(at(a.startS), Event::Kind::Arrive, int(i));
        }
        m_up = m_trace.firstEngine;
        m_starts[m_up] = 0;
        handle(m_machine.probed(m_up, T0), T0);
        TimePoint last = T0;
        quint64 guard = 0;
        while (!m_events.empty() && ++guard < 50'000'000) {
            const Event e = m_events.top();
            m_events.pop();
            last = e.at;
            step(e);
        }
        m_result.hours = seconds(last) / 3600;
        for (auto it = m_waits.cbegin(); it != m_waits.cend(); ++it) {
            Waits w = waitsOf(it.value());
            w.turnsPerHour = m_result.hours > 0 ? w.turns / m_result.hours : 0;
            m_result.waits.insert(it.key(), w);
        }
        return m_result;
    }

private:
    void push(TimePoint at, Event::Kind kind, int agent = -1, SM::RequestId id = 0, const QString &engine = {})
    {
        m_events.push(Event{at, m_seq++, kind, agent, id, engine});
    }

    void busy(TimePoint now, int delta)
    {
        if (m_active > 0)
            m_result.busyS += std::chrono::duration<double>(now - m_busySince).count();
        m_busySince = now;
        m_active += delta;
    }

    void step(const Event &e)
    {
        switch (e.kind) {
        case Event::Kind::Arrive: {
            const Agent &agent = m_trace.agents.at(e.agent);
            AgentState &state = m_agents[size_t(e.agent)];
            const Turn &turn = agent.turns.at(state.next);
            const SM::RequestId id = m_nextId++;
            m_requests.insert(id, {e.agent, state.next, e.at});
            ++state.next;
            handle(m_machine.requestArrived(id, turn.engine, agent.name, e.at, agent.sideCalls), e.at);
            break;
        }
        case Event::Kind::Done: {
            const Request r = m_requests.take(e.id);
            const Agent &agent = m_trace.agents.at(r.agent);
            const Turn &turn = agent.turns.at(r.turn);
            AgentState &state = m_agents[size_t(r.agent)];
            busy(e.at, -1);
            state.context = std::min(agent.maxContextS, state.context + turn.prefillS + agent.growthS);
            state.caches[turn.engine] = {state.context, m_starts.value(turn.engine, -1)};
            handle(m_machine.requestFinished(e.id, e.at), e.at);
            next(r.agent, turn, e.at);
            break;
        }
        case Event::Kind::Up:
            busy(e.at, -1);
            m_up = e.engine;
            handle(m_machine.engineStarted(e.engine, e.at), e.at);
            break;
        case Event::Kind::Wake:
            if (m_wake && *m_wake == e.at) {
                m_wake.reset();
                handle(m_machine.tick(e.at), e.at);
            }
            break;
        }
    }

    // The agent's next turn after its think time, unless the trace has ended.
    void next(int agentIndex, const Turn &turn, TimePoint now)
    {
        const Agent &agent = m_trace.agents.at(agentIndex);
        const AgentState &state = m_agents[size_t(agentIndex)];
        const TimePoint when = now + std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double>(turn.thinkS));
        if (state.next >= agent.turns.size() || (m_trace.horizonS > 0 && seconds(when) >= m_trace.horizonS))
            return;
        push(when, Event::Kind::Arrive, agentIndex);
    }

    void admit(SM::RequestId id, TimePoint now)
    {
        const Request &r = m_requests[id];
        const Agent &agent = m_trace.agents.at(r.agent);
        const Turn &turn = agent.turns.at(r.turn);
        AgentState &state = m_agents[size_t(r.agent)];
        const Cache cache = state.caches.value(turn.engine);
        double before = 0;   // prefill of the conversation before this turn's new part
        double lost = 0;     // of it, what a switch made it redo (or the restore)
        if (cache.start < 0) {
            before = state.context;   // first time on this engine: its conversation, as anywhere
        } else if (cache.start == m_starts.value(turn.engine, -1) && m_up == turn.engine) {
            before = state.context - cache.upTo;
        } else if (m_policy.keepCaches) {
            lost = m_trace.restoreS;
            before = lost + state.context - cache.upTo;
        } else {
            lost = cache.upTo;
            before = state.context;
        }
        const double run = before + turn.prefillS + turn.genS;
        const double admission = std::chrono::duration<double>(now - r.arrived).count();
        m_waits[agent.group.isEmpty() ? agent.name : agent.group].push_back(admission + lost);
        m_result.longestAdmissionS = std::max(m_result.longestAdmissionS, admission);
        m_result.longestRunS = std::max(m_result.longestRunS, run);
        m_result.reprefillS += lost;
        busy(now, +1);
        push(now + std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double>(run)),
             Event::Kind::Done, r.agent, id);
    }

    void handle(const SM::Actions &actions, TimePoint now)
    {
        for (const SM::Action &action : actions) {
            if (auto a = std::get_if<SM::Admit>(&action)) {
                admit(a->id, now);
            } else if (auto r = std::get_if<SM::Refuse>(&action)) {
                ++m_result.refused;
                const Request req = m_requests.take(r->id);
                next(req.agent, m_trace.agents.at(req.agent).turns.at(req.turn), now);
            } else if (auto s = std::get_if<SM::StartEngine>(&action)) {
                // The driver stops the running engine (its caches go) and starts the new one.
                const double cost = m_trace.switchS.value(s->engine, 20);
                ++m_result.switches;
                m_result.switchingS += cost;
                m_up.clear();
                m_starts[s->engine] = m_starts.value(s->engine, -1) + 1;
                busy(now, +1);
                push(now + std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double>(cost)),
                     Event::Kind::Up, -1, 0, s->engine);
            }
        }
        // The host's timer: one wake-up armed at a time, the latest the machine asked for.
        const std::optional<TimePoint> wake = m_machine.nextWakeUp();
        if (!wake) {
            m_wake.reset();
        } else if (const TimePoint when = std::max(*wake, now); when != m_wake) {
            m_wake = when;   // an earlier one still queued is stale now, and ignored
            push(when, Event::Kind::Wake);
        }
    }

    const Trace &m_trace;
    const Policy &m_policy;
    SM m_machine;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_events;
    quint64 m_seq = 0;
    SM::RequestId m_nextId = 1;
    std::vector<AgentState> m_agents;
    QHash<SM::RequestId, Request> m_requests;
    QString m_up;                     // the engine that runs, empty during a switch
    QHash<QString, int> m_starts;     // engine -> how often it was started
    std::optional<TimePoint> m_wake;
    int m_active = 0;
    TimePoint m_busySince = T0;
    QMap<QString, std::vector<double>> m_waits;
    Result m_result;
};

} // namespace

Result simulate(const Trace &trace, const Policy &policy)
{
    return Simulation(trace, policy).run();
}

} // namespace switchyard::switchsim
