#include "fakerequestlog.h"

#include "fakehttprequest.h"

#include "common/jsonwriter.h"

#include <algorithm>

namespace switchyard::fake {

qint64 FakeRequestLog::add(const FakeHttpRequest &request, qint64 nowMs)
{
    ReceivedRequest record;
    record.seq = m_nextSeq++;
    record.method = request.method;
    record.path = request.path;
    record.query = request.query;
    record.headers = request.headers;
    record.body = request.body;
    record.receivedAtMs = nowMs;
    m_records.append(record);
    if (m_records.size() > MaxRecords)
        m_records.remove(0, m_records.size() - MaxRecords);
    return record.seq;
}

ReceivedRequest *FakeRequestLog::find(qint64 seq)
{
    return const_cast<ReceivedRequest *>(std::as_const(*this).find(seq));
}

const ReceivedRequest *FakeRequestLog::find(qint64 seq) const
{
    const auto it = std::lower_bound(m_records.cbegin(), m_records.cend(), seq,
                                     [](const ReceivedRequest &r, qint64 s) { return r.seq < s; });
    return it != m_records.cend() && it->seq == seq ? &*it : nullptr;
}

void FakeRequestLog::clear()
{
    m_records.clear();
}

QByteArray FakeRequestLog::toJson(qint64 sinceSeq) const
{
    JsonWriter json;
    json.beginArray();
    for (const ReceivedRequest &r : m_records) {
        if (r.seq <= sinceSeq)
            continue;
        json.beginObject();
        json.key("seq").integer(r.seq);
        json.key("method").string(QString::fromLatin1(r.method));
        json.key("path").string(QString::fromUtf8(r.path));
        json.key("query").string(QString::fromUtf8(r.query));
        json.key("headers").beginObject();
        for (const auto &[name, value] : r.headers)
            json.key(QString::fromLatin1(name.toLower())).string(QString::fromUtf8(value));
        json.endObject();
        json.key("body").string(QString::fromUtf8(r.body));
        json.key("received_at_ms").integer(r.receivedAtMs);
        json.key("finished_at_ms").integer(r.finishedAtMs);
        json.key("cancelled_at_ms").integer(r.cancelledAtMs);
        json.key("status").integer(r.status);
        json.key("tokens_sent").integer(r.tokensSent);
        json.endObject();
    }
    json.endArray();
    return json.take();
}

} // namespace switchyard::fake
