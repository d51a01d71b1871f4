// A host's state machine with idle stop, sleep and wake: table tests in the scripts of
// hoststatemachinescript.h.
#include "hoststatemachinescript.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

class TestHostPower : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void power_data();
    void power();
};

// Idle stop, sleep and wake (arrival order; "power" as runScript reads it).
void TestHostPower::power_data()
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

void TestHostPower::power()
{
    QFETCH(QString, power);
    QFETCH(QStringList, steps);
    runScript(u"arrival"_s, steps, power);
}

QTEST_GUILESS_MAIN(TestHostPower)
#include "tst_hostpower.moc"
