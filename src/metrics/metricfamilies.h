#pragma once

#include "metrics/prometheustext.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QStringList>

namespace switchyard {

// A counter with one series per distinct tuple of label values (the values come in the order
// of the names given here). Bounded label values are the caller's promise.
class CounterFamily
{
public:
    CounterFamily(QByteArray name, QByteArray help, QList<QByteArray> labelNames);

    void add(const QStringList &labelValues, double by = 1);
    double value(const QStringList &labelValues) const { return m_series.value(labelValues); }
    void write(PrometheusText &out) const;

private:
    QByteArray m_name;
    QByteArray m_help;
    QList<QByteArray> m_labelNames;
    QMap<QStringList, double> m_series;   // sorted: the output is the same for the same counts
};

// A histogram with fixed upper bounds (+Inf is added), one series per tuple of label values.
class HistogramFamily
{
public:
    HistogramFamily(QByteArray name, QByteArray help, QList<QByteArray> labelNames, QList<double> bounds);

    void observe(const QStringList &labelValues, double value);
    void write(PrometheusText &out) const;

private:
    struct Series
    {
        QList<quint64> buckets;   // per bound, not cumulative
        quint64 count = 0;
        double sum = 0;
    };

    QByteArray m_name;
    QByteArray m_help;
    QList<QByteArray> m_labelNames;
    QList<double> m_bounds;
    QMap<QStringList, Series> m_series;
};

MetricLabels zipLabels(const QList<QByteArray> &names, const QStringList &values);

} // namespace switchyard
