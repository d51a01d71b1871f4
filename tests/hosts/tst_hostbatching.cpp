// A host's state machine under the batch policy (dwell 5 s, max_wait 30 s): table tests in the
// scripts of hoststatemachinescript.h.
#include "hoststatemachinescript.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

class TestHostBatching : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void batched_data();
    void batched();
    void batchingSaysWhatRunsFirst();
};

// The batch policy (dwell 5 s, max_wait 30 s). "due => T" checks the machine's next wake-up.
void TestHostBatching::batched_data()
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

void TestHostBatching::batched()
{
    QFETCH(QStringList, steps);
    runScript(u"batch"_s, steps);
}

void TestHostBatching::batchingSaysWhatRunsFirst()
{
    SM sm(u"3090"_s, true, {}, policy(u"batch"_s));
    sm.probed(u"mainline"_s, t0);
    sm.requestArrived(1, u"mainline"_s, u"3090-a"_s, t0);
    QVERIFY(sm.requestArrived(2, u"fork"_s, u"3090-flint-40b"_s, t0).isEmpty());
    QCOMPARE(sm.waitFor().phase, SM::Wait::Phase::Batching);
    QCOMPARE(sm.waitingFor(), u"host 3090 finishes the work of engine mainline, then switches"_s);
}

QTEST_GUILESS_MAIN(TestHostBatching)
#include "tst_hostbatching.moc"
