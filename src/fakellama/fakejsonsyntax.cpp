#include "fakejsonsyntax.h"

#include <QList>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <locale.h>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

namespace {

constexpr int Eof = -1;

enum class Token {
    Uninitialized, True, False, Null, String, Number, BeginArray, BeginObject, EndArray, EndObject,
    NameSeparator, ValueSeparator, ParseError, EndOfInput, LiteralOrValue
};

const char *tokenName(Token t)
{
    switch (t) {
    case Token::Uninitialized: return "<uninitialized>";
    case Token::True: return "true literal";
    case Token::False: return "false literal";
    case Token::Null: return "null literal";
    case Token::String: return "string literal";
    case Token::Number: return "number literal";
    case Token::BeginArray: return "'['";
    case Token::BeginObject: return "'{'";
    case Token::EndArray: return "']'";
    case Token::EndObject: return "'}'";
    case Token::NameSeparator: return "':'";
    case Token::ValueSeparator: return "','";
    case Token::ParseError: return "<parse error>";
    case Token::EndOfInput: return "end of input";
    case Token::LiteralOrValue: return "'[', '{', or a literal";
    }
    return "unknown token";
}

// Bytes as text the way nlohmann's dump() with error_handler_t::replace writes them (llama.cpp's
// error bodies): one U+FFFD for each byte that cannot start a sequence, for each sequence cut
// short by a byte that does not fit (that byte is then read again), and for a cut end.
QString replacingBadUtf8(const QByteArray &bytes)
{
    QString out;
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar c = uchar(bytes.at(i));
        if (c < 0x80) {
            out += QLatin1Char(char(c));
            ++i;
            continue;
        }
        int length = 0;
        uchar low = 0x80, high = 0xBF;   // the second byte's range
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        }
        if (length == 0) {
            out += QChar(0xFFFD);
            ++i;
            continue;
        }
        qsizetype j = i + 1;
        bool whole = true;
        for (int k = 1; k < length; ++k, ++j) {
            if (j >= n || uchar(bytes.at(j)) < (k == 1 ? low : 0x80) || uchar(bytes.at(j)) > (k == 1 ? high : 0xBF)) {
                whole = false;
                break;
            }
        }
        if (whole) {
            out += QString::fromUtf8(bytes.mid(i, length));
            i += length;
        } else {
            out += QChar(0xFFFD);
            i = j;   // the byte that did not fit starts over (or the end was reached)
        }
    }
    return out;
}

// nlohmann's lexer, as far as its errors and positions go (values are not kept).
class Lexer
{
public:
    explicit Lexer(const QByteArray &input) : m_input(input) {}

    Token scan()
    {
        if (m_total == 0 && !skipBom()) {
            m_error = u"invalid BOM; must be 0xEF 0xBB 0xBF if given"_s;
            return Token::ParseError;
        }
        do {
            get();
        } while (m_current == ' ' || m_current == '\t' || m_current == '\n' || m_current == '\r');
        switch (m_current) {
        case '[': return Token::BeginArray;
        case ']': return Token::EndArray;
        case '{': return Token::BeginObject;
        case '}': return Token::EndObject;
        case ':': return Token::NameSeparator;
        case ',': return Token::ValueSeparator;
        case 't': return scanLiteral("true", Token::True);
        case 'f': return scanLiteral("false", Token::False);
        case 'n': return scanLiteral("null", Token::Null);
        case '"': return scanString();
        case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
            return scanNumber();
        case '\0':
        case Eof:
            return Token::EndOfInput;
        default:
            m_error = u"invalid literal"_s;
            return Token::ParseError;
        }
    }

    qint64 charsReadTotal() const { return m_total; }
    bool numberOverflow() const { return m_overflow; }
    QString position() const { return u"line %1, column %2"_s.arg(m_lines + 1).arg(m_column); }
    QString error() const { return m_error; }
    // The characters read since the last string or number began, control characters as <U+XXXX>.
    QString tokenString() const
    {
        QByteArray out;
        for (const char c : m_tokenString) {
            if (uchar(c) <= 0x1F)
                out += "<U+" + QByteArray::number(uchar(c), 16).toUpper().rightJustified(4, '0') + '>';
            else
                out += c;
        }
        return replacingBadUtf8(out);
    }

private:
    int get()
    {
        ++m_total;
        ++m_column;
        if (m_unget)
            m_unget = false;
        else
            m_current = m_at < m_input.size() ? uchar(m_input.at(m_at++)) : Eof;
        if (m_current != Eof)
            m_tokenString += char(m_current);
        if (m_current == '\n') {
            ++m_lines;
            m_column = 0;
        }
        return m_current;
    }

