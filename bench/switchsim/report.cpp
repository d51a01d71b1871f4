#include "report.h"

#include <QtGlobal>

#include <algorithm>

namespace switchyard::switchsim {

using namespace Qt::StringLiterals;

namespace {

QString secs(double s)
{
    return s < 10 ? QString::number(s, 'f', 1) : QString::number(qRound64(s));
}

QString percent(double share)
{
    return QString::number(share * 100, 'f', 1) + u" %"_s;
}

QString seconds(const SchedulingConfig &s)
{
    return u"dwell %1 s, max wait %2 s, side calls %3 s"_s.arg(s.dwell.count() / 1000.0).arg(s.maxWait.count() / 1000.0)
        .arg(s.sideCallMaxWait.count() / 1000.0);
}

// Rows of cells, as a markdown table or padded text columns.
QString table(const QList<QStringList> &rows, bool markdown)
{
    QString out;
    if (markdown) {
        for (qsizetype i = 0; i < rows.size(); ++i) {
            out += u"| "_s + rows.at(i).join(u" | "_s) + u" |\n"_s;
            if (i == 0)
                out += u"|"_s + QString(u"---|"_s).repeated(rows.at(0).size()) + u"\n"_s;
        }
        return out;
    }
    QList<qsizetype> width(rows.value(0).size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], row.at(c).size());
    }
    for (const QStringList &row : rows) {
        QStringList cells;
        for (qsizetype c = 0; c < row.size(); ++c)
            cells << row.at(c).leftJustified(width.value(c));
        out += cells.join(u"  "_s).trimmed() + u'\n';
    }
    return out;
}

// The rule: a p95 wait more than 25 % above strict order's needs a reason (50 ms of
// slack, so that a wait of nothing against nothing is not "above").
bool p95Above(double p95, double strictP95)
{
    return p95 > 1.25 * strictP95 + 0.05;
}

double maxSwitch(const Trace &t)
{
    double m = 0;
    for (double s : t.switchS)
        m = std::max(m, s);
    return m;
}

} // namespace

QList<Policy> policies(const SchedulingConfig &batch)
{
    SchedulingConfig arrival;
    arrival.policy = SchedulingConfig::Policy::Arrival;
    SchedulingConfig b = batch;
    b.policy = SchedulingConfig::Policy::Batch;
    return {{u"arrival order"_s, arrival, false}, {u"batch"_s, b, false}, {u"batch + caches kept"_s, b, true}};
}

TraceRun runTrace(const Trace &trace, const QList<Policy> &policies)
{
    TraceRun run{trace, policies, {}};
    for (const Policy &p : policies)
        run.results.append(simulate(trace, p));
    return run;
}

QString report(const QList<TraceRun> &runs, const SchedulingConfig &batch, bool markdown)
{
    QString out;
    for (const TraceRun &run : runs) {
        const Trace &t = run.trace;
        QStringList engines;
        for (auto it = t.switchS.cbegin(); it != t.switchS.cend(); ++it)
            engines << u"%1 %2 s"_s.arg(it.key(), secs(it.value()));
        engines.sort();
        out += markdown ? u"### (%1) %2\n\n"_s.arg(t.key, t.title) : u"(%1) %2\n"_s.arg(t.key, t.title);
        out += u"%1 agents; switch: %2; restore of a kept cache %3 s; batch: %4.\n\n"_s
                   .arg(t.agents.size()).arg(engines.join(u", "_s), secs(t.restoreS), seconds(batch));
        QStringList groups = run.results.value(0).waits.keys();
        QList<QStringList> rows;
        QStringList head{u"policy"_s, u"switches/h"_s, u"switching"_s, u"re-prefill"_s, u"longest admission (s)"_s};
        for (const QString &g : groups)
            head << u"%1: wait p50 / p95 / max (s), turns/h"_s.arg(g);
        head << u"p95 wait more than 25 % above strict order's (why: note)"_s;
        rows << head;
        // Each reason once per trace, numbered in the order the rows first need it.
        QStringList notes;
        const Result &arrival = run.results.at(0);
        for (qsizetype i = 0; i < run.policies.size(); ++i) {
            const Result &r = run.results.at(i);
            QStringList row{run.policies.at(i).name, QString::number(r.switchesPerHour(), 'f', 1),
                            percent(r.switchingShare()), percent(r.reprefillShare()), secs(r.longestAdmissionS)};
            QStringList above;
            for (const QString &g : groups) {
                const Waits w = r.waits.value(g);
                row << u"%1 / %2 / %3, %4"_s.arg(secs(w.p50), secs(w.p95), secs(w.max), secs(w.turnsPerHour));
                const double base = arrival.waits.value(g).p95;
                if (i == 0 || !p95Above(w.p95, base))
                    continue;
                const QString why = t.why.value(g, t.why.value(u"*"_s));
                QString mark = u"no reason given"_s;
                if (!why.isEmpty()) {
                    if (!notes.contains(why))
                        notes << why;
                    mark = u"note %1"_s.arg(notes.indexOf(why) + 1);
                }
                const QString ratio = base > 0 ? u"%1x"_s.arg(w.p95 / base, 0, 'f', 2) : u"from 0 s"_s;
                above << (groups.size() > 1 ? u"%1 %2 (%3)"_s.arg(g, ratio, mark) : u"%1 (%2)"_s.arg(ratio, mark));
            }
            row << (i == 0 ? u"–"_s : above.isEmpty() ? u"none"_s : above.join(u"; "_s));
            rows << row;
        }
        out += table(rows, markdown);
        for (qsizetype n = 0; n < notes.size(); ++n)
            out += u"\nNote %1: %2.\n"_s.arg(n + 1).arg(notes.at(n));
        out += u"\n"_s;
    }
    return out;
}

