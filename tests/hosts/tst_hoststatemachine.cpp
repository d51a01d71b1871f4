// Table tests for every transition of a host's state machine in strict arrival order: each row is a
// little script of inputs, and the actions and state each input must produce
// (hoststatemachinescript.h). Power is in tst_hostpower, the batch policy in tst_hostbatching.
#include "hoststatemachinescript.h"

#include "hosts/recordedfacts.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

class TestHostStateMachine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void transitions_data();
    void transitions();
    void staticHostNeverSwitches();
    void manyRunningFinishInAnyOrder();
    void staticHostNeverWakesUp();
    void messagesSayWhatAndWho();
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
    runScript(u"arrival"_s, steps);
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
    // The history keeps the failure's facts beside its words, for the window to word.
    const std::optional<EngineFailure> recorded
        = RecordedFacts::engineFailure(std::get<SM::Journal>(failed.at(0)).event->facts);
    QVERIFY(recorded);
    QCOMPARE(recorded->kind, EngineFailure::Kind::Ended);
    QCOMPARE(recorded->exit->code, 1);
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

QTEST_GUILESS_MAIN(TestHostStateMachine)
#include "tst_hoststatemachine.moc"
