#include "journal/journalformat.h"

#include <QHostAddress>
#include <QUrl>

#include <algorithm>
#include <limits>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr char LowerHex[] = "0123456789abcdef";

// Go's fmtFrac: writes ".ddd" of v / 10^prec before w, without trailing zeros; returns v / 10^prec.
quint64 formatFraction(char *buf, int &w, quint64 v, int prec)
{
    bool print = false;
    for (int i = 0; i < prec; ++i) {
        const quint64 digit = v % 10;
        print = print || digit != 0;
        if (print)
            buf[--w] = char('0' + digit);
        v /= 10;
    }
    if (print)
        buf[--w] = '.';
    return v;
}

// Go's fmtInt: writes v's decimal digits before w.
void formatInteger(char *buf, int &w, quint64 v)
{
    if (v == 0) {
        buf[--w] = '0';
        return;
    }
    while (v > 0) {
        buf[--w] = char('0' + v % 10);
        v /= 10;
    }
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
// Everything else (controls, format characters such as U+202E, other spaces, line and
// paragraph separators, private use, unassigned) is escaped.
bool isPrint(char32_t r)
{
    if (r == U' ')
        return true;
    switch (QChar::category(r)) {
    case QChar::Separator_Space:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
        return false;
    default:
        return true;
    }
}

void appendHex(QString &out, quint32 value, int digits)
{
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += QLatin1Char(LowerHex[(value >> shift) & 0xF]);
}

// Go's appendEscapedRune. quoteChars: escape '"' and '\' too (inside %q, not in event text).
void appendRune(QString &out, char32_t r, bool quoteChars)
{
    if (quoteChars && (r == U'"' || r == U'\\')) {
        out += u'\\';
        out += QChar(r);
        return;
    }
    if (isPrint(r)) {
        out += QString::fromUcs4(&r, 1);
        return;
    }
    switch (r) {
    case U'\a': out += u"\\a"_s; return;
    case U'\b': out += u"\\b"_s; return;
    case U'\f': out += u"\\f"_s; return;
    case U'\n': out += u"\\n"_s; return;
    case U'\r': out += u"\\r"_s; return;
    case U'\t': out += u"\\t"_s; return;
    case U'\v': out += u"\\v"_s; return;
    default:
        break;
    }
    if (r < U' ' || r == 0x7f) {
        out += u"\\x"_s;
        appendHex(out, r, 2);
    } else if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) {
        out += u"\\ufffd"_s;   // Go's utf8.ValidRune fails: it writes the replacement character
    } else if (r < 0x10000) {
        out += u"\\u"_s;
        appendHex(out, r, 4);
    } else {
        out += u"\\U"_s;
        appendHex(out, r, 8);
    }
}

// Printable ASCII that needs no escape: the whole of almost every path, model and user agent,
// appended in runs rather than rune by rune.
bool isPlainAscii(char16_t c, bool quoteChars)
{
    return c >= 0x20 && c < 0x7f && !(quoteChars && (c == u'"' || c == u'\\'));
}

void appendEscaped(QString &out, QStringView text, bool quoteChars)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        qsizetype run = i;
        while (run < text.size() && isPlainAscii(text[run].unicode(), quoteChars))
            ++run;
        if (run > i) {
            out += text.sliced(i, run - i);
            i = run - 1;
            continue;
        }
        const QChar c = text[i];
        char32_t r = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            r = QChar::surrogateToUcs4(c, text[i + 1]);
            ++i;
        }
        appendRune(out, r, quoteChars);   // a lone surrogate comes out as \ufffd
    }
}

bool isContinuation(unsigned char b, unsigned char low = 0x80, unsigned char high = 0xBF)
{
    return b >= low && b <= high;
}

