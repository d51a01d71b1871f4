// switchyard-switchsim: the host's scheduling policies compared on request traces, in virtual
// time, through the real HostStateMachine (docs/PERFORMANCE.md, "Switching").
#include "report.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace switchyard;
using namespace switchyard::switchsim;
using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Compares a host's scheduling policies on request traces, in virtual time."_s);
    parser.addHelpOption();
    const QCommandLineOption exportFile(u"export"_s, u"The /admin/requests JSON export that trace (d) is made of."_s,
                                        u"file"_s, QStringLiteral(SWITCHSIM_SAMPLE_EXPORT));
    const QCommandLineOption host(u"host"_s, u"The export's host to replay (default: the one with the most requests)."_s,
                                  u"name"_s);
    const QCommandLineOption dwell(u"dwell"_s, u"The batch policy's dwell_s (default: the relay's)."_s, u"seconds"_s);
    const QCommandLineOption maxWait(u"max-wait"_s, u"The batch policy's max_wait_s (default: the relay's)."_s, u"seconds"_s);
    const QCommandLineOption only(u"trace"_s, u"Only this trace (a, b, c or d)."_s, u"key"_s);
    const QCommandLineOption markdown(u"markdown"_s, u"Markdown tables, as in docs/PERFORMANCE.md."_s);
    const QCommandLineOption check(u"check"_s, u"Exit 1 unless the batch policy keeps issue 19's and 31's promises."_s);
    const QCommandLineOption sweepOption(u"sweep"_s, u"Also compare dwell and max_wait values."_s);
    parser.addOptions({exportFile, host, dwell, maxWait, only, markdown, check, sweepOption});
    parser.process(app);

    QTextStream out(stdout);
    QTextStream err(stderr);
    SchedulingConfig batch;
    if (parser.isSet(dwell))
        batch.dwell = std::chrono::milliseconds(qRound64(parser.value(dwell).toDouble() * 1000));
    if (parser.isSet(maxWait))
        batch.maxWait = std::chrono::milliseconds(qRound64(parser.value(maxWait).toDouble() * 1000));

    QList<Trace> traces = syntheticTraces();
    QString error;
    const std::optional<Trace> day = traceFromRequestExport(parser.value(exportFile), &error, parser.value(host));
    if (!day) {
        err << "switchyard-switchsim: " << error << Qt::endl;
        return 2;
    }
    traces.append(*day);
    if (parser.isSet(only)) {
        traces.removeIf([&](const Trace &t) { return t.key != parser.value(only); });
        if (traces.isEmpty()) {
            err << "switchyard-switchsim: no trace " << parser.value(only) << " (a, b, c or d)" << Qt::endl;
            return 2;
        }
    }

    QList<TraceRun> runs;
    for (const Trace &t : std::as_const(traces))
        runs.append(runTrace(t, policies(batch)));
    out << report(runs, batch, parser.isSet(markdown));
    if (parser.isSet(sweepOption)) {
        out << (parser.isSet(markdown) ? u"### dwell and max_wait: switches per hour, and the worst group's p95 wait against strict order's\n\n"_s : u"dwell and max_wait\n"_s)
            << sweep(traces, parser.isSet(markdown));
    }
    if (parser.isSet(check)) {
        const QStringList failures = switchsim::check(runs, batch);
        for (const QString &f : failures)
            err << "FAIL " << f << Qt::endl;
        if (!failures.isEmpty())
            return 1;
        err << "every promise kept" << Qt::endl;
    }
    return 0;
}
