#pragma once

// The little scripts the host state machine's table tests are written in: each step is
// "input => actions => state" (or "due => T", the next wake-up), run in virtual time.

#include "hosts/hoststatemachine.h"

#include <QString>
#include <QStringList>

namespace switchyard::test {

using SM = HostStateMachine;

// Virtual time: a script starts at t0; "@SECONDS " before a step moves the clock there first.
extern const SM::TimePoint t0;
SM::TimePoint at(double seconds);

// The actions as the scripts write them: "admit 1, start b".
QString describe(const SM::Actions &actions);
// One input: "arrive ID ENGINE", "side ID ENGINE" (a side call), "command ID ENGINE", "finish ID",
// "started E", "failed E", "stopped E", "probe E|-", "lease OWNER", "release", "tick", "woke E|-",
// "unreachable".
SM::Actions apply(SM &sm, const QString &step, SM::TimePoint now);
// The machine's wake-up in the script's seconds, "-" for none.
QString due(const SM &sm);
// "arrival" or "batch", with dwell 5 s, max_wait 30 s and 10 s for side calls.
SchedulingConfig policy(const QString &name);

// Runs a script on a fresh machine of host "h"; power: words out of "static", "idle" (engine a
// stops after 10 s), "sleep" (a sleep_command), "wake" (wake-on-LAN, 20 s timeout). Fails the
// current test on the first step that differs.
void runScript(const QString &policyName, const QStringList &steps, const QString &power = {});

} // namespace switchyard::test
