#pragma once

#include <QHash>
#include <QString>
#include <QtGlobal>

#include <vector>

namespace switchyard {

// How busy each host was over time, for the timeline's activity strips: every finished
// request's start and end, kept as two sorted arrays per host, so the requests active in any
// span are (starts before its end) - (ends before its start), two binary searches. A repaint
// costs O(buckets * log n) however many requests the history holds. Capped per host; the
// oldest go first.
class RequestDensity final
{
public:
    static constexpr int DefaultCapacityPerHost = 200000;

    struct Count
    {
        int requests = 0;   // active at some time in the span
        int errors = 0;     // of those, the ones that failed
    };

    void add(const QString &host, qint64 startMs, qint64 endMs, bool error);
    void clear();
    void setCapacityPerHost(int capacity) { m_capacity = capacity; }

    // Requests active at some time in [fromMs, toMs): started before toMs, not ended by fromMs.
    Count count(const QString &host, qint64 fromMs, qint64 toMs) const;
    qint64 total() const;

private:
    struct Spans
    {
        std::vector<qint64> starts;
        std::vector<qint64> ends;
    };
    struct Lane
    {
        Spans all;
        Spans errors;
    };
    static void insertSorted(std::vector<qint64> &times, qint64 atMs);
    static int active(const Spans &spans, qint64 fromMs, qint64 toMs);
    void add(Spans &spans, qint64 startMs, qint64 endMs) const;

    QHash<QString, Lane> m_lanes;
    int m_capacity = DefaultCapacityPerHost;
};

} // namespace switchyard
