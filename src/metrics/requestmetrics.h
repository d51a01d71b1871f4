#pragma once

#include "metrics/metricfamilies.h"

#include <QString>

namespace switchyard {

struct RequestRecord;

// What a request was for, as a bounded label: chat, messages, responses, completions, models,
// load, unload, other.
QString requestKind(const QString &method, const QString &path);

// "2xx" ... "5xx"; "none" for a request that ended before it had a status.
QString statusClass(int status);

// The counters and histograms of answered requests, fed one RequestRecord per request as the
// journal writes it. Bucket bounds are chosen for LLM traffic (docs/METRICS.md says why).
class RequestMetrics
{
public:
    RequestMetrics();

    // alias: the label for the request's model, bounded by the caller (see RelayMetrics).
    void record(const RequestRecord &request, const QString &alias);
    void write(PrometheusText &out) const;

    const CounterFamily &requests() const { return m_requests; }

private:
    CounterFamily m_requests;
    CounterFamily m_streamedTokens;
    CounterFamily m_promptTokens;
    CounterFamily m_bytesOut;
    HistogramFamily m_firstByte;
    HistogramFamily m_duration;
    HistogramFamily m_tokensPerSecond;
    // Issue #21: the wait before going upstream, and what clients sent.
    HistogramFamily m_waited;
    CounterFamily m_bytesIn;
};

} // namespace switchyard
