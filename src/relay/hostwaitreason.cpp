#include "relay/hostwaitreason.h"

#include "hosts/hostcontroller.h"

#include <memory>

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
        // Behind a switch to another engine: it waits for the switch from that one to its own
        // (also when its engine is the one being drained away).
        if (!wait.engine.isEmpty())
            return {WaitReason::Kind::Switch, wait.engine, engine};
        return {WaitReason::Kind::Queue, {}, {}};
    case Phase::Stopping:
        return {WaitReason::Kind::Lease, {}, {}};   // the engine stops for (or after) a lease
    case Phase::Waking:
        return {WaitReason::Kind::Wake, {}, {}};   // the packet went out: it waits for the box
    case Phase::Other:
        break;
    }
    return {state == HostStateMachine::State::Leased ? WaitReason::Kind::Lease : WaitReason::Kind::Queue, {}, {}};
}

QDateTime hostWaitUntil(const HostController &controller, const QString &engine, const QDateTime &arrival,
                        bool sideCall, const QDateTime &now)
{
    const HostStateMachine::Wait wait = controller.waitFor();
    if (wait.phase != HostStateMachine::Wait::Phase::Batching || wait.engine == engine || !arrival.isValid())
        return {};
    QDateTime until = arrival.addMSecs(controller.scheduling().waitLimit(sideCall).count());
    if (wait.holdLeft.count() >= 0 && controller.nextSwitch().engine == engine)
        until = std::min(until, now.addMSecs(wait.holdLeft.count()));
    return until;
}

void followHostWait(HostController *controller, QObject *context, const QString &engine, const WaitReason &last,
                    std::function<bool(const std::optional<WaitReason> &)> update)
{
    auto connection = std::make_shared<QMetaObject::Connection>();
    auto shown = std::make_shared<WaitReason>(last);
    *connection = QObject::connect(controller, &HostController::stateChanged, context,
                                   [controller, engine, connection, shown, update = std::move(update)] {
        const WaitReason reason = hostWaitReason(controller->waitFor(), controller->state(),
                                                 controller->currentEngine(), engine);
        // The same switch still: its old engine having stopped on the way (no "from" now) does
        // not make it another one.
        const bool sameSwitch = reason.kind == WaitReason::Kind::Switch && shown->kind == WaitReason::Kind::Switch
            && reason.to == shown->to;
        // A box that woke starts its engine next: still the wake, until the engine answers.
        const bool wakeGoesOn = shown->kind == WaitReason::Kind::Wake && reason.kind == WaitReason::Kind::Switch
            && reason.from.isEmpty();
        const bool changed = !(reason == *shown) && !sameSwitch && !wakeGoesOn;
        if (!update(changed ? std::optional(reason) : std::nullopt)) {
            QObject::disconnect(*connection);
            return;
        }
        if (changed)
            *shown = reason;
    });
}

} // namespace switchyard
