#include "models/inflightcounter.h"

namespace switchyard {

InFlightCounter::InFlightCounter(QObject *parent)
    : QObject(parent)
{
}

qint64 InFlightCounter::keyOf(const RequestRecord &record)
{
    return qint64(record.startedSteady.time_since_epoch().count());
}

void InFlightCounter::started(const RequestRecord &record)
{
    m_started.insert(keyOf(record), {record.host, record.startedAt.toMSecsSinceEpoch()});
    ++m_perHost[record.host];
    emit changed();
}

void InFlightCounter::finished(const RequestRecord &record)
{
    // Refusals and the relay's own answers finish without having started: not ours to count.
    const auto it = m_started.find(keyOf(record));
    if (it == m_started.end())
        return;
    const QString host = it->host;
    m_started.erase(it);
    if (--m_perHost[host] <= 0)
        m_perHost.remove(host);
    emit changed();
}

} // namespace switchyard

namespace switchyard {

int InFlightCounter::startedBefore(const QString &host, qint64 ms) const
{
    // A handful to a few hundred entries: a scan is cheaper than keeping an index.
    int n = 0;
    for (const Running &r : m_started) {
        if (r.host == host && r.startedMs < ms)
            ++n;
    }
    return n;
}

} // namespace switchyard
