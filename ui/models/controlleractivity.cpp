#include "models/controlleractivity.h"

#include "hosts/hostcontroller.h"
#include "shared/failurewords.h"

#include <QStringList>
#include <QTime>

namespace switchyard {

using namespace Qt::StringLiterals;

// What a drain waits on and what waits with it, with clock times (a card is not redrawn every
// second, so ages would go stale): "for fork: finishing 3090-flint-40b (since 14:02:11); 2 waiting
// since 14:02:15".
QString ControllerActivity::drainDetail(const HostController *c)
{
    const auto now = std::chrono::steady_clock::now();
    const auto clockTime = [now](std::chrono::steady_clock::time_point since) {
        const auto age = std::chrono::duration_cast<std::chrono::milliseconds>(now - since);
        return QTime::currentTime().addMSecs(-int(age.count())).toString(u"HH:mm:ss"_s);
    };
    QStringList parts;
    const QList<HostController::HeldRequest> running = c->runningList();
    const QList<HostController::HeldRequest> waiting = c->waitingList();
    if (!running.isEmpty()) {
        QStringList aliases;
        for (const HostController::HeldRequest &r : running) {
            if (!aliases.contains(r.info.alias))
                aliases.append(r.info.alias);
        }
        parts.append(tr("finishing %1 (since %2)").arg(aliases.join(u", "_s), clockTime(running.first().since)));
    }
    if (!waiting.isEmpty())
        parts.append(tr("%n waiting since %1", nullptr, int(waiting.size())).arg(clockTime(waiting.first().since)));
    const QString held = parts.join(u"; "_s);
    if (c->targetEngine().isEmpty())
        return held;
    return held.isEmpty() ? tr("for %1").arg(c->targetEngine()) : tr("for %1: %2").arg(c->targetEngine(), held);
}

ControllerActivity::Reading ControllerActivity::read(const HostController *c, const QString &nextEngine, int nextWaiting)
{
    switch (c->state()) {
    case HostStateMachine::State::Draining:
        return {HostActivity::Draining, drainDetail(c)};
    case HostStateMachine::State::Switching:
        // The target is in the activity's text ("mainline → fork"); without one it stops.
        return {HostActivity::Switching, c->targetEngine().isEmpty() ? tr("stopping the engine") : QString()};
    case HostStateMachine::State::Down:
        return {HostActivity::Down, c->lastFailure() ? FailureWords::engineFailure(*c->lastFailure()) : QString()};
    case HostStateMachine::State::Unknown:
        // Nothing runs and the next request starts an engine (after a lease, or before the
        // first request): idle, not the "connection refused" a poll of the stopped engine reads.
        if (c->canSwitch() && c->currentEngine().isEmpty())
            return {HostActivity::Idle, tr("no engine running; the next request starts one")};
        return {std::nullopt, {}};
    case HostStateMachine::State::Idle:
        // Stopped for idleness, for a lease that ended, or found stopped: the timeline says which.
        return {HostActivity::Idle, tr("no engine running; the next request starts one")};
    case HostStateMachine::State::Asleep:
        return {HostActivity::Asleep, c->power().canWake ? tr("the next request wakes it")
                                                         : tr("the next request starts its engine")};
    case HostStateMachine::State::Waking:
        return {HostActivity::Waking, tr("waiting for the host to answer")};
    case HostStateMachine::State::Leased:
    case HostStateMachine::State::Serving:
        // Leased follows from the lease; the rest from polls, and a switch the batch policy
        // holds back is said (the card's engine line, the tooltip).
        return {std::nullopt, nextEngine.isEmpty() ? QString() : tr("%n waiting for %1", nullptr, nextWaiting).arg(nextEngine)};
    }
    return {std::nullopt, {}};
}

} // namespace switchyard
