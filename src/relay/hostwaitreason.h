#pragma once

#include "hosts/hoststatemachine.h"
#include "journal/waitreason.h"

namespace switchyard {

// What a request waiting on a host waits for, in the request log's words: the host's own view of
// its wait (HostStateMachine::waitFor) seen from a request for `engine`. A request waits for a
// switch only when the switch is to its own engine; behind a switch to another one it queues.
WaitReason hostWaitReason(const HostStateMachine::Wait &wait, HostStateMachine::State state,
                          const QString &currentEngine, const QString &engine);

} // namespace switchyard
