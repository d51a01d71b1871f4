#include "relay/streamerrorrewrite.h"

#include "api/errorreply.h"
#include "api/sselines.h"
#include "replies/retrywords.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr QByteArrayView ErrorPrefix = "data: {\"error\"";
using SseLines::DataPrefix;
using SseLines::ErrorEventLine;

bool startsLike(QByteArrayView start, QByteArrayView prefix)
{
    const qsizetype n = std::min(start.size(), prefix.size());
    return start.first(n) == prefix.first(n);
}

} // namespace

// Whether a line that begins with `start` may still turn out to be an error event, or the line
// that names one.
bool StreamErrorRewrite::mayBecomeErrorEvent(QByteArrayView start) const
{
    if (startsLike(start, ErrorPrefix))
        return true;
    return m_shape == ApiShape::Responses
        && (startsLike(start, ErrorEventLine) || (m_afterErrorEventLine && startsLike(start, DataPrefix)));
}

QByteArray StreamErrorRewrite::feed(const QByteArray &data)
{
    // The hot path: a read without an error event, ending where no error event can begin, goes
    // on as it came (shared, not copied).
    const bool namedEvent = m_shape == ApiShape::Responses && (m_afterErrorEventLine || data.contains(ErrorEventLine));
    if (m_held.isEmpty() && !namedEvent && !data.contains("{\"error\"")) {
        const qsizetype lastNewline = data.lastIndexOf('\n');
        const QByteArrayView tail = QByteArrayView(data).sliced(lastNewline + 1);
        const bool tailStartsLine = lastNewline >= 0 || m_atLineStart;
        if (tail.isEmpty() || !tailStartsLine || !mayBecomeErrorEvent(tail)) {
            if (!data.isEmpty())
                m_atLineStart = tail.isEmpty();
            return data;
        }
    }
    QByteArray out;
    qsizetype pos = 0;
    while (pos < data.size()) {
        const qsizetype newline = data.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? data.size() : newline + 1;
        const QByteArrayView piece = QByteArrayView(data).sliced(pos, end - pos);
        if (!m_held.isEmpty() || (m_atLineStart && mayBecomeErrorEvent(piece))) {
            m_held += piece;
            if (newline >= 0) {
                out += rewriteLine(m_held);
                m_held.clear();
            } else if (!mayBecomeErrorEvent(m_held)) {
                out += m_held;   // not an error event after all: nothing more to hold for
                m_held.clear();
            }
        } else {
            out += piece;
            if (newline >= 0)
                m_afterErrorEventLine = false;   // a whole line went by
        }
        m_atLineStart = newline >= 0 || (m_atLineStart && !m_held.isEmpty());
        pos = end;
    }
    return out;
}

QByteArray StreamErrorRewrite::flush()
{
    return std::exchange(m_held, {});
}

QByteArray StreamErrorRewrite::rewriteLine(const QByteArray &line)
{
    if (m_shape == ApiShape::Responses && line.trimmed() == ErrorEventLine) {
        m_afterErrorEventLine = true;   // its data line comes next
        return line;
    }
    const bool named = std::exchange(m_afterErrorEventLine, false);
    if (!line.startsWith(ErrorPrefix) && !(named && line.startsWith(DataPrefix)))
        return line;
    const QByteArray json = line.sliced(DataPrefix.size()).trimmed();
    const QJsonObject event = QJsonDocument::fromJson(json).object();
    const QJsonObject error = SseLines::errorOf(event);
    const QString message = error.value("message"_L1).toString();
    if (error.isEmpty() || message.isEmpty())
        return line;
    const int code = error.value("code"_L1).toInt(500);
    if (m_shape == ApiShape::Responses) {
        m_rewrote = true;
        // A 424 is told with a code Codex does not retry. The engine's own "event: error" line,
        // if it sent one, is already out: this starts at the data line.
        constexpr QByteArrayView EventLine = "event: error\n";
        const QByteArray events = ErrorReply::sseEvent(ApiShape::Responses, code >= 500 || code == 429 ? 424 : code, message);
        return events.sliced(EventLine.size()).chopped(1);
    }
    if (!RetryWords::presentInStream(QString::fromUtf8(json).remove(message)))
        return line;   // nothing in it but the engine's own words makes a client retry
    m_rewrote = true;
    // The event ends with its blank line, which follows as a line of its own.
    return ErrorReply::sseEvent(ApiShape::OpenAI, code, message).chopped(1);
}

} // namespace switchyard