    void unget()
    {
        m_unget = true;
        --m_total;
        if (m_column == 0) {
            if (m_lines > 0)
                --m_lines;
        } else {
            --m_column;
        }
        if (m_current != Eof)
            m_tokenString.chop(1);
    }

    void reset()
    {
        m_tokenString.clear();
        m_tokenString += char(m_current);
    }

    bool skipBom()
    {
        if (get() == 0xEF)
            return get() == 0xBB && get() == 0xBF;
        unget();
        return true;
    }

    Token scanLiteral(const char *text, Token type)
    {
        for (const char *p = text + 1; *p; ++p) {
            if (get() != *p) {
                m_error = u"invalid literal"_s;
                return Token::ParseError;
            }
        }
        return type;
    }

    int codepoint()
    {
        int value = 0;
        for (const int shift : {12, 8, 4, 0}) {
            get();
            if (m_current >= '0' && m_current <= '9')
                value += (m_current - '0') << shift;
            else if (m_current >= 'A' && m_current <= 'F')
                value += (m_current - 'A' + 10) << shift;
            else if (m_current >= 'a' && m_current <= 'f')
                value += (m_current - 'a' + 10) << shift;
            else
                return -1;
        }
        return value;
    }

    bool nextBytesInRange(std::initializer_list<int> ranges)
    {
        for (auto range = ranges.begin(); range != ranges.end(); range += 2) {
            get();
            if (m_current < range[0] || m_current > range[1]) {
                m_error = u"invalid string: ill-formed UTF-8 byte"_s;
                return false;
            }
        }
        return true;
    }

    Token stringError(const QString &message)
    {
        m_error = u"invalid string: "_s + message;
        return Token::ParseError;
    }

    Token scanString()
    {
        reset();
        while (true) {
            const int c = get();
            if (c == Eof)
                return stringError(u"missing closing quote"_s);
            if (c == '"')
                return Token::String;
            if (c == '\\') {
                switch (get()) {
                case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                    break;
                case 'u': {
                    const int first = codepoint();
                    if (first == -1)
                        return stringError(u"'\\u' must be followed by 4 hex digits"_s);
                    if (first >= 0xD800 && first <= 0xDBFF) {
                        if (get() != '\\' || get() != 'u')
                            return stringError(u"surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"_s);
                        const int second = codepoint();
                        if (second == -1)
                            return stringError(u"'\\u' must be followed by 4 hex digits"_s);
                        if (second < 0xDC00 || second > 0xDFFF)
                            return stringError(u"surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"_s);
                    } else if (first >= 0xDC00 && first <= 0xDFFF) {
                        return stringError(u"surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"_s);
                    }
                    break;
                }
                default:
                    return stringError(u"forbidden character after backslash"_s);
                }
                continue;
            }
            if (c <= 0x1F) {
                static const char *const names[] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL",
                                                    "BS",  "HT",  "LF",  "VT",  "FF",  "CR",  "SO",  "SI",
                                                    "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB",
                                                    "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};
                const QString hex = QString::number(c, 16).toUpper().rightJustified(4, u'0');
                QString message = u"control character U+%1 (%2) must be escaped to \\u%1"_s.arg(hex, QLatin1StringView(names[c]));
                const char *shortForm = c == 0x08 ? "b" : c == 0x09 ? "t" : c == 0x0A ? "n" : c == 0x0C ? "f" : c == 0x0D ? "r" : nullptr;
                if (shortForm)
                    message += u" or \\"_s + QLatin1StringView(shortForm);
                return stringError(message);
            }
            if (c < 0x80)
                continue;
            bool ok = false;
            if (c >= 0xC2 && c <= 0xDF)
                ok = nextBytesInRange({0x80, 0xBF});
            else if (c == 0xE0)
                ok = nextBytesInRange({0xA0, 0xBF, 0x80, 0xBF});
            else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
                ok = nextBytesInRange({0x80, 0xBF, 0x80, 0xBF});
            else if (c == 0xED)
                ok = nextBytesInRange({0x80, 0x9F, 0x80, 0xBF});
            else if (c == 0xF0)
                ok = nextBytesInRange({0x90, 0xBF, 0x80, 0xBF, 0x80, 0xBF});
            else if (c >= 0xF1 && c <= 0xF3)
                ok = nextBytesInRange({0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF});
            else if (c == 0xF4)
                ok = nextBytesInRange({0x80, 0x8F, 0x80, 0xBF, 0x80, 0xBF});
            else
                m_error = u"invalid string: ill-formed UTF-8 byte"_s;
            if (!ok)
                return Token::ParseError;
        }
    }

    static bool isDigit(int c) { return c >= '0' && c <= '9'; }

    Token numberError(const char *message)
    {
        m_error = QString::fromLatin1(message);
        return Token::ParseError;
    }

