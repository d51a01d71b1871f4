#pragma once

#include <QString>

#include <optional>

namespace switchyard {

// The life of one relayed request as one state: how far it got upstream, and what its client has
// been sent so far. A pure table without I/O (like HostStateMachine): ProxiedRequest asks it
// before each move and does the writing itself; tst_requestlifecycle checks every (state, event)
// pair against a table written out by hand, and random sequences against its invariants.
class RequestLifecycle
{
public:
    enum class State {
        Admitting,            // waiting for its host's go; nothing sent anywhere yet
        AdmittingEarly200,    // the same, with the relay's own 200 and waiting comments out
        Rerouting,            // a replica failed before answering: waiting for the next one's host
        ReroutingEarly200,    // the same, after the relay's own 200
        Upstream,             // sent upstream, no answer yet
        UpstreamRetried,      // the same, on its one retry (the first try failed before an answer)
        UpstreamEarly200,     // sent upstream, no answer yet, the relay's own 200 out
        Passing,              // the upstream's head went out, its body follows as it comes
        Inspecting,           // the same, with a copy of a small JSON body kept for its usage
        HoldingError,         // an error answer held whole, to go out rewritten at its end
        StreamingEarly200,    // the upstream's event stream continues the relay's own 200
        ErrorAfterEarly200,   // the upstream refused after the relay's 200: its body becomes an error event
        Concluded,            // answered, or the client left: nothing more goes out
    };
    static constexpr int StateCount = int(State::Concluded) + 1;

    enum class Event {
        Early200,            // the wait clock ran out first: the relay's own 200 goes out
        Begin,               // the host let it go: sent upstream
        Retry,               // the upstream failed before answering: once more, to the same one
        Retarget,            // to another replica (failover), through its host again
        PassHead,            // the upstream's head goes out
        InspectHead,         // the same, and its small JSON body is inspected for the usage
        HoldHead,            // the upstream's head is an error that is held for rewriting
        ContinueStream,      // after the relay's 200: the upstream's event stream follows it
        HoldAfterEarly200,   // after the relay's 200: the upstream refused, its error is collected
        StopInspecting,      // the JSON body outgrew what is inspected: passed on only
        Answer,              // the end goes out: a whole answer, or the end of the one under way
        ClientLeft,          // the client went away: nothing more goes out
    };
    static constexpr int EventCount = int(Event::ClientLeft) + 1;

    // The table: where event leads from state; nullopt when it cannot happen there (a bug).
    static std::optional<State> next(State state, Event event);

    // Facts of a state.
    static bool early200Out(State state);        // the relay's own 200 went out
    static bool statusLineOut(State state);      // the client has a status line (the relay's or the upstream's)
    static bool upstreamAnswered(State state);   // an upstream's head arrived: no retry or failover after it
    static bool isConcluded(State state) { return state == State::Concluded; }

    static QString stateName(State state);
    static QString eventName(Event event);

    State state() const { return m_state; }
    bool concluded() const { return isConcluded(m_state); }
    bool allows(Event event) const { return next(m_state, event).has_value(); }
    // Moves on as the table says; false, with the state kept and the refusal counted, when the
    // table has no such move.
    bool apply(Event event);
    int refusedMoves() const { return m_refused; }

private:
    State m_state = State::Admitting;
    int m_refused = 0;
};

} // namespace switchyard
