#include "metrics/metricfamilies.h"

#include <algorithm>

namespace switchyard {

MetricLabels zipLabels(const QList<QByteArray> &names, const QStringList &values)
{
    MetricLabels labels;
    for (qsizetype i = 0; i < names.size(); ++i)
        labels.append({names[i], values.value(i)});
    return labels;
}

CounterFamily::CounterFamily(QByteArray name, QByteArray help, QList<QByteArray> labelNames)
    : m_name(std::move(name)), m_help(std::move(help)), m_labelNames(std::move(labelNames))
{
}

void CounterFamily::add(const QStringList &labelValues, double by)
{
    m_series[labelValues] += by;
}

void CounterFamily::write(PrometheusText &out) const
{
    out.family(m_name, PrometheusText::Type::Counter, m_help);
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it)
        out.sample(m_name, zipLabels(m_labelNames, it.key()), it.value());
}

HistogramFamily::HistogramFamily(QByteArray name, QByteArray help, QList<QByteArray> labelNames, QList<double> bounds)
    : m_name(std::move(name)), m_help(std::move(help)), m_labelNames(std::move(labelNames)), m_bounds(std::move(bounds))
{
    std::sort(m_bounds.begin(), m_bounds.end());
}

void HistogramFamily::observe(const QStringList &labelValues, double value)
{
    Series &series = m_series[labelValues];
    if (series.buckets.isEmpty())
        series.buckets.fill(0, m_bounds.size());
    const auto bound = std::lower_bound(m_bounds.cbegin(), m_bounds.cend(), value);
    if (bound != m_bounds.cend())
        ++series.buckets[bound - m_bounds.cbegin()];
    ++series.count;
    series.sum += value;
}

void HistogramFamily::write(PrometheusText &out) const
{
    out.family(m_name, PrometheusText::Type::Histogram, m_help);
    const QByteArray bucket = m_name + "_bucket";
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        const MetricLabels labels = zipLabels(m_labelNames, it.key());
        quint64 cumulative = 0;
        for (qsizetype i = 0; i < m_bounds.size(); ++i) {
            cumulative += it->buckets[i];
            out.sample(bucket, labels + MetricLabels{{"le", QString::fromLatin1(PrometheusText::number(m_bounds[i]))}},
                       double(cumulative));
        }
        out.sample(bucket, labels + MetricLabels{{"le", QStringLiteral("+Inf")}}, double(it->count));
        out.sample(m_name + "_sum", labels, it->sum);
        out.sample(m_name + "_count", labels, double(it->count));
    }
}

} // namespace switchyard
