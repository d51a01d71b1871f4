#include "metrics/prometheustext.h"

#include <QLocale>

#include <cmath>

namespace switchyard {

void PrometheusText::family(const QByteArray &name, Type type, const QByteArray &help)
{
    static const char *const types[] = {"counter", "gauge", "histogram"};
    QByteArray escapedHelp = help;
    escapedHelp.replace('\\', "\\\\").replace('\n', "\\n");
    m_text += "# HELP " + name + ' ' + escapedHelp + '\n';
    m_text += "# TYPE " + name + ' ' + types[int(type)] + '\n';
}

void PrometheusText::sample(const QByteArray &name, const MetricLabels &labels, double value)
{
    m_text += name;
    if (!labels.isEmpty()) {
        m_text += '{';
        for (qsizetype i = 0; i < labels.size(); ++i) {
            if (i > 0)
                m_text += ',';
            m_text += labels[i].first + "=\"" + escapeLabelValue(labels[i].second) + '"';
        }
        m_text += '}';
    }
    m_text += ' ' + number(value) + '\n';
}

QByteArray PrometheusText::number(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

QByteArray PrometheusText::escapeLabelValue(const QString &value)
{
    QByteArray out = value.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return out;
}

} // namespace switchyard
