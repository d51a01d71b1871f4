#include "relay/streamstats.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

void StreamStats::feed(QByteArrayView chunk)
{
    const bool interesting = chunk.contains("\"timings\"") || chunk.contains("\"usage\"");
    if (!interesting && m_partialLine.isEmpty()) {
        // Events end with a blank line, so usually nothing is left over; keep an unfinished last
        // line in case the word arrives in the next read.
        const qsizetype nl = chunk.lastIndexOf('\n');
        m_partialLine = (nl < 0 ? chunk : chunk.sliced(nl + 1)).toByteArray();
        return;
    }
    QByteArray data = m_partialLine + chunk.toByteArray();
    m_partialLine.clear();
    qsizetype pos = 0;
    while (pos < data.size()) {
        const qsizetype nl = data.indexOf('\n', pos);
        if (nl < 0) {
            m_partialLine = data.mid(pos);
            if (m_partialLine.size() > 1024 * 1024)
                m_partialLine.clear();
            break;
        }
        QByteArrayView line = QByteArrayView(data).sliced(pos, nl - pos);
        pos = nl + 1;
        if (line.startsWith("data:") && (line.contains("\"timings\"") || line.contains("\"usage\"")))
            inspectJson(line.sliced(5));
    }
}

void StreamStats::feedWholeBody(QByteArrayView body)
{
    if (body.contains("\"timings\"") || body.contains("\"usage\""))
        inspectJson(body);
}

void StreamStats::inspectJson(QByteArrayView json)
{
    const QJsonObject o = QJsonDocument::fromJson(json.trimmed().toByteArray()).object();
    const QJsonObject timings = o.value("timings"_L1).toObject();
    if (timings.contains("predicted_n"_L1)) {
        m_tokens = qint64(timings.value("predicted_n"_L1).toDouble());
        if (timings.contains("predicted_per_second"_L1))
            m_perSecond = timings.value("predicted_per_second"_L1).toDouble();
        return;
    }
    const QJsonObject usage = o.value("usage"_L1).toObject();
    if (usage.contains("completion_tokens"_L1))
        m_tokens = qint64(usage.value("completion_tokens"_L1).toDouble());
    else if (usage.contains("output_tokens"_L1))
        m_tokens = qint64(usage.value("output_tokens"_L1).toDouble());
}

std::optional<double> StreamStats::tokensPerSecond(std::chrono::nanoseconds sinceFirstByte) const
{
    if (m_perSecond)
        return m_perSecond;
    if (!m_tokens || sinceFirstByte.count() <= 0)
        return std::nullopt;
    return double(*m_tokens) / std::chrono::duration<double>(sinceFirstByte).count();
}

} // namespace switchyard