    // RFC 8259's number grammar as nlohmann's state machine reads it; the character after the
    // number is given back.
    Token scanNumber()
    {
        reset();
        int c = m_current;
        if (c == '-') {
            c = get();
            if (!isDigit(c))
                return numberError("invalid number; expected digit after '-'");
        }
        if (c != '0') {
            while (isDigit(c = get())) {
            }
        } else {
            c = get();
        }
        if (c == '.') {
            if (!isDigit(get()))
                return numberError("invalid number; expected digit after '.'");
            while (isDigit(c = get())) {
            }
        }
        if (c == 'e' || c == 'E') {
            c = get();
            if (c == '+' || c == '-') {
                if (!isDigit(get()))
                    return numberError("invalid number; expected digit after exponent sign");
            } else if (!isDigit(c)) {
                return numberError("invalid number; expected '+', '-', or digit after exponent");
            }
            while (isDigit(get())) {
            }
        }
        unget();
        // What does not fit a double is out of range (an integer too long for 64 bits is read
        // as a double first).
        static const locale_t cLocale = ::newlocale(LC_ALL_MASK, "C", locale_t(nullptr));   // "." whatever the locale
        m_overflow = std::isinf(::strtod_l(m_tokenString.constData(), nullptr, cLocale));
        return Token::Number;
    }

    const QByteArray &m_input;
    qsizetype m_at = 0;
    int m_current = Eof;
    bool m_unget = false;
    qint64 m_total = 0;
    qint64 m_column = 0;
    qint64 m_lines = 0;
    QByteArray m_tokenString;
    QString m_error;
    bool m_overflow = false;
};

} // namespace

std::optional<QString> jsonSyntaxError(const QByteArray &body)
{
    Lexer lexer(body);
    Token last = Token::Uninitialized;
    auto next = [&] { return last = lexer.scan(); };
    auto fail = [&](Token expected, const char *context) {
        QString what = u"syntax error while parsing "_s + QLatin1StringView(context) + u" - "_s;
        if (last == Token::ParseError)
            what += lexer.error() + u"; last read: '"_s + lexer.tokenString() + u'\'';
        else
            what += u"unexpected "_s + QLatin1StringView(tokenName(last));
        if (expected != Token::Uninitialized)
            what += u"; expected "_s + QLatin1StringView(tokenName(expected));
        return u"[json.exception.parse_error.101] parse error at "_s + lexer.position() + u": "_s + what;
    };

    // nlohmann's sax_parse_internal: a stack of open arrays (true) and objects (false).
    next();
    QList<bool> open;
    bool closed = false;   // a container just closed: go on with the one around it
    while (true) {
        if (!closed) {
            switch (last) {
            case Token::BeginObject:
                if (next() == Token::EndObject)
                    break;
                if (last != Token::String)
                    return fail(Token::String, "object key");
                if (next() != Token::NameSeparator)
                    return fail(Token::NameSeparator, "object separator");
                open.append(false);
                next();
                continue;
            case Token::BeginArray:
                if (next() == Token::EndArray)
                    break;
                open.append(true);
                continue;
            case Token::Number:
                if (lexer.numberOverflow())
                    return u"[json.exception.out_of_range.406] number overflow parsing '"_s + lexer.tokenString() + u'\'';
                break;
            case Token::True:
            case Token::False:
            case Token::Null:
            case Token::String:
                break;
            case Token::ParseError:
                return fail(Token::Uninitialized, "value");
            case Token::EndOfInput:
                if (lexer.charsReadTotal() == 1) {
                    return u"[json.exception.parse_error.101] parse error at "_s + lexer.position()
                        + u": attempting to parse an empty input; check that your input string or stream "
                          "contains the expected JSON"_s;
                }
                return fail(Token::LiteralOrValue, "value");
            default:
                return fail(Token::LiteralOrValue, "value");
            }
        }
        closed = false;
        if (open.isEmpty())
            break;
        if (open.last()) {
            if (next() == Token::ValueSeparator) {
                next();
                continue;
            }
            if (last != Token::EndArray)
                return fail(Token::EndArray, "array");
            open.removeLast();
            closed = true;
            continue;
        }
        if (next() == Token::ValueSeparator) {
            if (next() != Token::String)
                return fail(Token::String, "object key");
            if (next() != Token::NameSeparator)
                return fail(Token::NameSeparator, "object separator");
            next();
            continue;
        }
        if (last != Token::EndObject)
            return fail(Token::EndObject, "object");
        open.removeLast();
        closed = true;
    }
    if (next() != Token::EndOfInput)
        return fail(Token::EndOfInput, "value");
    return std::nullopt;
}

} // namespace switchyard::fake
