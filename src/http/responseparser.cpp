#include "http/responseparser.h"

#include <algorithm>

namespace switchyard {

namespace {
constexpr qsizetype MaxHeadBytes = 256 * 1024;
constexpr qsizetype MaxLineBytes = 64 * 1024;

// Clears the carried line when the line it held has been handled (it may be viewed until then).
struct LineDone
{
    QByteArray &line;
    explicit LineDone(QByteArray &l) : line(l) {}
    ~LineDone()
    {
        if (!line.isEmpty())
            line.resize(0);
    }
    Q_DISABLE_COPY_MOVE(LineDone)
};

// RFC 9112 chunk-size: hex digits only, no sign and no "0x" (which toLongLong() let through);
// more than 15 of them would overflow. No allocation: a stream has one of these per event.
qint64 parseChunkSize(QByteArrayView digits, bool *ok)
{
    *ok = false;
    if (digits.isEmpty() || digits.size() > 15)
        return 0;
    qint64 value = 0;
    for (const char c : digits) {
        int digit = 0;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        else
            return 0;
        value = value * 16 + digit;
    }
    *ok = true;
    return value;
}

} // namespace

void ResponseParser::fail(const QString &why)
{
    m_state = State::Error;
    m_error = why;
}

bool ResponseParser::keepAlive() const
{
    if (m_state != State::Done)
        return false;
    const QByteArray connection = HttpHeaders::value(m_headers, "connection");
    if (m_minorVersion == 0)
        return HttpHeaders::hasToken(connection, "keep-alive");
    return !HttpHeaders::hasToken(connection, "close");
}

bool ResponseParser::parseHeaderLine(QByteArrayView line)
{
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return false;
    m_headers.append({HttpHeaders::common(line.first(colon)),
                      HttpHeaders::common(HttpHeaders::trimmed(line.sliced(colon + 1)))});
    return true;
}

ResponseParser ResponseParser::chunkedBody()
{
    ResponseParser parser;
    parser.m_headDone = true;
    parser.m_chunked = true;
    parser.m_state = State::ChunkSize;
    return parser;
}

void ResponseParser::headersDone()
{
    if ((m_status >= 100 && m_status < 200) && m_status != 101) {
        // Interim answer (100 Continue): the real one follows.
        m_headers.clear();
        m_status = 0;
        m_state = State::StatusLine;
        return;
    }
    m_headDone = true;
    m_chunked = HttpHeaders::hasToken(HttpHeaders::value(m_headers, "transfer-encoding"), "chunked");
    const QByteArray length = HttpHeaders::value(m_headers, "content-length");
    if (!length.isEmpty() && !m_chunked) {
        bool ok = false;
        m_contentLength = length.toLongLong(&ok);
        if (!ok || m_contentLength < 0) {
            fail(QStringLiteral("invalid Content-Length"));
            return;
        }
    }
    if (m_headRequest || m_status == 204 || m_status == 304) {
        m_state = State::Done;
    } else if (m_chunked) {
        m_state = State::ChunkSize;
    } else if (m_contentLength >= 0) {
        m_remaining = m_contentLength;
        m_state = m_remaining == 0 ? State::Done : State::Body;
    } else {
        m_state = State::UntilClose;
    }
}

qsizetype ResponseParser::feed(QByteArrayView input, QByteArray *body)
{
    qsizetype pos = 0;
    const qsizetype size = input.size();
    while (pos < size && m_state != State::Done && m_state != State::Error) {
        switch (m_state) {
        case State::Body:
        case State::ChunkData: {
            // m_remaining bytes of a Content-Length body, or of the current chunk.
            const qsizetype n = qMin<qint64>(m_remaining, size - pos);
            body->append(input.data() + pos, n);
            pos += n;
            m_remaining -= n;
            if (m_remaining == 0)
                m_state = m_state == State::Body ? State::Done : State::ChunkDataEnd;
            break;
        }
        case State::UntilClose:
            body->append(input.data() + pos, size - pos);
            pos = size;
            break;
        default: {
            // Line-oriented states.
            const qsizetype nl = input.indexOf('\n', pos);
            if (nl < 0) {
                m_line.append(input.data() + pos, size - pos);
                m_headBytes += size - pos;
                pos = size;
                if (m_line.size() > MaxLineBytes || m_headBytes > MaxHeadBytes)
                    fail(QStringLiteral("response head too large"));
                break;
            }
            // A line that lies whole in this input is looked at where it is; only one that began
            // in an earlier feed is joined in m_line (two of each chunk's lines were copies).
            QByteArrayView line;
            if (m_line.isEmpty()) {
                line = input.sliced(pos, nl - pos);
            } else {
                m_line.append(input.data() + pos, nl - pos);
                line = m_line;
            }
            m_headBytes += nl + 1 - pos;
            pos = nl + 1;
            if (line.endsWith('\r'))
                line.chop(1);
            const LineDone lineDone(m_line);   // empties m_line once the line is handled
            if (m_headBytes > MaxHeadBytes) {
                fail(QStringLiteral("response head too large"));
                break;
            }
            switch (m_state) {
            case State::StatusLine: {
                if (line.isEmpty())
                    break;   // tolerate stray CRLF before the status line
                if (!line.startsWith("HTTP/1.") || line.size() < 12 || line.at(8) != ' ') {
                    fail(QStringLiteral("not an HTTP response"));
                    break;
                }
                m_minorVersion = line.at(7) == '0' ? 0 : 1;
                const QByteArrayView code = line.sliced(9, 3);
                const bool ok = std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; });
                m_status = ok ? (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0') : 0;
                if (!ok || m_status < 100) {
                    m_status = 0;
                    fail(QStringLiteral("invalid status line"));
                    break;
                }
                m_state = State::Headers;
                m_headers.reserve(16);   // llama-server sends 7 or 8: no regrowth on the way
                break;
            }
            case State::Headers:
                if (line.isEmpty()) {
                    m_headBytes = 0;
                    headersDone();
                } else if (!parseHeaderLine(line)) {
                    fail(QStringLiteral("invalid header line"));
                }
                break;
            case State::ChunkSize: {
                QByteArrayView sizePart = line;
                const qsizetype semi = sizePart.indexOf(';');
                if (semi >= 0)
                    sizePart = sizePart.first(semi);
                bool ok = false;
                const qint64 chunk = parseChunkSize(HttpHeaders::trimmed(sizePart), &ok);
                if (!ok) {
                    fail(QStringLiteral("invalid chunk size"));
                    break;
                }
                m_headBytes = 0;
                if (chunk == 0) {
                    m_state = State::Trailers;
                } else {
                    m_remaining = chunk;
                    m_state = State::ChunkData;
                }
                break;
            }
            case State::ChunkDataEnd:
                if (!line.isEmpty()) {
                    fail(QStringLiteral("chunk not followed by CRLF"));
                    break;
                }
                m_headBytes = 0;
                m_state = State::ChunkSize;
                break;
            case State::Trailers:
                if (line.isEmpty())
                    m_state = State::Done;
                break;
            default:
                break;
            }
            break;
        }
        }
    }
    return pos;
}

void ResponseParser::connectionClosed()
{
    if (m_state == State::UntilClose)
        m_state = State::Done;
    else if (m_state != State::Done && m_state != State::Error)
        fail(headComplete() ? QStringLiteral("connection closed in the middle of the body")
                            : QStringLiteral("connection closed before a response"));
}

} // namespace switchyard
