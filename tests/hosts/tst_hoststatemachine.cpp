// Table tests for every transition of a host's state machine: each row is a little script of
// inputs, and the actions and state each input must produce.
#include "hosts/hoststatemachine.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;
using SM = HostStateMachine;

namespace {

QString describe(const SM::Actions &actions)
{
    QStringList parts;
    for (const SM::Action &a : actions) {
        if (auto p = std::get_if<SM::Admit>(&a))
            parts << u"admit %1"_s.arg(p->id);
        else if (auto p = std::get_if<SM::Refuse>(&a))
            parts << u"refuse %1 %2"_s.arg(p->id).arg(p->why.status());
        else if (auto p = std::get_if<SM::StartEngine>(&a))
            parts << u"start %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::StopEngine>(&a))
            parts << u"stop %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::LeaseGranted>(&a))
            parts << u"granted %1"_s.arg(p->owner);
        else if (std::get_if<SM::Journal>(&a))
            parts << u"journal"_s;
        else if (std::get_if<SM::SendWake>(&a))
            parts << u"wake"_s;
        else if (std::get_if<SM::RunSleepCommand>(&a))
            parts << u"sleep"_s;
    }
    return parts.join(u", "_s);
}

// Virtual time: a row starts at t0; "@SECONDS " before a step moves the clock there first.
const SM::TimePoint t0 = SM::TimePoint() + std::chrono::hours(1000);

SM::TimePoint at(double seconds)
{
    return t0 + std::chrono::duration_cast<SM::TimePoint::duration>(std::chrono::duration<double>(seconds));
}

// "arrive ID ENGINE", "side ID ENGINE" (a side call), "command ID ENGINE", "finish ID", "started E", "failed E", "stopped E",
// "probe E|-", "lease OWNER", "release", "tick"
SM::Actions apply(SM &sm, const QString &step, SM::TimePoint now)
{
    const QStringList w = step.split(u' ');
    const QString &verb = w.at(0);
    if (verb == "arrive"_L1)
        return sm.requestArrived(w.at(1).toULongLong(), w.at(2), u"h-"_s + w.at(2), now);
    if (verb == "side"_L1)
        return sm.requestArrived(w.at(1).toULongLong(), w.at(2), u"h-"_s + w.at(2), now, true);
    if (verb == "command"_L1)
        return sm.commandArrived(w.at(1).toULongLong(), w.at(2), u"the window"_s, now);
    if (verb == "finish"_L1)
        return sm.requestFinished(w.at(1).toULongLong(), now);
    if (verb == "started"_L1)
        return sm.engineStarted(w.at(1), now);
    if (verb == "failed"_L1)
        return sm.engineStartFailed(w.at(1), u"no /health"_s, now);
    if (verb == "stopped"_L1)
        return sm.engineStopped(w.at(1), now);
    if (verb == "probe"_L1)
        return sm.probed(w.at(1) == "-"_L1 ? QString() : w.at(1), now);
    if (verb == "lease"_L1)
        return sm.takeLease(w.at(1), QDateTime::fromSecsSinceEpoch(2000000000, Qt::UTC), now);
    if (verb == "release"_L1)
        return sm.releaseLease(now);
    if (verb == "tick"_L1)
        return sm.tick(now);
    if (verb == "woke"_L1)
        return sm.woke(w.at(1) == "-"_L1 ? QString() : w.at(1), now);
    if (verb == "unreachable"_L1)
        return sm.unreachable(now);
    qFatal("unknown step %s", qPrintable(step));
}

// The machine's wake-up in the row's seconds, "-" for none.
QString due(const SM &sm)
{
    const std::optional<SM::TimePoint> wake = sm.nextWakeUp();
    if (!wake)
        return u"-"_s;
    return QString::number(std::chrono::duration<double>(*wake - t0).count());
}

SchedulingConfig policy(const QString &name)
{
    SchedulingConfig s;
    s.policy = name == "arrival"_L1 ? SchedulingConfig::Policy::Arrival : SchedulingConfig::Policy::Batch;
    s.dwell = std::chrono::seconds(5);
    s.maxWait = std::chrono::seconds(30);
    s.sideCallMaxWait = std::chrono::seconds(10);
    return s;
}

} // namespace

