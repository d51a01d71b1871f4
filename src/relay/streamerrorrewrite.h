#pragma once

#include "api/apishape.h"

#include <QByteArray>

namespace switchyard {

// An engine's own error inside a stream (`data: {"error":{"code":500,...}}`), passed on in words
// no client sends the turn again for. On chat completions: opencode (1.18.33) repeats the whole
// turn when such an event holds a 5xx or 429 number, "server_error" or "unavailable"; it is
// rewritten only then. On /v1/responses always: Codex (0.169) reads no error event and sends the
// request again, five times, unless a response.failed with a code it does not retry came
// (docs/CLIENTS.md). Every other byte passes unchanged and in order; only a line that may still
// become an error event is held until its end arrives.
class StreamErrorRewrite
{
public:
    explicit StreamErrorRewrite(ApiShape shape = ApiShape::OpenAI) : m_shape(shape) {}

    // The bytes to send now for this piece of the upstream's stream.
    QByteArray feed(const QByteArray &data);
    // What is still held when the stream ends.
    QByteArray flush();
    bool rewrote() const { return m_rewrote; }

private:
    QByteArray rewriteLine(const QByteArray &line);
    bool mayBecomeErrorEvent(QByteArrayView start) const;

    ApiShape m_shape;
    QByteArray m_held;   // an unfinished line that starts like an error event
    bool m_atLineStart = true;
    bool m_rewrote = false;
    bool m_afterErrorEventLine = false;   // the last whole line was "event: error" (responses)
};

} // namespace switchyard
