// The switching simulator on its four traces, with the relay's default batch policy: what issues
// 19 and 31 ask of the policy hold (report.h, check()), and the export converter reads the
// relay's own /admin/requests export.
#include "report.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QJsonObject>
#include <QJsonDocument>
#include <QJsonArray>
#include <QTest>

using namespace switchyard;
using namespace switchyard::switchsim;
using namespace Qt::StringLiterals;

class TestSwitchSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void twoAgentsSwitchFourTimesLessWithLongHolds();
    void defaultsBoundEveryWait();
    void sideCallsWaitAtMostTheirOwnBound();
    void everyTraceKeepsThePromises();
    void everyRowAboveStrictOrderSaysWhy();
    void cachesKeptCutTheRePrefill();
    void theExportBecomesATrace();
    void aBrokenExportIsRefused();
    void exportedSideCallsWaitAsSideCalls();

private:
    QList<TraceRun> m_runs;
};

void TestSwitchSim::initTestCase()
{
    QList<Trace> traces = syntheticTraces();
    QString error;
    const std::optional<Trace> day = traceFromRequestExport(QStringLiteral(SWITCHSIM_SAMPLE_EXPORT), &error);
    QVERIFY2(day, qPrintable(error));
    traces.append(*day);
    for (const Trace &t : std::as_const(traces))
        m_runs.append(runTrace(t, policies({})));
    qInfo().noquote() << u'\n' + report(m_runs, {}, false);
}

// Two agents keeping both engines busy: fewer switches need long holds. With max_wait_s 480 (the
// default before issue 31) the batch policy switches at least 4x less than strict order, and
// nobody waits longer than that bound plus one drain and one switch.
void TestSwitchSim::twoAgentsSwitchFourTimesLessWithLongHolds()
{
    SchedulingConfig longHolds;
    longHolds.maxWait = std::chrono::seconds(480);
    const TraceRun a = runTrace(syntheticTraces().at(0), policies(longHolds));
    QCOMPARE(a.trace.key, u"a"_s);
    const Result &arrival = a.results.at(0);
    const Result &batch = a.results.at(1);
    QVERIFY2(arrival.switches >= 20, "the trace alternates: strict order switches all the time");
    QVERIFY2(arrival.switches >= 4 * batch.switches,
             qPrintable(u"strict order %1 switches, batch %2"_s.arg(arrival.switches).arg(batch.switches)));
    QVERIFY2(batch.longestAdmissionS <= 480 + 30 + batch.longestRunS,
             qPrintable(u"waited %1 s"_s.arg(batch.longestAdmissionS)));
}

// Issue 31: with the defaults no turn waits minutes for a switch: at most max_wait_s (90 s or
// less) plus one drain and one switch, on every trace; and the batch policy still switches less
// than strict order where both engines are busy.
void TestSwitchSim::defaultsBoundEveryWait()
{
    const SchedulingConfig defaults;
    QVERIFY(defaults.maxWait <= std::chrono::seconds(90));
    QVERIFY(defaults.sideCallMaxWait <= std::chrono::seconds(30));
    for (const TraceRun &run : std::as_const(m_runs)) {
        const Result &batch = run.results.at(1);
        double slowestSwitch = 0;
        for (double s : run.trace.switchS)
            slowestSwitch = std::max(slowestSwitch, s);
        const double bound = defaults.maxWait.count() / 1000.0 + batch.longestRunS + slowestSwitch;
        QVERIFY2(batch.longestAdmissionS <= bound, qPrintable(u"trace %1: a request waited %2 s, bound %3 s"_s
                                                                 .arg(run.trace.key).arg(batch.longestAdmissionS).arg(bound)));
    }
    const TraceRun &a = m_runs.at(0);
    QVERIFY2(a.results.at(1).switches < a.results.at(0).switches,
             qPrintable(u"strict order %1 switches, batch %2"_s.arg(a.results.at(0).switches).arg(a.results.at(1).switches)));
}

// Trace "b": title and summary calls for a small engine beside an agent's turns. They wait for
// the agent's engine at most side_call_max_wait_s (then a drain and the small engine's start),
// not max_wait_s.
void TestSwitchSim::sideCallsWaitAtMostTheirOwnBound()
{
    const TraceRun &b = m_runs.at(1);
    QCOMPARE(b.trace.key, u"b"_s);
    const SchedulingConfig defaults;
    for (qsizetype i = 1; i < b.results.size(); ++i) {
        const Result &r = b.results.at(i);
        QVERIFY(r.waits.contains(u"side calls"_s));
        const double max = r.waits.value(u"side calls"_s).max;
        const double bound = defaults.sideCallMaxWait.count() / 1000.0 + r.longestRunS + b.trace.switchS.value(u"small"_s)
            + 1;   // its own small prefill
        QVERIFY2(max <= bound, qPrintable(u"%1: a side call waited %2 s, bound %3 s"_s.arg(b.policies.at(i).name).arg(max).arg(bound)));
    }
}

void TestSwitchSim::everyTraceKeepsThePromises()
{
    QCOMPARE(m_runs.size(), 4);
    const QStringList failures = check(m_runs, {});
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
}

