#include "relay/requestlifecycle.h"

#include <array>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

using S = RequestLifecycle::State;
using Row = std::array<std::optional<S>, RequestLifecycle::EventCount>;
constexpr std::optional<S> No = std::nullopt;
constexpr S C = S::Concluded;

// One row per state, in the enum's order; columns in Event's order:
//   Early200, Begin, Retry, Retarget, PassHead, InspectHead, HoldHead, ContinueStream,
//   HoldAfterEarly200, StopInspecting, Answer, ClientLeft
// Answer and ClientLeft end every live state; nothing leaves Concluded. A status line goes out
// once: Early200, PassHead and InspectHead only lead out of states where none is out, and after
// the relay's 200 the upstream's head can only continue it or be turned into an error event.
constexpr std::array<Row, RequestLifecycle::StateCount> Table = {{
    /* Admitting */          {S::AdmittingEarly200, S::Upstream, No, S::Admitting, No, No, No, No, No, No, C, C},
    /* AdmittingEarly200 */  {No, S::UpstreamEarly200, No, S::AdmittingEarly200, No, No, No, No, No, No, C, C},
    /* Rerouting */          {S::ReroutingEarly200, S::Upstream, No, S::Rerouting, No, No, No, No, No, No, C, C},
    /* ReroutingEarly200 */  {No, S::UpstreamEarly200, No, S::ReroutingEarly200, No, No, No, No, No, No, C, C},
    /* Upstream */           {S::UpstreamEarly200, No, S::UpstreamRetried, S::Rerouting,
                              S::Passing, S::Inspecting, S::HoldingError, No, No, No, C, C},
    /* UpstreamRetried */    {S::UpstreamEarly200, No, No, S::Rerouting,
                              S::Passing, S::Inspecting, S::HoldingError, No, No, No, C, C},
    /* UpstreamEarly200 */   {No, No, No, S::ReroutingEarly200, No, No, No,
                              S::StreamingEarly200, S::ErrorAfterEarly200, No, C, C},
    /* Passing */            {No, No, No, No, No, No, No, No, No, No, C, C},
    /* Inspecting */         {No, No, No, No, No, No, No, No, No, S::Passing, C, C},
    /* HoldingError */       {No, No, No, No, No, No, No, No, No, No, C, C},
    /* StreamingEarly200 */  {No, No, No, No, No, No, No, No, No, No, C, C},
    /* ErrorAfterEarly200 */ {No, No, No, No, No, No, No, No, No, No, C, C},
    /* Concluded */          {No, No, No, No, No, No, No, No, No, No, No, No},
}};

} // namespace

std::optional<RequestLifecycle::State> RequestLifecycle::next(State state, Event event)
{
    return Table[size_t(state)][size_t(event)];
}

bool RequestLifecycle::apply(Event event)
{
    const std::optional<State> to = next(m_state, event);
    if (!to) {
        ++m_refused;
        return false;
    }
    m_state = *to;
    return true;
}

bool RequestLifecycle::early200Out(State state)
{
    switch (state) {
    case State::AdmittingEarly200:
    case State::ReroutingEarly200:
    case State::UpstreamEarly200:
    case State::StreamingEarly200:
    case State::ErrorAfterEarly200:
        return true;
    default:
        return false;
    }
}

bool RequestLifecycle::statusLineOut(State state)
{
    return early200Out(state) || state == State::Passing || state == State::Inspecting;
}

bool RequestLifecycle::upstreamAnswered(State state)
{
    switch (state) {
    case State::Passing:
    case State::Inspecting:
    case State::HoldingError:
    case State::StreamingEarly200:
    case State::ErrorAfterEarly200:
        return true;
    default:
        return false;
    }
}

QString RequestLifecycle::stateName(State state)
{
    switch (state) {
    case State::Admitting: return u"admitting"_s;
    case State::AdmittingEarly200: return u"admitting-early200"_s;
    case State::Rerouting: return u"rerouting"_s;
    case State::ReroutingEarly200: return u"rerouting-early200"_s;
    case State::Upstream: return u"upstream"_s;
    case State::UpstreamRetried: return u"upstream-retried"_s;
    case State::UpstreamEarly200: return u"upstream-early200"_s;
    case State::Passing: return u"passing"_s;
    case State::Inspecting: return u"inspecting"_s;
    case State::HoldingError: return u"holding-error"_s;
    case State::StreamingEarly200: return u"streaming-early200"_s;
    case State::ErrorAfterEarly200: return u"error-after-early200"_s;
    case State::Concluded: return u"concluded"_s;
    }
    return {};
}

QString RequestLifecycle::eventName(Event event)
{
    switch (event) {
    case Event::Early200: return u"early200"_s;
    case Event::Begin: return u"begin"_s;
    case Event::Retry: return u"retry"_s;
    case Event::Retarget: return u"retarget"_s;
    case Event::PassHead: return u"pass-head"_s;
    case Event::InspectHead: return u"inspect-head"_s;
    case Event::HoldHead: return u"hold-head"_s;
    case Event::ContinueStream: return u"continue-stream"_s;
    case Event::HoldAfterEarly200: return u"hold-after-early200"_s;
    case Event::StopInspecting: return u"stop-inspecting"_s;
    case Event::Answer: return u"answer"_s;
    case Event::ClientLeft: return u"client-left"_s;
    }
    return {};
}

} // namespace switchyard
