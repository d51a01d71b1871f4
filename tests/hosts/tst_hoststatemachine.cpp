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
            parts << u"refuse %1 %2"_s.arg(p->id).arg(p->status);
        else if (auto p = std::get_if<SM::StartEngine>(&a))
            parts << u"start %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::StopEngine>(&a))
            parts << u"stop %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::LeaseGranted>(&a))
            parts << u"granted %1"_s.arg(p->owner);
        else if (std::get_if<SM::Journal>(&a))
            parts << u"journal"_s;
    }
    return parts.join(u", "_s);
}

// "arrive ID ENGINE", "finish ID", "started E", "failed E", "stopped E", "probe E|-", "lease OWNER", "release"
SM::Actions apply(SM &sm, const QString &step)
{
    const QStringList w = step.split(u' ');
    const QString &verb = w.at(0);
    if (verb == "arrive"_L1)
        return sm.requestArrived(w.at(1).toULongLong(), w.at(2), u"h-"_s + w.at(2));
    if (verb == "finish"_L1)
        return sm.requestFinished(w.at(1).toULongLong());
    if (verb == "started"_L1)
        return sm.engineStarted(w.at(1));
    if (verb == "failed"_L1)
        return sm.engineStartFailed(w.at(1), u"no /health"_s);
    if (verb == "stopped"_L1)
        return sm.engineStopped(w.at(1));
    if (verb == "probe"_L1)
        return sm.probed(w.at(1) == "-"_L1 ? QString() : w.at(1));
    if (verb == "lease"_L1)
        return sm.takeLease(w.at(1), QDateTime::fromSecsSinceEpoch(2000000000, Qt::UTC));
    if (verb == "release"_L1)
        return sm.releaseLease();
    qFatal("unknown step %s", qPrintable(step));
}

} // namespace

class TestHostStateMachine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void transitions_data();
    void transitions();
    void staticHostNeverSwitches();
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
        u"release => journal => unknown"_s,
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

void TestHostStateMachine::transitions()
{
    QFETCH(QStringList, steps);
    SM sm(u"h"_s, true);
    for (const QString &line : steps) {
        QStringList parts = line.split(u"=>"_s);
        QCOMPARE(parts.size(), 3);
        for (QString &p : parts)
            p = p.trimmed();
        const QString got = describe(apply(sm, parts.at(0)));
        QVERIFY2(got == parts.at(1).trimmed(),
                 qPrintable(u"after '%1': actions '%2', expected '%3'"_s.arg(parts.at(0), got, parts.at(1))));
        QVERIFY2(SM::stateName(sm.state()) == parts.at(2).trimmed(),
                 qPrintable(u"after '%1': state %2, expected %3"_s.arg(parts.at(0), SM::stateName(sm.state()), parts.at(2))));
    }
}

void TestHostStateMachine::staticHostNeverSwitches()
{
    SM sm(u"box"_s, false, u"main"_s);
    QCOMPARE(sm.state(), SM::State::Serving);
    QCOMPARE(describe(sm.requestArrived(1, u"main"_s, u"box-m"_s)), u"admit 1"_s);
    QCOMPARE(describe(sm.takeLease(u"bench"_s, QDateTime::currentDateTimeUtc().addSecs(60))), u"journal"_s);
    QCOMPARE(describe(sm.requestFinished(1)), u"granted bench"_s);   // drained; nothing to stop
    QCOMPARE(describe(sm.requestArrived(2, u"main"_s, u"box-m"_s)), u"refuse 2 423"_s);
    QCOMPARE(describe(sm.releaseLease()), u"journal"_s);
    QCOMPARE(describe(sm.requestArrived(3, u"main"_s, u"box-m"_s)), u"admit 3"_s);
}

void TestHostStateMachine::messagesSayWhatAndWho()
{
    SM sm(u"3090"_s, true);
    sm.probed(u"mainline"_s);
    sm.requestArrived(1, u"mainline"_s, u"3090-a"_s);
    const auto switching = sm.requestArrived(2, u"fork"_s, u"3090-flint-40b"_s);
    QVERIFY(switching.isEmpty());
    QVERIFY(sm.waitingFor().contains("switches to engine fork"_L1));
    const auto actions = sm.requestFinished(1);
    QCOMPARE(std::get<SM::Journal>(actions.at(0)).text, u"host 3090: switching to engine fork for 3090-flint-40b"_s);
    const auto failed = sm.engineStartFailed(u"fork"_s, u"exited with code 1"_s);
    QCOMPARE(std::get<SM::Journal>(failed.at(0)).text, u"host 3090: engine fork failed: exited with code 1"_s);
    QVERIFY(std::get<SM::Refuse>(failed.at(1)).message.contains("exited with code 1"_L1));
    const auto lease = sm.takeLease(u"bench queue"_s, QDateTime(QDate(2026, 10, 24), QTime(23, 0), Qt::UTC));
    Q_UNUSED(lease);
    const auto refused = sm.requestArrived(3, u"fork"_s, u"3090-flint-40b"_s);
    const QString message = std::get<SM::Refuse>(refused.at(0)).message;
    QVERIFY2(message.contains("bench queue"_L1) && message.contains("2026-10-24T23:00:00Z"_L1), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestHostStateMachine)
#include "tst_hoststatemachine.moc"
