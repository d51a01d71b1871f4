#include "relay/streamerrorrewrite.h"

#include "api/errorreply.h"
#include "replies/retrywords.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr QByteArrayView ErrorPrefix = "data: {\"error\"";

// Whether a line that begins with `start` may still turn out to be an error event.
bool mayBecomeErrorEvent(QByteArrayView start)
{
    const qsizetype n = std::min(start.size(), ErrorPrefix.size());
    return start.first(n) == ErrorPrefix.first(n);
}

} // namespace

QByteArray StreamErrorRewrite::feed(const QByteArray &data)
{
    // The hot path: a read without an error event, ending where no error event can begin, goes
    // on as it came (shared, not copied).
    if (m_held.isEmpty() && !data.contains("{\"error\"")) {
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
    if (!line.startsWith(ErrorPrefix))
        return line;
    const QByteArray json = line.sliced(6).trimmed();
    const QJsonObject error = QJsonDocument::fromJson(json).object().value("error"_L1).toObject();
    const QString message = error.value("message"_L1).toString();
    if (error.isEmpty() || !RetryWords::presentInStream(QString::fromUtf8(json).remove(message)))
        return line;   // nothing in it but the engine's own words makes a client retry
    m_rewrote = true;
    const int code = error.value("code"_L1).toInt(500);
    // The event ends with its blank line, which follows as a line of its own.
    return ErrorReply::sseEvent(ApiShape::OpenAI, code, message).chopped(1);
}

} // namespace switchyard
