#include "relay/jsonmodelfield.h"

#include "common/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringDecoder>
#include <QHashFunctions>
#include <QtAlgorithms>

#include <algorithm>
#include <cstring>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace switchyard {

namespace {

// A minimal JSON scanner: enough to walk the top-level object and skip values correctly.
class Scanner
{
public:
    explicit Scanner(QByteArrayView s, qsizetype from = 0) : m_s(s), m_pos(from) {}

    void skipSpace()
    {
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                break;
            ++m_pos;
        }
    }
    bool atEnd() const { return m_pos >= m_s.size(); }
    char peek() const { return m_pos < m_s.size() ? m_s[m_pos] : '\0'; }
    qsizetype pos() const { return m_pos; }
    bool consume(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    // Skips a string literal starting at the current quote.
    bool skipString()
    {
        if (!consume('"'))
            return false;
        if (const std::optional<bool> ended = skipStringBlocks())
            return *ended;
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos++];
            if (c == '\\') {
                if (m_pos >= m_s.size())
                    return false;
                ++m_pos;
            } else if (c == '"') {
                return true;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                return false;
            }
        }
        return false;
    }

    // Agents send 20 to 200 KB of conversation, nearly all of it inside strings, and code in
    // them has an escape every few bytes. So a block at a time (16 bytes with SSE2, on every
    // x86-64; 8 with bit tricks from "Bit Twiddling Hacks" elsewhere): a mask of the quotes and
    // control characters in it, and for each only a look back at the backslashes before it (an
    // odd run escapes it), instead of three comparisons per byte.
    // true/false: the string ended (closed, or invalid); nullopt: less than a block is left and
    // the byte loop finishes from m_pos.
    std::optional<bool> skipStringBlocks()
    {
        const char *data = m_s.data();
        const qsizetype size = m_s.size();
        const qsizetype begin = m_pos;   // just after the opening quote
        const auto escaped = [data, begin](qsizetype at) {
            qsizetype run = at;
            while (run > begin && data[run - 1] == '\\')
                --run;
            return (at - run) % 2 == 1;
        };
#if defined(__SSE2__)
        constexpr qsizetype Block = 16;
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i flip = _mm_set1_epi8(char(0x80));
        const __m128i controlBound = _mm_set1_epi8(char(0x20 ^ 0x80));   // unsigned < 0x20, as signed
        // One bit per byte that is a quote or a control character.
        const auto candidates = [&](const char *at) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(at));
            const __m128i special = _mm_or_si128(_mm_cmpeq_epi8(v, quote),
                                                 _mm_cmplt_epi8(_mm_xor_si128(v, flip), controlBound));
            return quint64(quint32(_mm_movemask_epi8(special)));
        };
        constexpr int BitsPerByte = 1;
#else
        constexpr qsizetype Block = 8;
        constexpr quint64 Ones = 0x0101010101010101ULL;
        constexpr quint64 Highs = 0x8080808080808080ULL;
        // The high bit of each byte that is a quote or a control character. Exact up to the first
        // such byte; a false one after it is only looked at and let go.
        const auto candidates = [&](const char *at) {
            quint64 word;
            std::memcpy(&word, at, sizeof word);
            const quint64 quotes = word ^ (Ones * '"');
            return ((quotes - Ones) & ~quotes & Highs) | ((word - Ones * 0x20) & ~word & Highs);
        };
        constexpr int BitsPerByte = 8;
