#pragma once

#include "hosts/hoststatemachine.h"
#include "journal/waitreason.h"

#include <QDateTime>

#include <functional>
#include <optional>

class QObject;

namespace switchyard {

// What a request waiting on a host waits for, in the request log's words: the host's own view of
// its wait (HostStateMachine::waitFor) seen from a request for `engine`. A request for an engine
// that neither runs nor is being switched to waits for the switch to its engine that follows:
// behind a switch to another one it reads "switch other→engine", as the requests held after that
// switch do, not "queue".
WaitReason hostWaitReason(const HostStateMachine::Wait &wait, HostStateMachine::State state,
                          const QString &currentEngine, const QString &engine);

class HostController;
// The latest the host leaves its running engine for a request for `engine` that arrived at
// `arrival` (the relay's wall clock, `now` being that clock's now): its class's wait limit, or
// sooner when the host's own bound for the same switch (an earlier waiter's) comes first. Invalid
// unless the host holds the request for another engine's work (HostStateMachine's Batching).
QDateTime hostWaitUntil(const HostController &controller, const QString &engine, const QDateTime &arrival,
                        bool sideCall, const QDateTime &now);
// A waiting request's reason follows the host's wait: update is called each time the host's
// state changes, with the new reason if it differs from the last one (else nullopt); when it
// returns false (the request was admitted or ended) the following stops, so no connection is
// left behind. `last` is the reason the request has now.
void followHostWait(HostController *controller, QObject *context, const QString &engine, const WaitReason &last,
                    std::function<bool(const std::optional<WaitReason> &)> update);

} // namespace switchyard
