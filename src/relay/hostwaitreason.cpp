#include "relay/hostwaitreason.h"

namespace switchyard {

WaitReason hostWaitReason(const HostStateMachine::Wait &wait, HostStateMachine::State state,
                          const QString &currentEngine, const QString &engine)
{
    using Phase = HostStateMachine::Wait::Phase;
    switch (wait.phase) {
    case Phase::Batching:
        // The running engine (wait.engine) still has work; a request for another one is held
        // for the switch to its engine that comes after.
        if (wait.engine != engine)
            return {WaitReason::Kind::Switch, currentEngine, engine};
        return {WaitReason::Kind::Queue, {}, {}};
    case Phase::Draining:
    case Phase::Switching:
        if (wait.engine == engine)
            return {WaitReason::Kind::Switch, currentEngine, engine};
        return {WaitReason::Kind::Queue, {}, {}};
    case Phase::Stopping:
        return {WaitReason::Kind::Lease, {}, {}};   // the engine stops for (or after) a lease
    case Phase::Waking:
        return {WaitReason::Kind::HostCheck, {}, {}};
    case Phase::Other:
        break;
    }
    return {state == HostStateMachine::State::Leased ? WaitReason::Kind::Lease : WaitReason::Kind::Queue, {}, {}};
}

} // namespace switchyard
