#pragma once

#include "receivedrequest.h"

#include <QList>

namespace switchyard::fake {

struct FakeHttpRequest;

// Every request the fake received, for tests to assert on. Keeps the last
// MaxRecords, so a long --demo run does not grow without bound.
class FakeRequestLog final
{
    Q_DISABLE_COPY_MOVE(FakeRequestLog)

public:
    static constexpr qsizetype MaxRecords = 10000;

    FakeRequestLog() = default;

    qint64 add(const FakeHttpRequest &request, qint64 nowMs);
    ReceivedRequest *find(qint64 seq); // nullptr once cleared
    const ReceivedRequest *find(qint64 seq) const;
    const QList<ReceivedRequest> &all() const { return m_records; }
    void clear(); // sequence numbers keep counting

    // GET /__fake/requests: a JSON array of the records with seq > sinceSeq.
    QByteArray toJson(qint64 sinceSeq = 0) const;

private:
    QList<ReceivedRequest> m_records; // ascending seq
    qint64 m_nextSeq = 1;
};

} // namespace switchyard::fake
