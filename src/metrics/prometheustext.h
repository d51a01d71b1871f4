#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace switchyard {

// Label names and values of one sample, in the order they are written.
using MetricLabels = QList<QPair<QByteArray, QString>>;

// Writes the Prometheus text exposition format 0.0.4: a family's HELP and TYPE lines, then its
// samples. Values are escaped as the format says (backslash, double quote, newline); numbers are
// written so that Prometheus reads them back exactly (+Inf, NaN, shortest round trip).
class PrometheusText
{
public:
    enum class Type { Counter, Gauge, Histogram };

    void family(const QByteArray &name, Type type, const QByteArray &help);
    void sample(const QByteArray &name, const MetricLabels &labels, double value);

    static QByteArray number(double value);
    static QByteArray escapeLabelValue(const QString &value);

    QByteArray text() const { return m_text; }

private:
    QByteArray m_text;
};

} // namespace switchyard
