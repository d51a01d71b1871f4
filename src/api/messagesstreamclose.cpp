#include "api/messagesstreamclose.h"
#include "api/sselines.h"

#include "common/jsonwriter.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

using SseLines::DataPrefix;
using SseLines::ErrorEventLine;
using SseLines::EventPrefix;

QByteArray frame(const char *event, const QByteArray &json)
{
    return "event: "_ba + event + "\ndata: " + json + "\n\n";
}

} // namespace

QByteArray MessagesStreamClose::feed(const QByteArray &data)
{
    QByteArray out;
    qsizetype pos = 0;
    while (pos < data.size()) {
        const qsizetype newline = data.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? data.size() : newline + 1;
        const QByteArrayView piece = QByteArrayView(data).sliced(pos, end - pos);
        pos = end;
        const bool wasHeld = m_lineHeld;
        m_line += piece;
        if (newline < 0) {
            // The line goes on in the next read. It is held while it may still become
            // "event: error" (the block must go before it) or is that error's data line.
            m_lineHeld = !m_heldError.isEmpty() || ErrorEventLine.startsWith(QByteArrayView(m_line));
            if (!m_lineHeld)
                out += wasHeld ? QByteArrayView(m_line) : piece;
            break;
        }
        const QByteArray line = std::exchange(m_line, {});
        m_lineHeld = false;
        if (!m_heldError.isEmpty()) {
            out += closeBefore(line);
        } else if (QByteArrayView(line).trimmed() == ErrorEventLine) {
            m_heldError = line;   // its data line names the message
        } else {
            if (line.startsWith(EventPrefix))
                track(QByteArrayView(line).sliced(EventPrefix.size()).trimmed());
            out += wasHeld ? QByteArrayView(line) : piece;
        }
    }
    return out;
}

QByteArray MessagesStreamClose::closeBefore(const QByteArray &dataLine)
{
    QString message = u"the engine ended its answer with an error"_s;
    if (dataLine.startsWith(DataPrefix)) {
        const QJsonObject event = QJsonDocument::fromJson(dataLine.sliced(DataPrefix.size())).object();
        const QJsonObject error = SseLines::errorOf(event);
        if (const QString said = error.value("message"_L1).toString(); !said.isEmpty())
            message = said;
    }
    const QByteArray errorLine = std::exchange(m_heldError, {});
    return beforeError(message) + errorLine + dataLine;
}

void MessagesStreamClose::track(QByteArrayView eventName)
{
    if (eventName == "message_start") {
        m_messageStarted = true;
    } else if (eventName == "content_block_start") {
        m_blockOpen = true;
        ++m_nextIndex;
    } else if (eventName == "content_block_stop") {
        m_blockOpen = false;
    }
}

QByteArray MessagesStreamClose::flush()
{
    // A held line is still unsent; a line that was passed on as it came is only kept to be read.
    QByteArray rest = std::exchange(m_heldError, {});
    if (std::exchange(m_lineHeld, false))
        rest += m_line;
    m_line.clear();
    return rest;
}

QByteArray MessagesStreamClose::beforeError(const QString &message)
{
    QByteArray out;
    // A stream cut inside a line: what went out of it is ended first, or the block would join
    // it; what was held is dropped with the rest of that line.
    if (!m_line.isEmpty() && !m_lineHeld)
        out += "\n\n";
    m_line.clear();
    m_lineHeld = false;
    m_heldError.clear();
    if (!m_messageStarted) {
        JsonWriter json;
        json.beginObject().key("type").string("message_start").key("message").beginObject();
        json.key("id").string("msg_switchyard").key("type").string("message").key("role").string("assistant");
        json.key("model").string("").key("content").beginArray().endArray();
        json.key("stop_reason").null().key("stop_sequence").null();
        json.key("usage").beginObject().key("input_tokens").integer(0).key("output_tokens").integer(0).endObject();
        json.endObject().endObject();
        out += frame("message_start", json.take());
        m_messageStarted = true;
    }
    const auto stop = [](int index) {
        JsonWriter json;
        json.beginObject().key("type").string("content_block_stop").key("index").integer(index).endObject();
        return frame("content_block_stop", json.take());
    };
    if (m_blockOpen)
        out += stop(m_nextIndex - 1);
    const int index = m_nextIndex++;
    JsonWriter start;
    start.beginObject().key("type").string("content_block_start").key("index").integer(index);
    start.key("content_block").beginObject().key("type").string("text").key("text").string("").endObject().endObject();
    out += frame("content_block_start", start.take());
    JsonWriter delta;
    delta.beginObject().key("type").string("content_block_delta").key("index").integer(index);
    delta.key("delta").beginObject().key("type").string("text_delta").key("text").string(message).endObject().endObject();
    out += frame("content_block_delta", delta.take());
    out += stop(index);
    m_blockOpen = false;
    return out;
}

} // namespace switchyard