class TestHostStateMachine : public QObject
{
    Q_OBJECT

private:
    void runRow(const QString &policyName, const QStringList &steps, const QString &power = {});

private Q_SLOTS:
    void transitions_data();
    void transitions();
    void batched_data();
    void batched();
    void power_data();
    void power();
    void staticHostNeverSwitches();
    void manyRunningFinishInAnyOrder();
    void staticHostNeverWakesUp();
    void messagesSayWhatAndWho();
    void batchingSaysWhatRunsFirst();
};

void TestHostStateMachine::transitions_data()
{
    QTest::addColumn<QStringList>("steps");     // each "input => actions => state"
    auto row = [](const char *name, QStringList steps) { QTest::newRow(name) << steps; };

    row("unknown: first request starts its engine", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"started a => admit 1 => serving"_s});
    row("probe finds the engine: requests pass at once", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"arrive 2 a => admit 2 => serving"_s});
    row("probe finds nothing: stays unknown", {
        u"probe - => => unknown"_s});
    row("probe finds the serving engine gone: the next request starts it", {
        u"probe a => => serving"_s,
        u"probe - => => unknown"_s,
        u"arrive 1 a => journal, start a => switching"_s});
    row("switch waits for the running stream, then releases in order", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"arrive 2 b => => draining"_s,
        u"arrive 3 a => => draining"_s,          // behind the switch, not ahead of it
        u"finish 1 => journal, start b => switching"_s,
        u"started b => admit 2 => draining"_s,
        u"finish 2 => journal, start a => switching"_s,
        u"started a => admit 3 => serving"_s});
    row("after the switch, the next engine waits for the ones released", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"arrive 2 a => => switching"_s,
        u"started b => admit 1 => draining"_s,
        u"finish 1 => journal, start a => switching"_s,
        u"started a => admit 2 => serving"_s});
    row("same-engine requests queued behind a switch are released together", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"arrive 2 b => => switching"_s,
        u"arrive 3 b => => switching"_s,
        u"started b => admit 1, admit 2, admit 3 => serving"_s});
    row("waiting client leaves: the switch is called off", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"arrive 2 b => => draining"_s,
        u"finish 2 => => serving"_s,
        u"finish 1 => => serving"_s});
    row("failed start answers its waiters 424 and marks the host down", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"arrive 2 a => => switching"_s,
        u"failed a => journal, refuse 1 424, refuse 2 424 => down"_s});
    row("failed start: others get their own attempt", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"arrive 2 b => => switching"_s,
        u"failed a => journal, refuse 1 424, journal, start b => switching"_s,
        u"started b => admit 2 => serving"_s});
    row("down host tries again on the next request", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"failed a => journal, refuse 1 424 => down"_s,
        u"arrive 2 a => journal, start a => switching"_s,
        u"started a => admit 2 => serving"_s});
    row("lease drains, stops the engine, then grants", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"lease bench => journal => draining"_s,
        u"arrive 2 a => refuse 2 423 => draining"_s,
        u"finish 1 => stop a => switching"_s,
        u"stopped a => journal, granted bench => leased"_s,
        u"arrive 3 a => refuse 3 423 => leased"_s,
        u"release => journal => idle"_s,   // its engine was stopped for the lease
        u"arrive 4 a => journal, start a => switching"_s});
    row("lease refuses those already waiting", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"arrive 2 b => => draining"_s,
        u"lease bench => journal, refuse 2 423 => draining"_s});
    row("lease on an idle host with nothing running is granted at once", {
        u"lease bench => journal, granted bench => leased"_s});
    row("an engine that comes up during a lease is stopped again", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"lease bench => journal, refuse 1 423 => switching"_s,
        u"started a => stop a => switching"_s,
        u"stopped a => journal, granted bench => leased"_s});
    row("engine stopped behind our back: next request starts it", {
        u"probe a => => serving"_s,
        u"stopped a => => unknown"_s,
        u"arrive 1 a => journal, start a => switching"_s});
    row("release without a lease does nothing", {
        u"release => => unknown"_s});
    // Found by tst_hostinvariants: a host that stayed "switching" with nothing left to happen.
    row("lease released while its stop is under way: the stop ends the switch", {
        u"probe a => => serving"_s,
        u"lease bench => journal, stop a => switching"_s,
        u"release => journal => switching"_s,
        u"stopped a => => unknown"_s,
        u"arrive 1 b => journal, start b => switching"_s});
    row("lease released while a started engine is being stopped again", {
        u"arrive 1 a => journal, start a => switching"_s,
        u"lease bench => journal, refuse 1 423 => switching"_s,
        u"started a => stop a => switching"_s,
        u"release => journal => switching"_s,
        u"stopped a => => unknown"_s,
        u"arrive 2 a => journal, start a => switching"_s});
}

