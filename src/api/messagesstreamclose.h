#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

// Claude Code (2.1.197, measured) answers an error event in a Messages stream by sending the whole
// request again without streaming, unless a content block of the answer was completed before the
// error: then it shows the error and stops. CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK does the
// same, but only a user who exported the relay's settings has it. So for Claude Code an error in
// its stream is preceded by a completed text block that says it, after whatever the engine's
// stream had started: the message_start when none went out, a stop for a block left open.
//
// Fed the stream's bytes on their way to the client, it follows which of those went out and
// puts the block before an engine's own "event: error" (held until its data line names the
// message); `beforeError` gives the same events for an error the relay writes itself.
class MessagesStreamClose
{
public:
    // The bytes to send now for this piece of the stream.
    QByteArray feed(const QByteArray &data);
    // What is still held when the stream ends.
    QByteArray flush();
    // The events that make the answer so far final for Claude Code, saying `message`; after them
    // the caller writes its error event. Each call counts what it sent.
    QByteArray beforeError(const QString &message);

private:
    QByteArray closeBefore(const QByteArray &dataLine);
    void track(QByteArrayView eventName);

    QByteArray m_line;          // the line that has begun but not ended, as far as it came
    bool m_lineHeld = false;    // ... and not sent yet
    QByteArray m_heldError;     // an engine's "event: error" line, until its data line
    bool m_messageStarted = false;
    bool m_blockOpen = false;
    int m_nextIndex = 0;
};

} // namespace switchyard