QStringList check(const QList<TraceRun> &runs, const SchedulingConfig &batch)
{
    QStringList failures;
    const double maxWait = batch.maxWait.count() / 1000.0;
    for (const TraceRun &run : runs) {
        const Result &arrival = run.results.at(0);
        for (qsizetype i = 1; i < run.policies.size(); ++i) {
            const Result &r = run.results.at(i);
            const QString where = u"trace %1, %2"_s.arg(run.trace.key, run.policies.at(i).name);
            if (r.refused)
                failures << u"%1: %2 requests refused"_s.arg(where).arg(r.refused);
            // The bound: max_wait, or the switch already under way when the request came (a drain
            // and a start), whichever is longer; then one drain and one switch. On "a" the tight
            // one: max_wait, one drain, one switch.
            const double drainAndSwitch = r.longestRunS + maxSwitch(run.trace);
            const double bound = (run.trace.key == u"a" ? maxWait : std::max(maxWait, drainAndSwitch)) + drainAndSwitch;
            if (r.longestAdmissionS > bound)
                failures << u"%1: a request waited %2 s for its admission, above the bound (%3 s)"_s
                                .arg(where, secs(r.longestAdmissionS), secs(bound));
            for (auto it = r.waits.cbegin(); it != r.waits.cend(); ++it) {
                const double base = arrival.waits.value(it.key()).p95;
                const bool said = run.trace.why.contains(it.key()) || run.trace.why.contains(u"*"_s);
                if (p95Above(it.value().p95, base) && !said)
                    failures << u"%1: %2's p95 wait %3 s is more than 25 % above strict order's %4 s"_s
                                    .arg(where, it.key(), secs(it.value().p95), secs(base));
            }
        }
    }
    return failures;
}

QString sweep(const QList<Trace> &traces, bool markdown)
{
    QList<QStringList> rows;
    QStringList head{u"dwell s"_s, u"max wait s"_s};
    for (const Trace &t : traces)
        head << u"(%1) switches/h"_s.arg(t.key) << u"(%1) p95 vs strict"_s.arg(t.key);
    rows << head;
    QList<Result> arrival;
    for (const Trace &t : traces)
        arrival << simulate(t, policies({}).at(0));
    for (int dwell : {0, 5, 10, 15, 20, 30}) {
        for (int maxWait : {60, 120, 240, 300, 420, 480, 600}) {
            SchedulingConfig s;
            s.dwell = std::chrono::seconds(dwell);
            s.maxWait = std::chrono::seconds(maxWait);
            QStringList row{QString::number(dwell), QString::number(maxWait)};
            for (qsizetype i = 0; i < traces.size(); ++i) {
                const Result r = simulate(traces.at(i), policies(s).at(1));
                double worst = 0;
                for (auto it = r.waits.cbegin(); it != r.waits.cend(); ++it) {
                    const double base = arrival.at(i).waits.value(it.key()).p95;
                    if (base > 0)
                        worst = std::max(worst, it.value().p95 / base);
                }
                row << QString::number(r.switchesPerHour(), 'f', 1) << u"%1x"_s.arg(worst, 0, 'f', 2);
            }
            rows << row;
        }
    }
    return table(rows, markdown);
}

} // namespace switchyard::switchsim
