#pragma once

#include "journal/requestrecord.h"

#include <QHash>
#include <QList>

namespace switchyard {

// The requests the relay serves now, as its progress reports tell (Relay::requestProgress and
// requestFinished): what `GET /admin/requests?state=active` lists. Kept by liveId; a finished
// request leaves.
class ActiveRequests
{
public:
    struct Entry
    {
        RequestRecord record;
        RequestPhase phase = RequestPhase::Arrived;
    };

    void update(const RequestRecord &record, RequestPhase phase);
    void finish(const RequestRecord &record);
    // Oldest first.
    QList<Entry> list() const;
    int size() const { return int(m_entries.size()); }

    // How long it has waited so far: the waits it is done with and the one it is in.
    static std::chrono::nanoseconds waitedSoFar(const RequestRecord &record,
                                                std::chrono::steady_clock::time_point now);

private:
    QHash<quint64, Entry> m_entries;
};

} // namespace switchyard
