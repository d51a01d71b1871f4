#pragma once

#include "simulator.h"
#include "trace.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard::switchsim {

// One trace under each policy, in the order of policies().
struct TraceRun
{
    Trace trace;
    QList<Policy> policies;
    QList<Result> results;
};

// Strict arrival order, the batch policy with `batch`'s dwell and bound, and the same with prompt
// caches kept over a switch.
QList<Policy> policies(const SchedulingConfig &batch);
TraceRun runTrace(const Trace &trace, const QList<Policy> &policies);

// The tables: markdown (for docs/PERFORMANCE.md) or aligned text.
QString report(const QList<TraceRun> &runs, const SchedulingConfig &batch, bool markdown);

// What issues 19 and 31 ask of the policy, empty when all of it holds: no request admitted later
// than max_wait plus one switch plus the longest run (the drain) on any trace; and no group's p95
// wait more than 25 % above strict order's unless its trace says why. (Fewer switches on trace
// "a" need longer holds than the default's: tst_switchsim checks them with max_wait_s 480.)
QStringList check(const QList<TraceRun> &runs, const SchedulingConfig &batch);

// Switches per hour and the worst p95 against strict order, over dwell and max_wait values: how
// the defaults were chosen.
QString sweep(const QList<Trace> &traces, bool markdown);

} // namespace switchyard::switchsim
