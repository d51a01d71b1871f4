#include "metrics/processmetrics.h"

#include <QDir>
#include <QFile>

#include <unistd.h>

namespace switchyard {

namespace {

// The second field of /proc/self/statm is the resident set, in pages.
qint64 residentBytes()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    bool ok = false;
    const qint64 pages = fields.value(1).toLongLong(&ok);
    return ok ? pages * sysconf(_SC_PAGESIZE) : -1;
}

qint64 openFds()
{
    QDir fds(QStringLiteral("/proc/self/fd"));
    if (!fds.exists())
        return -1;
    // The listing itself holds one descriptor open while it reads.
    return qMax<qint64>(0, fds.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System).size() - 1);
}

} // namespace

void writeProcessMetrics(PrometheusText &out, const QDateTime &startedAt)
{
    using Type = PrometheusText::Type;
    if (const qint64 rss = residentBytes(); rss >= 0) {
        out.family("process_resident_memory_bytes", Type::Gauge, "Resident memory size in bytes.");
        out.sample("process_resident_memory_bytes", {}, double(rss));
    }
    if (const qint64 fds = openFds(); fds >= 0) {
        out.family("process_open_fds", Type::Gauge, "Number of open file descriptors.");
        out.sample("process_open_fds", {}, double(fds));
    }
    out.family("process_start_time_seconds", Type::Gauge, "Start time of the process since the Unix epoch in seconds.");
    out.sample("process_start_time_seconds", {}, double(startedAt.toMSecsSinceEpoch()) / 1000.0);
}

} // namespace switchyard