// Go's utf8.DecodeRune: the rune and its width, or width 0 for an invalid byte.
int decodeUtf8(const QByteArray &s, qsizetype i, char32_t *rune)
{
    auto at = [&](qsizetype k) { return k < s.size() ? static_cast<unsigned char>(s.at(k)) : 0; };
    const unsigned char b0 = at(i);
    if (b0 < 0x80) {
        *rune = b0;
        return 1;
    }
    int width = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    char32_t value = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        width = 2;
        value = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        width = 3;
        value = b0 & 0x0F;
        if (b0 == 0xE0)
            low = 0xA0;        // overlong
        else if (b0 == 0xED)
            high = 0x9F;       // surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        width = 4;
        value = b0 & 0x07;
        if (b0 == 0xF0)
            low = 0x90;        // overlong
        else if (b0 == 0xF4)
            high = 0x8F;       // above U+10FFFF
    } else {
        return 0;
    }
    if (i + width > s.size() || !isContinuation(at(i + 1), low, high))
        return 0;
    value = (value << 6) | (at(i + 1) & 0x3F);
    for (int k = 2; k < width; ++k) {
        if (!isContinuation(at(i + k)))
            return 0;
        value = (value << 6) | (at(i + k) & 0x3F);
    }
    *rune = value;
    return width;
}

// Values from the config or the socket that are normally plain tokens; quoted if anything
// in them could break the line's "key=value" shape.
QString token(const QString &s)
{
    const bool plain = !s.isEmpty() && std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        return c.unicode() > u' ' && c.unicode() < 0x7f && c != u'"' && c != u'\\' && c != u'=';
    });
    return plain ? s : JournalFormat::goQuote(s);
}

} // namespace

namespace JournalFormat {

QString goDuration(std::chrono::nanoseconds d)
{
    char buf[32];
    int w = sizeof buf;
    const qint64 n = d.count();
    const bool negative = n < 0;
    quint64 u = quint64(n);
    if (negative)
        u = ~u + 1;   // two's complement negation, also right for the minimum value

    if (u < 1'000'000'000ULL) {
        // Below a second: one unit (ns, µs, ms) with a fraction.
        buf[--w] = 's';
        --w;
        int prec = 0;
        if (u == 0) {
            return u"0s"_s;
        } else if (u < 1'000ULL) {
            prec = 0;
            buf[w] = 'n';
        } else if (u < 1'000'000ULL) {
            prec = 3;
            --w;
            buf[w] = '\xC2';   // U+00B5 MICRO SIGN, as Go writes it
            buf[w + 1] = '\xB5';
        } else {
            prec = 6;
            buf[w] = 'm';
        }
        u = formatFraction(buf, w, u, prec);
        formatInteger(buf, w, u);
    } else {
        buf[--w] = 's';
        u = formatFraction(buf, w, u, 9);
        formatInteger(buf, w, u % 60);   // seconds
        u /= 60;
        if (u > 0) {
            buf[--w] = 'm';
            formatInteger(buf, w, u % 60);
            u /= 60;
            if (u > 0) {
                buf[--w] = 'h';
                formatInteger(buf, w, u);
            }
        }
    }
    if (negative)
        buf[--w] = '-';
    return QString::fromUtf8(buf + w, int(sizeof buf) - w);
}

std::chrono::nanoseconds roundToMillisecond(std::chrono::nanoseconds d)
{
    using std::chrono::nanoseconds;
    constexpr qint64 m = 1'000'000;
    constexpr qint64 max = std::numeric_limits<qint64>::max();
    constexpr qint64 min = std::numeric_limits<qint64>::min();
    const qint64 v = d.count();
    const auto lessThanHalf = [](qint64 x) { return quint64(x) + quint64(x) < quint64(m); };

    qint64 r = v % m;
    if (v < 0) {
        r = -r;
        if (lessThanHalf(r))
            return nanoseconds(v + r);
        if (v >= min + (m - r))
            return nanoseconds(v - m + r);
        return nanoseconds(min);   // Go saturates too
    }
    if (lessThanHalf(r))
        return nanoseconds(v - r);
    if (v <= max - (m - r))
        return nanoseconds(v + m - r);
    return nanoseconds(max);
}

QString requestDuration(std::chrono::nanoseconds d)
{
    return goDuration(roundToMillisecond(d));
}

QString goQuote(QStringView text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    appendEscaped(out, text, true);
    out += u'"';
    return out;
}

QString goQuote(const QByteArray &utf8)
{
    QString out;
    out.reserve(utf8.size() + 2);
    out += u'"';
    for (qsizetype i = 0; i < utf8.size();) {
        qsizetype run = i;
        while (run < utf8.size() && isPlainAscii(char16_t(static_cast<unsigned char>(utf8.at(run))), true))
            ++run;
        if (run > i) {
            out += QLatin1StringView(utf8.constData() + i, run - i);
            i = run;
            continue;
        }
        char32_t r = 0;
        const int width = decodeUtf8(utf8, i, &r);
        if (width == 0) {
            out += u"\\x"_s;
            appendHex(out, static_cast<unsigned char>(utf8.at(i)), 2);
            ++i;
            continue;
        }
        appendRune(out, r, true);
        i += width;
    }
    out += u'"';
    return out;
}

QString timestamp(const QDateTime &when)
{
    if (!when.isValid())
        return u"0001/01/01 00:00:00"_s;   // Go's zero time; keeps the columns where they are
    const QDateTime local = when.toLocalTime();
    const QDate date = local.date();
    const QTime time = local.time();
    if (date.year() < 1 || date.year() > 9999)
        return local.toString(u"yyyy/MM/dd HH:mm:ss"_s);
    // By hand: QDateTime::toString parses its format on every call, once per journal line.
    char buf[20];
    const auto put = [&buf](int at, int value, int digits) {
        for (int k = digits - 1; k >= 0; --k, value /= 10)
            buf[at + k] = char('0' + value % 10);
    };
    put(0, date.year(), 4);
    buf[4] = '/';
    put(5, date.month(), 2);
    buf[7] = '/';
    put(8, date.day(), 2);
    buf[10] = ' ';
    put(11, time.hour(), 2);
    buf[13] = ':';
    put(14, time.minute(), 2);
    buf[16] = ':';
    put(17, time.second(), 2);
    return QString::fromLatin1(buf, 19);
}

QString clientAddress(const QString &peer)
{
    if (peer.isEmpty())
        return u"-"_s;
    if (!peer.startsWith(u"::ffff:", Qt::CaseInsensitive))
        return token(peer);   // nothing to unwrap: skip parsing the address
    const QHostAddress address(peer);
    if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        bool ok = false;
        const quint32 v4 = address.toIPv4Address(&ok);
        if (ok)
            return QHostAddress(v4).toString();
    }
    return token(peer);
}