// The rows above keep strict arrival order, the policy they were written for.
void TestHostStateMachine::transitions()
{
    QFETCH(QStringList, steps);
    runRow(u"arrival"_s, steps);
}

// power: words out of "static", "idle" (engine a stops after 10 s), "sleep" (a sleep_command),
// "wake" (wake-on-LAN, 20 s timeout).
void TestHostStateMachine::runRow(const QString &policyName, const QStringList &steps, const QString &power)
{
    const QStringList words = power.split(u' ', Qt::SkipEmptyParts);
    const bool isStatic = words.contains("static"_L1);
    SM sm(u"h"_s, !isStatic, isStatic ? u"a"_s : QString(), policy(policyName));
    SM::Power p;
    if (words.contains("idle"_L1))
        p.idleStopAfter.insert(u"a"_s, std::chrono::seconds(10));
    p.sleeps = words.contains("sleep"_L1);
    p.canWake = words.contains("wake"_L1);
    p.wakeTimeout = std::chrono::seconds(20);
    sm.setPower(p);
    SM::TimePoint now = t0;
    for (const QString &line : steps) {
        QStringList parts = line.split(u"=>"_s);
        for (QString &p : parts)
            p = p.trimmed();
        if (parts.at(0) == "due"_L1) {   // "due => T": the next wake-up, nothing else
            QCOMPARE(parts.size(), 2);
            QVERIFY2(due(sm) == parts.at(1), qPrintable(u"next wake-up %1, expected %2"_s.arg(due(sm), parts.at(1))));
            continue;
        }
        QCOMPARE(parts.size(), 3);
        if (parts[0].startsWith(u'@')) {
            const qsizetype space = parts[0].indexOf(u' ');
            now = at(parts[0].mid(1, space - 1).toDouble());
            parts[0] = parts[0].mid(space + 1);
        }
        const QString got = describe(apply(sm, parts.at(0), now));
        QVERIFY2(got == parts.at(1).trimmed(),
                 qPrintable(u"after '%1': actions '%2', expected '%3'"_s.arg(parts.at(0), got, parts.at(1))));
        QVERIFY2(SM::stateName(sm.state()) == parts.at(2).trimmed(),
                 qPrintable(u"after '%1': state %2, expected %3"_s.arg(parts.at(0), SM::stateName(sm.state()), parts.at(2))));
    }
}

