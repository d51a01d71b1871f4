// The switching simulator on its four traces, with the relay's default batch policy: what issue
// 19 asks of the policy holds (report.h, check()), and the export converter reads the relay's
// own /admin/requests export.
#include "report.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::switchsim;
using namespace Qt::StringLiterals;

class TestSwitchSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void twoAgentsSwitchFourTimesLessAndWaitUnderTheBound();
    void everyTraceKeepsThePromises();
    void everyRowAboveStrictOrderSaysWhy();
    void cachesKeptCutTheRePrefill();
    void theExportBecomesATrace();
    void aBrokenExportIsRefused();

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

void TestSwitchSim::twoAgentsSwitchFourTimesLessAndWaitUnderTheBound()
{
    const TraceRun &a = m_runs.at(0);
    QCOMPARE(a.trace.key, u"a"_s);
    const Result &arrival = a.results.at(0);
    const Result &batch = a.results.at(1);
    QVERIFY2(arrival.switches >= 20, "the trace alternates: strict order switches all the time");
    QVERIFY2(arrival.switches >= 4 * batch.switches,
             qPrintable(u"strict order %1 switches, batch %2"_s.arg(arrival.switches).arg(batch.switches)));
    const double maxWait = SchedulingConfig().maxWait.count() / 1000.0;
    QVERIFY2(batch.longestAdmissionS <= maxWait + 30 + batch.longestRunS,
             qPrintable(u"waited %1 s"_s.arg(batch.longestAdmissionS)));
}

void TestSwitchSim::everyTraceKeepsThePromises()
{
    QCOMPARE(m_runs.size(), 4);
    const QStringList failures = check(m_runs, {});
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
}

// The table itself says why, row by row: a batch row of "two agents alternating" names both
// agents with their p95 against strict order's and a note, and the note is printed under it.
void TestSwitchSim::everyRowAboveStrictOrderSaysWhy()
{
    const QString text = report(m_runs, {}, true);
    QVERIFY2(!text.contains(u"no reason given"_s), qPrintable(text));
    const QStringList lines = text.split(u'\n');
    const auto batchRow = std::find_if(lines.cbegin(), lines.cend(), [](const QString &l) { return l.startsWith(u"| batch |"_s); });
    QVERIFY(batchRow != lines.cend());
    QVERIFY2(batchRow->contains(u"agent A "_s) && batchRow->contains(u"(note 1)"_s), qPrintable(*batchRow));
    QVERIFY(text.contains(u"\nNote 1: both engines busy"_s));
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

QTEST_GUILESS_MAIN(TestSwitchSim)
#include "tst_switchsim.moc"
