#include "timeline/requestdensity.h"

#include <algorithm>

namespace switchyard {

void RequestDensity::add(const QString &host, qint64 startMs, qint64 endMs, bool error)
{
    endMs = std::max(endMs, startMs + 1);   // even an instant answer was there for a moment
    Lane &lane = m_lanes[host];
    add(lane.all, startMs, endMs);
    if (error)
        add(lane.errors, startMs, endMs);
}

void RequestDensity::add(Spans &spans, qint64 startMs, qint64 endMs) const
{
    insertSorted(spans.starts, startMs);
    insertSorted(spans.ends, endMs);
    if (int(spans.starts.size()) <= m_capacity)
        return;
    // Drop a tenth at once, so a full lane does not shift on every request. Dropping the
    // earliest starts and the earliest ends keeps every count after them right.
    const auto drop = qsizetype(spans.starts.size()) - m_capacity + m_capacity / 10;
    spans.starts.erase(spans.starts.begin(), spans.starts.begin() + drop);
    spans.ends.erase(spans.ends.begin(), spans.ends.begin() + drop);
}

void RequestDensity::clear()
{
    m_lanes.clear();
}

void RequestDensity::insertSorted(std::vector<qint64> &times, qint64 atMs)
{
    // Almost always the newest: append; a late one finds its place.
    if (times.empty() || times.back() <= atMs)
        times.push_back(atMs);
    else
        times.insert(std::upper_bound(times.begin(), times.end(), atMs), atMs);
}

int RequestDensity::active(const Spans &spans, qint64 fromMs, qint64 toMs)
{
    if (toMs <= fromMs)
        return 0;
    const auto startedBefore = std::lower_bound(spans.starts.begin(), spans.starts.end(), toMs) - spans.starts.begin();
    const auto endedBy = std::upper_bound(spans.ends.begin(), spans.ends.end(), fromMs) - spans.ends.begin();
    return int(std::max<qsizetype>(0, startedBefore - endedBy));
}

RequestDensity::Count RequestDensity::count(const QString &host, qint64 fromMs, qint64 toMs) const
{
    const auto it = m_lanes.constFind(host);
    if (it == m_lanes.constEnd())
        return {};
    return {active(it->all, fromMs, toMs), active(it->errors, fromMs, toMs)};
}

qint64 RequestDensity::total() const
{
    qint64 n = 0;
    for (const Lane &lane : m_lanes)
        n += qint64(lane.all.starts.size());
    return n;
}

} // namespace switchyard