// Idle stop, sleep and wake (arrival order; "power" as runRow reads it).
void TestHostStateMachine::power_data()
{
    QTest::addColumn<QString>("power");
    QTest::addColumn<QStringList>("steps");
    auto row = [](const char *name, const QString &power, QStringList steps) { QTest::newRow(name) << power << steps; };

    row("an idle engine is stopped after its limit, the host sleeps, a request wakes it", u"idle sleep wake"_s, {
        u"probe a => => serving"_s,
        u"due => 10"_s,
        u"@9.9 tick => => serving"_s,
        u"@10 tick => journal, stop a => switching"_s,
        u"@11 stopped a => sleep => asleep"_s,
        u"due => -"_s,
        u"@20 arrive 1 a => wake => waking"_s,
        u"due => 40"_s,
        u"@21 arrive 2 a => => waking"_s,
        u"@25 woke - => journal, journal, start a => switching"_s,
        u"@26 started a => admit 1, admit 2 => serving"_s,
        u"due => -"_s,
        u"@27 finish 1 => => serving"_s,
        u"@28 finish 2 => => serving"_s,
        u"due => 38"_s});
    row("a running request holds the idle stop off", u"idle sleep"_s, {
        u"probe a => => serving"_s,
        u"@1 arrive 1 a => admit 1 => serving"_s,
        u"due => -"_s,
        u"@50 tick => => serving"_s,
        u"@60 finish 1 => => serving"_s,
        u"due => 70"_s,
        u"@70 tick => journal, stop a => switching"_s,
        u"@71 stopped a => sleep => asleep"_s,
        u"@80 arrive 2 a => journal, start a => switching"_s});   // sleeps without wake: a start
    row("a lease holds the idle stop and the sleep off", u"idle sleep wake"_s, {
        u"probe a => => serving"_s,
        u"lease bench => journal, stop a => switching"_s,
        u"stopped a => journal, granted bench => leased"_s,
        u"due => -"_s,
        u"@100 tick => => leased"_s,
        u"@101 release => journal => idle"_s,
        u"due => -"_s});
    row("an engine without a limit is never stopped", u"idle sleep"_s, {
        u"probe b => => serving"_s,
        u"due => -"_s,
        u"@1000 tick => => serving"_s});
    row("idle stop without sleep or wake: idle, the next request starts it", u"idle"_s, {
        u"probe a => => serving"_s,
        u"@10 tick => journal, stop a => switching"_s,
        u"@11 stopped a => => idle"_s,
        u"@12 arrive 1 a => journal, start a => switching"_s,
        u"@13 started a => admit 1 => serving"_s});
    row("a request during the idle stop: no sleep, its engine starts again", u"idle sleep wake"_s, {
        u"probe a => => serving"_s,
        u"@10 tick => journal, stop a => switching"_s,
        u"@10.5 arrive 1 a => => switching"_s,
        u"@11 stopped a => journal, start a => switching"_s,
        u"@12 started a => admit 1 => serving"_s});
    row("no answer within the wake timeout: the waiters get 424", u"wake"_s, {
        u"unreachable => => asleep"_s,
        u"@1 arrive 1 a => wake => waking"_s,
        u"@2 arrive 2 b => => waking"_s,
        u"@20.9 tick => => waking"_s,
        u"@21 tick => journal, refuse 1 424, refuse 2 424 => asleep"_s,
        u"@30 arrive 3 a => wake => waking"_s});   // the next request tries again
    row("woken with its engine running: the waiters for it go at once", u"wake"_s, {
        u"unreachable => => asleep"_s,
        u"arrive 1 a => wake => waking"_s,
        u"woke a => journal, admit 1 => serving"_s});
    row("a static host wakes: everyone waited for its one engine", u"static wake"_s, {
        u"unreachable => => asleep"_s,
        u"arrive 1 a => wake => waking"_s,
        u"arrive 2 a => => waking"_s,
        u"woke a => journal, admit 1, admit 2 => serving"_s,
        u"arrive 3 a => admit 3 => serving"_s});
    row("a down host with wake is woken by the next request", u"wake"_s, {
        u"arrive 1 a => journal, start a => switching"_s,
        u"failed a => journal, refuse 1 424 => down"_s,
        u"arrive 2 a => wake => waking"_s});
    row("the client leaves while the host wakes: the timeout still ends the wake", u"wake"_s, {
        u"unreachable => => asleep"_s,
        u"arrive 1 a => wake => waking"_s,
        u"finish 1 => => waking"_s,
        u"@20 tick => journal => asleep"_s});
    row("a lease while waking refuses the waiters and is granted", u"wake"_s, {
        u"unreachable => => asleep"_s,
        u"arrive 1 a => wake => waking"_s,
        u"lease bench => journal, refuse 1 423, granted bench => leased"_s});
    row("unreachable while a request runs: not asleep", u"wake"_s, {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"unreachable => => serving"_s,
        u"finish 1 => => serving"_s,
        u"unreachable => => asleep"_s});
    row("unreachable without wake changes nothing", u"idle sleep"_s, {
        u"unreachable => => unknown"_s});
    row("a probe that finds an engine on a sleeping host: serving", u"idle sleep wake"_s, {
        u"unreachable => => asleep"_s,
        u"@5 probe a => => serving"_s,
        u"due => 15"_s});
}

void TestHostStateMachine::power()
{
    QFETCH(QString, power);
    QFETCH(QStringList, steps);
    runRow(u"arrival"_s, steps, power);
}