#endif
        while (m_pos + Block <= size) {
            quint64 mask = candidates(data + m_pos);
            while (mask != 0) {
                const qsizetype at = m_pos + qCountTrailingZeroBits(mask) / BitsPerByte;
                mask &= mask - 1;
                const char c = data[at];
                if ((c != '"' && static_cast<unsigned char>(c) >= 0x20) || escaped(at))
                    continue;
                if (c != '"')
                    return false;   // a control character
                m_pos = at + 1;
                return true;
            }
            m_pos += Block;
        }
        if (m_pos > begin && escaped(m_pos))
            ++m_pos;   // the byte loop would not know that the next byte is escaped
        return std::nullopt;
    }
    bool skipValue(int depth = 0)
    {
        if (depth > 512)
            return false;
        skipSpace();
        const char c = peek();
        if (c == '"')
            return skipString();
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++m_pos;
            skipSpace();
            if (consume(close))
                return true;
            for (;;) {
                if (c == '{') {
                    skipSpace();
                    if (!skipString())
                        return false;
                    skipSpace();
                    if (!consume(':'))
                        return false;
                }
                if (!skipValue(depth + 1))
                    return false;
                skipSpace();
                if (consume(close))
                    return true;
                if (!consume(','))
                    return false;
            }
        }
        // number, true, false, null
        const qsizetype begin = m_pos;
        while (m_pos < m_s.size()) {
            const char d = m_s[m_pos];
            if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\n' || d == '\r' || d == '\t')
                break;
            ++m_pos;
        }
        return m_pos > begin;
    }

    // Skips an array like skipValue, and sets *userStart and *prefixEnd to where the first object
    // whose "role" is "user" starts and ends; without one, *userStart is -1 and *prefixEnd the
    // array's end.
    bool skipMessages(qsizetype *userStart, qsizetype *prefixEnd)
    {
        if (!consume('['))
            return false;
        *userStart = -1;
        *prefixEnd = -1;
        skipSpace();
        if (consume(']')) {
            *prefixEnd = m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            const qsizetype itemStart = m_pos;
            bool user = false;
            if (!(peek() == '{' ? skipObjectNotingUser(&user) : skipValue(1)))
                return false;
            if (user && *prefixEnd < 0) {
                *userStart = itemStart;
                *prefixEnd = m_pos;
            }
            skipSpace();
            if (consume(']')) {
                if (*prefixEnd < 0)
                    *prefixEnd = m_pos;
                return true;
            }
            if (!consume(','))
                return false;
        }
    }

private:
    // One object of a message list: skipped, and *user set when its "role" is "user".
    bool skipObjectNotingUser(bool *user)
    {
        ++m_pos;   // '{'
        skipSpace();
        if (consume('}'))
            return true;
        for (;;) {
            skipSpace();
            const qsizetype keyStart = m_pos;
            if (!skipString())
                return false;
            const bool role = m_s.sliced(keyStart, m_pos - keyStart) == "\"role\"";
            skipSpace();
            if (!consume(':'))
                return false;
            skipSpace();
            const qsizetype valueStart = m_pos;
            if (!skipValue(2))
                return false;
            if (role && m_s.sliced(valueStart, m_pos - valueStart) == "\"user\"")
                *user = true;
            skipSpace();
            if (consume('}'))
                return true;
            if (!consume(','))
                return false;
        }
    }

    QByteArrayView m_s;
    qsizetype m_pos = 0;
};

// json without its "cache_control" members (and a comma beside each): clients move these cache
// markers to the newest message from turn to turn, so a conversation's key must not see them.
QByteArray withoutCacheMarkers(QByteArrayView json)
{
    static constexpr QByteArrayView Marker = "\"cache_control\"";
    QByteArray kept;
    qsizetype from = 0;
    for (qsizetype at = json.indexOf(Marker); at >= 0; at = json.indexOf(Marker, at + 1)) {
        Scanner s(json, at + Marker.size());
        s.skipSpace();
        if (at < from || !s.consume(':') || !s.skipValue())
            continue;   // a string value, not a member's name
        qsizetype begin = at;
        s.skipSpace();
        if (s.consume(',')) {
            s.skipSpace();
        } else {
            qsizetype before = at;
            while (before > from && QByteArrayView(" \t\r\n").contains(json[before - 1]))
                --before;
            if (before > from && json[before - 1] == ',')
                begin = before - 1;
        }
        kept += json.sliced(from, begin - from);
        from = s.pos();
    }
    kept += json.sliced(from);
    return kept;
}

// The bytes' hash, cache markers left out.
size_t hashWithoutCacheMarkers(QByteArrayView bytes, size_t seed, qsizetype limit = -1)
{
    if (!bytes.contains("\"cache_control\"")) {
        const QByteArrayView head = limit < 0 ? bytes : bytes.first(std::min(limit, bytes.size()));
        return qHashBits(head.data(), size_t(head.size()), seed);
    }
    const QByteArray kept = withoutCacheMarkers(bytes);
    const QByteArrayView head = limit < 0 ? QByteArrayView(kept) : QByteArrayView(kept).first(std::min(limit, kept.size()));
    return qHashBits(head.data(), size_t(head.size()), seed);
}

