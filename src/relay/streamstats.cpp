#include "relay/streamstats.h"

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

// The text of the value the top-level member `key` of a JSON object holds, or an empty view.
// One pass that follows strings and nesting, so that the same word in a message's text or in a
// nested object is not taken for it. The counts are read this way, not with QJsonDocument:
// parsing the final event (which holds the whole answer in some APIs) cost more than the rest
// of the request's bookkeeping.
QByteArrayView topLevelMember(QByteArrayView json, QByteArrayView key)
{
    const auto skipSpace = [&json](qsizetype i) {
        while (i < json.size() && (json[i] == ' ' || json[i] == '\t' || json[i] == '\r' || json[i] == '\n'))
            ++i;
        return i;
    };
    // The index just past the string whose opening quote is at `i`. Most of an event's bytes
    // are text inside strings: memchr jumps to each quote, and a quote after an odd run of
    // backslashes is part of the text.
    const auto skipString = [&json](qsizetype i) {
        const char *begin = json.data();
        const char *end = begin + json.size();
        const char *p = begin + i + 1;
        while (p < end) {
            const char *quote = static_cast<const char *>(memchr(p, '"', size_t(end - p)));
            if (!quote)
                return json.size();
            const char *b = quote;
            while (b > p && b[-1] == '\\')
                --b;
            if ((quote - b) % 2 == 0)
                return qsizetype(quote - begin) + 1;
            p = quote + 1;
        }
        return json.size();
    };
    // The index just past the value (string, object, array, number, literal) that starts at `i`.
    const auto skipValue = [&json, &skipString](qsizetype i) {
        if (i >= json.size())
            return i;
        if (json[i] == '"')
            return skipString(i);
        if (json[i] != '{' && json[i] != '[') {
            while (i < json.size() && json[i] != ',' && json[i] != '}' && json[i] != ']' && json[i] != ' '
                   && json[i] != '\t' && json[i] != '\r' && json[i] != '\n')
                ++i;
            return i;
        }
        int depth = 0;
        while (i < json.size()) {
            const char c = json[i];
            if (c == '"') {
                i = skipString(i);
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0)
                return i + 1;
            ++i;
        }
        return json.size();
    };
    qsizetype i = skipSpace(0);
    if (i >= json.size() || json[i] != '{')
        return {};
    i = skipSpace(i + 1);
    while (i < json.size() && json[i] == '"') {
        const qsizetype keyEnd = skipValue(i);
        const bool wanted = keyEnd - i == key.size() + 2 && json.sliced(i + 1, key.size()) == key;
        i = skipSpace(keyEnd);
        if (i >= json.size() || json[i] != ':')
            return {};
        const qsizetype valueStart = skipSpace(i + 1);
        const qsizetype valueEnd = skipValue(valueStart);
        if (wanted)
            return json.sliced(valueStart, valueEnd - valueStart);
        i = skipSpace(valueEnd);
        if (i < json.size() && json[i] == ',')
            i = skipSpace(i + 1);
    }
    return {};
}

// The number the member holds, if it is one.
std::optional<double> numberMember(QByteArrayView object, QByteArrayView key)
{
    const QByteArrayView text = topLevelMember(object, key);
    if (text.isEmpty() || !(text.front() == '-' || (text.front() >= '0' && text.front() <= '9')))
        return std::nullopt;
    bool ok = false;
    const double value = text.toByteArray().toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

// A token count the member holds: a number from 0 to 2^53 (what a double holds exactly);
// anything else is no count, not a cast out of range.
std::optional<qint64> countMember(QByteArrayView object, QByteArrayView key)
{
    const std::optional<double> n = numberMember(object, key);
    if (!n || !(*n >= 0 && *n <= 9007199254740992.0))
        return std::nullopt;
    return qint64(*n);
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
    json = json.trimmed();
    const QByteArrayView timings = topLevelMember(json, "timings");
    QByteArrayView usage = topLevelMember(json, "usage");
    if (usage.isEmpty()) {
        // The Responses API's last event, response.completed, holds the response whole, and its
        // usage inside it.
        usage = topLevelMember(topLevelMember(json, "response"), "usage");
    }
    inspectPrompt(timings, usage.isEmpty() ? topLevelMember(topLevelMember(json, "message"), "usage") : usage);
    if (const std::optional<qint64> n = countMember(timings, "predicted_n")) {
        m_tokens = n;
        if (const std::optional<double> rate = numberMember(timings, "predicted_per_second"))
            m_perSecond = rate;
        return;
    }
    if (const std::optional<qint64> n = countMember(usage, "completion_tokens"))
        m_tokens = n;
    else if (const std::optional<qint64> n = countMember(usage, "output_tokens"))
        m_tokens = n;
}

// The API's own count first (usage), then llama.cpp's timings, where prompt_n is only the part
// not taken from the cache.
void StreamStats::inspectPrompt(QByteArrayView timings, QByteArrayView usage)
{
    if (const std::optional<qint64> n = countMember(usage, "prompt_tokens")) {
        m_promptTokens = n;
        return;
    }
    if (const std::optional<qint64> n = countMember(usage, "input_tokens")) {
        m_promptTokens = *n + countMember(usage, "cache_read_input_tokens").value_or(0)
                + countMember(usage, "cache_creation_input_tokens").value_or(0);
        return;
    }
    if (const std::optional<qint64> n = countMember(timings, "prompt_n"))
        m_promptTokens = *n + countMember(timings, "cache_n").value_or(0);
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