// The batch policy (dwell 5 s, max_wait 30 s). "due => T" checks the machine's next wake-up.
void TestHostStateMachine::batched_data()
{
    QTest::addColumn<QStringList>("steps");
    auto row = [](const char *name, QStringList steps) { QTest::newRow(name) << steps; };

    row("an idle host switches at once", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"started b => admit 1 => serving"_s});
    row("dwell: another engine waits while the running one has work, then the dwell", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"due => 31"_s,
        u"@2 arrive 3 a => admit 3 => serving"_s,   // requests for the running engine go on
        u"@3 finish 1 => => serving"_s,
        u"@4 finish 3 => => serving"_s,              // the dwell starts
        u"due => 9"_s,
        u"@8 arrive 4 a => admit 4 => serving"_s,    // back within the dwell: the engine keeps the host
        u"@9 tick => => serving"_s,
        u"@10 finish 4 => => serving"_s,
        u"due => 15"_s,
        u"@14.9 tick => => serving"_s,
        u"@15 tick => journal, start b => switching"_s,
        u"@16 started b => admit 2 => serving"_s,
        u"due => -"_s});
    row("bound: the oldest waiter reaches max_wait, the host drains and switches", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@20 arrive 3 a => admit 3 => serving"_s,
        u"@31 tick => => draining"_s,
        u"@32 arrive 4 a => => draining"_s,          // behind the switch now
        u"@33 arrive 5 b => => draining"_s,
        u"@40 finish 1 => => draining"_s,
        u"@41 finish 3 => journal, start b => switching"_s,
        u"@50 started b => admit 2, admit 5 => serving"_s,   // everything for b goes together
        u"due => 62"_s,                               // request 4 waits since 32
        u"@62 tick => => draining"_s,
        u"@63 finish 2 => => draining"_s,
        u"@64 finish 5 => journal, start a => switching"_s,
        u"@70 started a => admit 4 => serving"_s});
    row("a side call waits at most side_call_max_wait_s, and the turns for its engine go with it", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 side 2 b => => serving"_s,
        u"due => 11"_s,
        u"@5 arrive 3 b => => serving"_s,            // a turn for b: its own bound is later
        u"due => 11"_s,
        u"@10.9 tick => => serving"_s,
        u"@11 tick => => draining"_s,
        u"@12 finish 1 => journal, start b => switching"_s,
        u"@15 started b => admit 2, admit 3 => serving"_s});
    row("a side call behind a turn: the earlier limit counts", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"due => 31"_s,
        u"@4 side 3 b => => serving"_s,
        u"due => 14"_s,
        u"@14 arrive 4 a => => draining"_s,           // its limit passed: checked on any input
        u"@20 finish 1 => journal, start b => switching"_s,
        u"@21 started b => admit 2, admit 3 => serving"_s});
    row("bound checked on every input, not only on a tick", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@40 arrive 3 a => => draining"_s,
        u"@41 finish 1 => journal, start b => switching"_s});
    row("target: the engine with the most waiters", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@2 arrive 3 c => => serving"_s,
        u"@3 arrive 4 c => => serving"_s,
        u"@4 finish 1 => => serving"_s,
        u"@9 tick => journal, start c => switching"_s,
        u"@10 started c => admit 3, admit 4 => serving"_s,
        u"due => 31"_s,
        u"@31 tick => => draining"_s,
        u"@32 finish 3 => => draining"_s,
        u"@33 finish 4 => journal, start b => switching"_s,
        u"@34 started b => admit 2 => serving"_s});
    row("target: an overdue waiter goes before the engine with more waiters", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@20 arrive 3 c => => serving"_s,
        u"@21 arrive 4 c => => serving"_s,
        u"@31 tick => => draining"_s,
        u"@32 finish 1 => journal, start b => switching"_s,
        u"@33 started b => admit 2 => serving"_s,
        u"due => 50"_s});                               // c's oldest, since 20
    row("target: a tie goes to the oldest waiter", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 c => => serving"_s,
        u"@2 arrive 3 b => => serving"_s,
        u"@3 finish 1 => => serving"_s,
        u"@8 tick => journal, start c => switching"_s});
    row("a waiter who leaves calls the wait off", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"due => 31"_s,
        u"@2 finish 2 => => serving"_s,
        u"due => -"_s,
        u"@40 finish 1 => => serving"_s});
    row("a waiter who leaves while the host drains for it: the engine serves on", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@31 arrive 3 a => => draining"_s,
        u"@32 finish 2 => admit 3 => serving"_s});
    row("requests for the new engine that arrive during its switch go together", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"arrive 2 a => => switching"_s,
        u"arrive 3 b => => switching"_s,
        u"started b => admit 1, admit 3 => serving"_s});
    row("a switch that comes up with an overdue waiter still serves those it was made for", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"arrive 2 a => => switching"_s,
        u"@40 started b => admit 1 => draining"_s,
        u"@41 finish 1 => journal, start a => switching"_s});
    row("command: a switch on command waits for no dwell and no bound", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 command 2 b => => draining"_s,
        u"@2 arrive 3 a => => draining"_s,
        u"@3 finish 1 => journal, start b => switching"_s,
        u"@4 started b => admit 2 => serving"_s,
        u"@4 finish 2 => journal, start a => switching"_s,   // a command's end starts no dwell
        u"@5 started a => admit 3 => serving"_s});
    row("command: goes before an engine with more waiters", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 c => => serving"_s,
        u"@1 arrive 3 c => => serving"_s,
        u"@2 command 4 b => => draining"_s,
        u"@3 finish 1 => journal, start b => switching"_s});
    row("command for the running engine passes at once", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@2 command 3 a => admit 3 => serving"_s});
    row("lease: refuses the waiters, drains, stops, and wakes no one", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@2 lease bench => journal, refuse 2 423 => draining"_s,
        u"due => -"_s,
        u"@3 arrive 3 a => refuse 3 423 => draining"_s,
        u"@4 finish 1 => stop a => switching"_s,
        u"@5 stopped a => journal, granted bench => leased"_s,
        u"@6 release => journal => idle"_s,
        u"@7 arrive 4 b => journal, start b => switching"_s});
    row("lease taken during the dwell: granted without waiting for it", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 finish 1 => => serving"_s,
        u"@2 lease bench => journal, stop a => switching"_s,
        u"@3 stopped a => journal, granted bench => leased"_s});
    row("failed start: its waiters get 424, the others their own attempt", {
        u"probe a => => serving"_s,
        u"arrive 1 b => journal, start b => switching"_s,
        u"arrive 2 c => => switching"_s,
        u"failed b => journal, refuse 1 424, journal, start c => switching"_s,
        u"started c => admit 2 => serving"_s});
    row("engine gone behind our back: the waiters start their own", {
        u"probe a => => serving"_s,
        u"arrive 1 a => admit 1 => serving"_s,
        u"@1 arrive 2 b => => serving"_s,
        u"@2 finish 1 => => serving"_s,
        u"@3 probe - => journal, start b => switching"_s});
}

