#pragma once

#include "api/apishape.h"
#include "http/httpheaders.h"

#include <QByteArray>
#include <QString>

namespace switchyard {

namespace ErrorReply {

ApiShape shapeForPath(const QString &path);

// {"error":{"message","type","code","source":"switchyard"}} or Anthropic's
// {"type":"error","error":{"type","message","source"}}; the "source" marks the relay's own errors.
QByteArray body(ApiShape shape, int status, const QString &message);
// The type word for a status in the given shape ("not_found_error", "api_error", ...).
QString typeFor(ApiShape shape, int status);

// Headers for a refusal: JSON, and X-Should-Retry: false so SDKs and Claude Code do not retry
// what a retry cannot fix.
HeaderList headers();

// The same error as one SSE event, for when a 200 has already gone out on a stream. On chat
// completions a 5xx or 429 is told as a 424: nothing in the event may make a client send the
// turn again (opencode 1.18.33 retries on those numbers inside a stream; docs/CLIENTS.md).
QByteArray sseEvent(ApiShape shape, int status, const QString &message);

} // namespace ErrorReply
} // namespace switchyard
