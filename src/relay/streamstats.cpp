#include "relay/streamstats.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstring>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype MaxPartialLine = 1024 * 1024;

// This runs over every byte of every stream (Qt 6.4's generic search here was 64 % of the relay's
// instructions at full speed). Both words hold a 'g', a letter rare in the JSON of a token event:
// one vectorised memchr pass finds each 'g', and only there is the word around it compared.
bool mentionsStats(QByteArrayView text)
{
    static constexpr char Usage[] = "\"usage\"";       // 'g' at 4
    static constexpr char Timings[] = "\"timings\"";   // 'g' at 6
    const char *begin = text.data();
    const char *end = begin + text.size();
    for (const char *g = begin; g < end; ++g) {
        g = static_cast<const char *>(memchr(g, 'g', size_t(end - g)));
        if (!g)
            return false;
        if (end - g < 3)
            return false;   // both words end two bytes after their 'g'
        if (g - begin >= 4 && memcmp(g - 4, Usage, 7) == 0)
            return true;
        if (g - begin >= 6 && memcmp(g - 6, Timings, 9) == 0)
            return true;
    }
    return false;
}

qsizetype indexOfNewline(QByteArrayView text, qsizetype from = 0)
{
    const void *hit = memchr(text.data() + from, '\n', size_t(text.size() - from));
    return hit ? static_cast<const char *>(hit) - text.data() : -1;
}

qsizetype lastIndexOfNewline(QByteArrayView text)
{
    const void *hit = memrchr(text.data(), '\n', size_t(text.size()));
    return hit ? static_cast<const char *>(hit) - text.data() : -1;
}

} // namespace

void StreamStats::inspectLine(QByteArrayView line)
{
    if (line.startsWith("data:") && mentionsStats(line))
        inspectJson(line.sliced(5));
}

void StreamStats::feed(QByteArrayView chunk)
{
    if (chunk.isEmpty())
        return;
    if (!m_partialLine.isEmpty()) {
        // Finish the line the last read left open; only it needs the bytes joined.
        const qsizetype nl = indexOfNewline(chunk);
        if (nl < 0) {
            m_partialLine.append(chunk);
            if (m_partialLine.size() > MaxPartialLine)
                m_partialLine.clear();
            return;
        }
        m_partialLine.append(chunk.first(nl));
        inspectLine(m_partialLine);
        m_partialLine.clear();
        chunk = chunk.sliced(nl + 1);
    }
    // Events end with a blank line, so a read usually ends at a line's end; an unfinished last
    // line is kept in case the word arrives in the next read.
    const qsizetype lastNl = lastIndexOfNewline(chunk);
    const QByteArrayView whole = chunk.first(lastNl + 1);
    if (mentionsStats(whole)) {
        qsizetype pos = 0;
        while (pos < whole.size()) {
            const qsizetype nl = indexOfNewline(whole, pos);
            inspectLine(whole.sliced(pos, nl - pos));
            pos = nl + 1;
        }
    }
    if (lastNl + 1 < chunk.size()) {
        m_partialLine = chunk.sliced(lastNl + 1).toByteArray();
        if (m_partialLine.size() > MaxPartialLine)
            m_partialLine.clear();
    }
}

void StreamStats::feedWholeBody(QByteArrayView body)
{
    if (mentionsStats(body))
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