void TestHostStateMachine::batched()
{
    QFETCH(QStringList, steps);
    runRow(u"batch"_s, steps);
}

void TestHostStateMachine::staticHostNeverSwitches()
{
    SM sm(u"box"_s, false, u"main"_s);
    QCOMPARE(sm.state(), SM::State::Serving);
    QCOMPARE(describe(sm.requestArrived(1, u"main"_s, u"box-m"_s, t0)), u"admit 1"_s);
    QCOMPARE(describe(sm.takeLease(u"bench"_s, QDateTime::currentDateTimeUtc().addSecs(60), t0)), u"journal"_s);
    QCOMPARE(describe(sm.requestFinished(1, t0)), u"granted bench"_s);   // drained; nothing to stop
    QCOMPARE(describe(sm.requestArrived(2, u"main"_s, u"box-m"_s, t0)), u"refuse 2 423"_s);
    QCOMPARE(describe(sm.releaseLease(t0)), u"journal"_s);
    QCOMPARE(describe(sm.requestArrived(3, u"main"_s, u"box-m"_s, t0)), u"admit 3"_s);
}

// A thousand streams on one host end in whatever order their clients finish: each end takes its
// own request off (the others keep running, listed in arrival order), and the drain completes
// with the last one.
void TestHostStateMachine::manyRunningFinishInAnyOrder()
{
    SM sm(u"box"_s, false, u"main"_s);
    constexpr SM::RequestId N = 1000;
    for (SM::RequestId id = 1; id <= N; ++id)
        QCOMPARE(describe(sm.requestArrived(id, u"main"_s, u"box-m"_s, t0)), u"admit %1"_s.arg(id));
    QCOMPARE(describe(sm.takeLease(u"bench"_s, QDateTime::currentDateTimeUtc().addSecs(60), t0)), u"journal"_s);
    QCOMPARE(sm.runningRequests(), int(N));
    // Odd ids from the back, then even ids from the front, then an id that never ran.
    for (qint64 id = qint64(N) - 1; id >= 1; id -= 2)
        QCOMPARE(describe(sm.requestFinished(SM::RequestId(id), t0)), QString());
    QCOMPARE(sm.runningRequests(), int(N / 2));
    QCOMPARE(sm.runningIds().first(), SM::RequestId(2));
    QCOMPARE(sm.runningIds().last(), N);
    QCOMPARE(describe(sm.requestFinished(N + 7, t0)), QString());
    QCOMPARE(describe(sm.requestFinished(3, t0)), QString());   // ended already
    QCOMPARE(sm.runningRequests(), int(N / 2));
    for (SM::RequestId id = 2; id < N; id += 2)
        QCOMPARE(describe(sm.requestFinished(id, t0)), QString());
    QCOMPARE(sm.runningIds(), QList<SM::RequestId>{N});
    QCOMPARE(describe(sm.requestFinished(N, t0)), u"granted bench"_s);   // drained
    QCOMPARE(sm.runningRequests(), 0);
}

