#include "journal/activerequests.h"

#include <algorithm>

namespace switchyard {

void ActiveRequests::update(const RequestRecord &record, RequestPhase phase)
{
    if (record.liveId == 0)
        return;
    m_entries.insert(record.liveId, {record, phase});
}

void ActiveRequests::finish(const RequestRecord &record)
{
    m_entries.remove(record.liveId);
}

QList<ActiveRequests::Entry> ActiveRequests::list() const
{
    QList<Entry> out = m_entries.values();
    std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) { return a.record.liveId < b.record.liveId; });
    return out;
}

std::chrono::nanoseconds ActiveRequests::waitedSoFar(const RequestRecord &record,
                                                     std::chrono::steady_clock::time_point now)
{
    if (record.waitingSince == std::chrono::steady_clock::time_point())
        return record.waited;
    return record.waited + std::max(std::chrono::nanoseconds(0), std::chrono::nanoseconds(now - record.waitingSince));
}

} // namespace switchyard