QString decodeStringLiteral(QByteArrayView literal, bool *ok)
{
    // A model name rarely holds an escape: then its bytes are the UTF-8 of the value.
    const QByteArrayView inner = literal.sliced(1, literal.size() - 2);
    const bool plain = std::none_of(inner.begin(), inner.end(), [](char c) {
        return c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    if (plain) {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString value = utf8(inner);
        if (!utf8.hasError()) {
            *ok = true;
            return value;
        }
    }
    const QByteArray wrapped = '[' + literal.toByteArray() + ']';
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(wrapped, &error);
    *ok = error.error == QJsonParseError::NoError && doc.isArray();
    return *ok ? doc.array().at(0).toString() : QString();
}

} // namespace

JsonModelField JsonModelField::find(QByteArrayView json)
{
    JsonModelField field;
    QByteArrayView messagesAt;   // the conversation's prefix up to its first user message,
    QByteArrayView firstUserAt;  // that message (empty when there is none),
    QByteArrayView systemAt;     // and its system prompt
    Scanner s(json);
    s.skipSpace();
    if (!s.consume('{')) {
        field.result = s.atEnd() ? Result::Missing : Result::NotAnObject;
        return field;
    }
    s.skipSpace();
    if (s.consume('}'))
        return field;
    for (;;) {
        s.skipSpace();
        const qsizetype keyStart = s.pos();
        if (!s.skipString()) {
            field.result = Result::Malformed;
            return field;
        }
        const QByteArrayView key = json.sliced(keyStart, s.pos() - keyStart);
        s.skipSpace();
        if (!s.consume(':')) {
            field.result = Result::Malformed;
            return field;
        }
        s.skipSpace();
        const qsizetype valueStart = s.pos();
        // A key may spell "model" with escapes ("mod\u0065l"); the engine's parser decodes it, so
        // the relay must too, or it would route by one "model" while the engine reads another.
        bool keyOk = true;
        const bool isModel = key == "\"model\""
            || (key.contains('\\') && decodeStringLiteral(key, &keyOk) == QLatin1String("model") && keyOk);
        if (key == "\"stream\"")
            field.stream = json.sliced(valueStart).startsWith("true");
        if (isModel && s.peek() != '"' && field.result != Result::Found) {
            field.result = Result::NotAString;
        }
        const bool messages = (key == "\"messages\"" || key == "\"input\"") && s.peek() == '[';
        qsizetype userStart = -1;
        qsizetype prefixEnd = -1;
        if (!(messages ? s.skipMessages(&userStart, &prefixEnd) : s.skipValue())) {
            field.result = Result::Malformed;
            return field;
        }
        const QByteArrayView value = json.sliced(valueStart, s.pos() - valueStart);
        if (key == "\"max_tokens\"" || key == "\"max_completion_tokens\"" || key == "\"max_output_tokens\"") {
            bool isNumber = false;
            const qint64 n = value.toByteArray().toLongLong(&isNumber);
            if (isNumber)
                field.maxTokens = n;
        } else if (key == "\"tools\"" && value.startsWith('[')) {
            field.tools = value.sliced(1).trimmed() != "]";
        }
        if (messages && messagesAt.isEmpty()) {
            const qsizetype userAt = userStart < 0 ? prefixEnd : userStart;
            messagesAt = json.sliced(valueStart, userAt - valueStart);
            firstUserAt = json.sliced(userAt, prefixEnd - userAt);
        }
        else if ((key == "\"system\"" || key == "\"instructions\"") && systemAt.isEmpty())
            systemAt = json.sliced(valueStart, s.pos() - valueStart);
        if (isModel && json[valueStart] == '"') {
            bool ok = false;
            field.value = decodeStringLiteral(json.sliced(valueStart, s.pos() - valueStart), &ok);
            if (!ok) {
                field.result = Result::Malformed;
                return field;
            }
            field.result = Result::Found;
            field.start = valueStart;
            field.end = s.pos();
        }
        s.skipSpace();
        if (s.consume('}'))
            break;
        if (!s.consume(',')) {
            field.result = Result::Malformed;
            return field;
        }
    }
    s.skipSpace();
    if (!s.atEnd())
        field.result = Result::Malformed;
    if (!messagesAt.isEmpty()) {
        // Any fixed seed: the value only has to agree within one run of the relay.
        const size_t system = hashWithoutCacheMarkers(systemAt, 0x5157);
        const size_t before = hashWithoutCacheMarkers(messagesAt, system);
        field.conversation = quint64(hashWithoutCacheMarkers(firstUserAt, before, FirstUserBytes)) | 1;
    }
    return field;
}

QByteArray JsonModelField::literal(const QString &newValue)
{
    return JsonText::quote(newValue);
}

QByteArray JsonModelField::replaced(QByteArrayView json, const QString &newValue) const
{
    if (result != Result::Found)
        return json.toByteArray();
    const QByteArray literal = JsonText::quote(newValue);
    QByteArray out;
    out.reserve(json.size() + literal.size());
    out.append(json.first(start));
    out.append(literal);
    out.append(json.sliced(end));
    return out;
}

} // namespace switchyard