void TestHostStateMachine::staticHostNeverWakesUp()
{
    SM sm(u"box"_s, false, u"main"_s, policy(u"batch"_s));
    QCOMPARE(describe(sm.requestArrived(1, u"main"_s, u"box-m"_s, t0)), u"admit 1"_s);
    QCOMPARE(describe(sm.requestArrived(2, u"other"_s, u"box-o"_s, at(1))), u"admit 2"_s);
    QCOMPARE(due(sm), u"-"_s);
}

void TestHostStateMachine::messagesSayWhatAndWho()
{
    SM sm(u"3090"_s, true, {}, policy(u"arrival"_s));
    sm.probed(u"mainline"_s, t0);
    sm.requestArrived(1, u"mainline"_s, u"3090-a"_s, t0);
    const auto switching = sm.requestArrived(2, u"fork"_s, u"3090-flint-40b"_s, t0);
    QVERIFY(switching.isEmpty());
    QVERIFY(sm.waitingFor().contains("switches to engine fork"_L1));
    const auto actions = sm.requestFinished(1, t0);
    QCOMPARE(std::get<SM::Journal>(actions.at(0)).text, u"host 3090: switching to engine fork for 3090-flint-40b"_s);
    EngineFailure exited = EngineFailure::of(EngineFailure::Kind::Ended);
    exited.exit = EngineFailure::Exit{1, false};
    const auto failed = sm.engineStartFailed(u"fork"_s, exited, t0);
    QCOMPARE(std::get<SM::Journal>(failed.at(0)).text, u"host 3090: engine fork failed: exited with code 1"_s);
    // The refusal carries the failure itself, not its words.
    const HostRefusal &why = std::get<SM::Refuse>(failed.at(1)).why;
    QCOMPARE(why.reason, HostRefusal::Reason::SwitchFailed);
    QCOMPARE(why.engine, u"fork"_s);
    QVERIFY(why.failure);
    QCOMPARE(why.failure->kind, EngineFailure::Kind::Ended);
    QCOMPARE(why.failure->exit->code, 1);
    QCOMPARE(sm.lastFailure()->toString(), u"exited with code 1"_s);
    const auto lease = sm.takeLease(u"bench queue"_s, QDateTime(QDate(2026, 10, 24), QTime(23, 0), Qt::UTC), t0);
    Q_UNUSED(lease);
    const auto refused = sm.requestArrived(3, u"fork"_s, u"3090-flint-40b"_s, t0);
    const HostRefusal &leased = std::get<SM::Refuse>(refused.at(0)).why;
    QCOMPARE(leased.status(), 423);
    QCOMPARE(leased.owner, u"bench queue"_s);
    QCOMPARE(leased.until, QDateTime(QDate(2026, 10, 24), QTime(23, 0), Qt::UTC));
}

void TestHostStateMachine::batchingSaysWhatRunsFirst()
{
    SM sm(u"3090"_s, true, {}, policy(u"batch"_s));
    sm.probed(u"mainline"_s, t0);
    sm.requestArrived(1, u"mainline"_s, u"3090-a"_s, t0);
    QVERIFY(sm.requestArrived(2, u"fork"_s, u"3090-flint-40b"_s, t0).isEmpty());
    QCOMPARE(sm.waitFor().phase, SM::Wait::Phase::Batching);
    QCOMPARE(sm.waitingFor(), u"host 3090 finishes the work of engine mainline, then switches"_s);
}

QTEST_GUILESS_MAIN(TestHostStateMachine)
#include "tst_hoststatemachine.moc"