// The table itself says why, row by row: the batch row of "one agent plus side requests" names
// the side calls with their p95 against strict order's and a note, and the note is printed under
// it; a row with nothing above strict order's says "none".
void TestSwitchSim::everyRowAboveStrictOrderSaysWhy()
{
    const QString text = report(m_runs, {}, true);
    QVERIFY2(!text.contains(u"no reason given"_s), qPrintable(text));
    const QStringList lines = text.split(u'\n');
    const QStringList batchRows = lines.filter(QRegularExpression(u"^\\| batch \\|"_s));
    QCOMPARE(batchRows.size(), 4);   // one per trace
    QVERIFY2(batchRows.at(1).contains(u"side calls "_s) && batchRows.at(1).contains(u"(note 1)"_s), qPrintable(batchRows.at(1)));
    QVERIFY(text.contains(u"\nNote 1: a side call waits until the agent's engine has been idle"_s));
    QVERIFY2(batchRows.at(0).endsWith(u"| none |"_s), qPrintable(batchRows.at(0)));
    // Strict order's row is the baseline, and a row with nothing above it says so.
    QVERIFY(text.contains(u"| arrival order |"_s));
    QVERIFY(!lines.filter(u"| arrival order |"_s).first().contains(u"note"_s));
}

void TestSwitchSim::cachesKeptCutTheRePrefill()
{
    for (const TraceRun &run : std::as_const(m_runs)) {
        const Result &batch = run.results.at(1);
        const Result &kept = run.results.at(2);
        QVERIFY2(kept.reprefillS <= batch.reprefillS, qPrintable(run.trace.key));
    }
    QVERIFY(m_runs.at(0).results.at(0).reprefillS > 10 * m_runs.at(0).results.at(2).reprefillS);
}

void TestSwitchSim::theExportBecomesATrace()
{
    const Trace &day = m_runs.at(3).trace;
    QCOMPARE(day.key, u"d"_s);
    QVERIFY(day.agents.size() >= 3);
    QVERIFY(day.switchS.size() >= 2);
    int turns = 0;
    for (const Agent &a : day.agents) {
        turns += int(a.turns.size());
        for (const Turn &t : a.turns)
            QVERIFY(t.prefillS >= 0 && t.genS >= 0 && t.thinkS >= 0);
    }
    QVERIFY(turns >= 100);
    // Every request of the export's host is replayed once.
    int replayed = 0;
    for (const Waits &w : m_runs.at(3).results.at(0).waits)
        replayed += w.turns;
    QCOMPARE(replayed, turns);
}

void TestSwitchSim::aBrokenExportIsRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY(!traceFromRequestExport(dir.filePath(u"missing.json"_s), &error));
    QVERIFY2(error.contains(u"missing.json"_s), qPrintable(error));
    QFile file(dir.filePath(u"object.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"requests": []})");
    file.close();
    QVERIFY(!traceFromRequestExport(file.fileName(), &error));
    QVERIFY2(error.contains(u"expected the JSON array of GET /admin/requests"_s), qPrintable(error));
}

// A client's side calls in the export (its records' "side_call") replay as side calls, apart
// from its turns: they wait at most side_call_max_wait_s, and the table has a row group for them.
void TestSwitchSim::exportedSideCallsWaitAsSideCalls()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QJsonArray rows;
    auto record = [&rows](int atS, const QString &engine, bool sideCall) {
        rows.append(QJsonObject{{"started_at"_L1, QDateTime(QDate(2026, 12, 1), QTime(10, 0)).addSecs(atS).toString(Qt::ISODateWithMs)},
                                {"host"_L1, u"box"_s}, {"engine"_L1, engine}, {"duration_ms"_L1, 4000.0}, {"ttfb_ms"_L1, 500.0},
                                {"client"_L1, u"127.0.0.1"_s}, {"client_app"_L1, u"opencode"_s}, {"side_call"_L1, sideCall}});
    };
    for (int i = 0; i < 20; ++i)
        record(i * 10, u"ea"_s, false);
    for (int i = 0; i < 5; ++i)
        record(15 + i * 40, u"eb"_s, true);
    QFile file(dir.filePath(u"export.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(rows).toJson());
    file.close();
    QString error;
    const std::optional<Trace> t = traceFromRequestExport(file.fileName(), &error);
    QVERIFY2(t, qPrintable(error));
    QCOMPARE(t->agents.size(), 2);
    const auto sideCalls = std::find_if(t->agents.cbegin(), t->agents.cend(), [](const Agent &a) { return a.sideCalls; });
    QVERIFY(sideCalls != t->agents.cend());
    QCOMPARE(sideCalls->name, u"127.0.0.1 opencode side calls"_s);
    QCOMPARE(sideCalls->turns.size(), 5);
    const Result batch = simulate(*t, policies({}).at(1));
    const Waits side = batch.waits.value(sideCalls->name);
    QCOMPARE(side.turns, 5);
    const SchedulingConfig defaults;
    QVERIFY2(side.max <= defaults.sideCallMaxWait.count() / 1000.0 + batch.longestRunS + t->switchS.value(u"eb"_s)
                 + t->switchS.value(u"ea"_s),
             qPrintable(QString::number(side.max)));
}

QTEST_GUILESS_MAIN(TestSwitchSim)
#include "tst_switchsim.moc"
