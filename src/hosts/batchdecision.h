#pragma once

#include "config/config.h"
#include "hosts/pendingrequest.h"

#include <QList>
#include <QString>

#include <chrono>
#include <optional>

namespace switchyard {

// The batch policy's two questions about a host's queue (SchedulingConfig::Policy::Batch), asked
// without changing anything: must the running engine give the host up now, and for which engine.
// HostStateMachine makes one for each question and acts on the answer.
class BatchDecision
{
public:
    using TimePoint = std::chrono::steady_clock::time_point;

    // The host as it is: waiting in arrival order (referred to, not copied: the decision lives
    // no longer than the call that asks it), the current engine and whether it is up to keep
    // (not unknown, down, idle or asleep), whether requests run on it, and when the last one on
    // it finished.
    BatchDecision(const QList<PendingRequest> &waiting, const QString &current, bool engineUp, bool running,
                  std::optional<TimePoint> lastFinish, const SchedulingConfig &scheduling);

    const PendingRequest *oldestWaiterForOthers() const;
    // When the first waiter for another engine reaches its class's wait limit (maxWait, or
    // sideCallMaxWait for a side call); nullopt when none waits.
    std::optional<TimePoint> firstDeadline() const;
    bool mustLeave(TimePoint now) const;   // the current engine gives the host up
    const PendingRequest *chooseTarget(TimePoint now) const;

private:
    bool currentHasWork(TimePoint now) const;
    bool waitsForOthers(const PendingRequest &p) const;
    TimePoint deadline(const PendingRequest &p) const;
    // The first waiter, in arrival order, for another engine that has waited its limit.
    const PendingRequest *overdue(TimePoint now) const;

    const QList<PendingRequest> &m_waiting;
    QString m_current;
    bool m_engineUp;
    bool m_running;
    std::optional<TimePoint> m_lastFinish;
    SchedulingConfig m_scheduling;
};

} // namespace switchyard