QString requestLine(const RequestRecord &record)
{
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    const QDateTime written = record.startedAt.isValid()
            ? record.startedAt.addMSecs(duration_cast<milliseconds>(record.duration).count())
            : record.startedAt;

    // The path may arrive percent-decoded; re-encoding spaces, quotes and controls keeps it one
    // field, and leaves every ordinary path unchanged.
    const QByteArray path = QUrl::toPercentEncoding(record.path, "/:@!$&'()*+,;=%~-._");

    QString line = timestamp(written);
    line.reserve(256);   // one allocation for the usual line, not one per field
    line += u' ' + token(record.method);
    line += u' ' + (path.isEmpty() ? u"-"_s : QString::fromLatin1(path));
    line += u" model="_s + goQuote(record.model);
    line += u" host="_s + (record.host.isEmpty() ? u"-"_s : token(record.host));
    line += u" status="_s + QString::number(record.status);
    line += u" bytes="_s + QString::number(record.bytesOut);
    line += u" dur="_s + requestDuration(record.duration);
    line += u" from="_s + clientAddress(record.clientAddress);
    if (!record.keyName.isEmpty())
        line += u" key="_s + token(record.keyName);   // the client key's name, never the key
    line += u" ua="_s + goQuote(record.userAgent);
    if (record.restoredPromptTokens > 0)
        line += u" cache=restored:"_s + QString::number(record.restoredPromptTokens);
    if (!record.relayError.isEmpty())
        line += u" err="_s + goQuote(record.relayError);
    return line;
}

QString eventLine(const QDateTime &when, const QString &text)
{
    QString line = timestamp(when);
    line += u' ';
    appendEscaped(line, text, false);
    return line;
}

} // namespace JournalFormat

} // namespace switchyard
