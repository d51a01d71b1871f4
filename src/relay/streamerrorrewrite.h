#pragma once

#include <QByteArray>

namespace switchyard {

// An engine's own error inside a chat-completions stream (`data: {"error":{"code":500,...}}`),
// passed on in words no client sends the turn again for: opencode (1.18.33) repeats the whole
// turn when such an event holds a 5xx or 429 number, "server_error" or "unavailable"
// (docs/CLIENTS.md). Every other byte passes unchanged and in order; only a line that may still
// become an error event is held until its end arrives.
class StreamErrorRewrite
{
public:
    // The bytes to send now for this piece of the upstream's stream.
    QByteArray feed(const QByteArray &data);
    // What is still held when the stream ends.
    QByteArray flush();
    bool rewrote() const { return m_rewrote; }

private:
    QByteArray rewriteLine(const QByteArray &line);

    QByteArray m_held;   // an unfinished line that starts like an error event
    bool m_atLineStart = true;
    bool m_rewrote = false;
};

} // namespace switchyard
