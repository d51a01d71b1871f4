#include "hosts/batchdecision.h"

#include <QHash>

#include <algorithm>

namespace switchyard {

BatchDecision::BatchDecision(const QList<PendingRequest> &waiting, const QString &current, bool engineUp, bool running,
                             std::optional<TimePoint> lastFinish, const SchedulingConfig &scheduling)
    : m_waiting(waiting)
    , m_current(current)
    , m_engineUp(engineUp)
    , m_running(running)
    , m_lastFinish(lastFinish)
    , m_scheduling(scheduling)
{
}

// The current engine has work: requests running on it, or one that finished within dwell (its
// client is probably thinking or running a tool, and comes back for the same engine).
bool BatchDecision::currentHasWork(TimePoint now) const
{
    if (m_running)
        return true;
    if (std::any_of(m_waiting.cbegin(), m_waiting.cend(), [this](const PendingRequest &p) { return p.engine == m_current; }))
        return true;
    return m_lastFinish && now < *m_lastFinish + m_scheduling.dwell;
}

bool BatchDecision::waitsForOthers(const PendingRequest &p) const
{
    return p.engine != m_current || m_current.isEmpty();
}

const PendingRequest *BatchDecision::oldestWaiterForOthers() const
{
    for (const PendingRequest &p : m_waiting) {   // in arrival order
        if (waitsForOthers(p))
            return &p;
    }
    return nullptr;
}

BatchDecision::TimePoint BatchDecision::deadline(const PendingRequest &p) const
{
    return p.since + m_scheduling.waitLimit(p.sideCall);
}

std::optional<BatchDecision::TimePoint> BatchDecision::firstDeadline() const
{
    std::optional<TimePoint> first;
    for (const PendingRequest &p : m_waiting) {
        if (waitsForOthers(p) && (!first || deadline(p) < *first))
            first = deadline(p);
    }
    return first;
}

const PendingRequest *BatchDecision::overdue(TimePoint now) const
{
    for (const PendingRequest &p : m_waiting) {
        if (waitsForOthers(p) && now >= deadline(p))
            return &p;
    }
    return nullptr;
}

// Batch: the host leaves its engine when someone waits for another one and the engine is out of
// work, or a switch on command waits, or a waiter has waited its class's limit. Without a running
// engine, any waiter is reason enough.
bool BatchDecision::mustLeave(TimePoint now) const
{
    const PendingRequest *oldest = oldestWaiterForOthers();
    if (!oldest)
        return false;
    if (m_current.isEmpty() || !m_engineUp)
        return true;
    if (overdue(now) || !currentHasWork(now))
        return true;
    return std::any_of(m_waiting.cbegin(), m_waiting.cend(),
                       [this](const PendingRequest &p) { return p.command && p.engine != m_current; });
}

// Where the host goes next: a switch on command first, then the first waiter that has waited its
// class's limit (so no one starves, and a side call is not held behind a long hold), else the
// engine the most requests wait for (ties: the oldest).
const PendingRequest *BatchDecision::chooseTarget(TimePoint now) const
{
    const PendingRequest *oldest = oldestWaiterForOthers();
    if (!oldest)
        return nullptr;
    for (const PendingRequest &p : m_waiting) {
        if (p.command && waitsForOthers(p))
            return &p;
    }
    if (const PendingRequest *late = overdue(now))
        return late;
    QHash<QString, int> count;
    for (const PendingRequest &p : m_waiting)
        ++count[p.engine];
    const PendingRequest *best = oldest;
    for (const PendingRequest &p : m_waiting) {
        if (waitsForOthers(p) && count.value(p.engine) > count.value(best->engine))
            best = &p;   // the first (oldest) of the engine with the most waiters
    }
    return best;
}

} // namespace switchyard
