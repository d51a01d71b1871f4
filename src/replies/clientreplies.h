#pragma once

#include "hosts/hostrefusal.h"
#include "hosts/hoststatemachine.h"
#include "http/httpheaders.h"
#include "api/errorreply.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace switchyard {

// One refusal the relay makes itself: its status, its words and the headers beyond
// ErrorReply::headers() (JSON, X-Should-Retry: false). The body's shape follows the request's
// API (ErrorReply): OpenAI's, which llama.cpp's native paths share, Anthropic's, the Responses
// API's; streamed, once an early 200 is out, as an SSE error event.
struct ClientReply
{
    int status = 0;
    QString message;
    HeaderList extraHeaders;
    int sentStatus = 0;   // the HTTP status it goes out with when not `status` (ClientReplies::forCodex)
    // The facts `message` words, when it words some (a host's refusal, hosts/recordedfacts.h):
    // the history keeps them beside the message, and the window words them itself.
    QJsonObject facts{};

    int httpStatus() const { return sentStatus ? sentStatus : status; }
    HeaderList headers() const { return ErrorReply::headers() + extraHeaders; }
    QByteArray body(ApiShape shape) const { return ErrorReply::body(shape, status, message); }
    QByteArray sseEvent(ApiShape shape) const { return ErrorReply::sseEvent(shape, status, message); }
};

// The catalogue of what API clients are told: every refusal, rewrite and waiting comment the
// relay sends, in English and never translated (a relay under a German locale still speaks its
// clients' language). The layers below hand up facts (HostRefusal, EngineFailure); the window
// words the same facts itself, through tr(). tests/relay/tst_clientreplies.cpp lists each once.
namespace ClientReplies {

// Before a request is routed.
HeaderList corsHeaders();   // a browser's preflight: anything from anywhere, cached for a day
ClientReply adminOnlyHere();
ClientReply keyMissing();
ClientReply keyWrong();
ClientReply changesHostBehindRelaysBack(const QString &method, const QString &path);
ClientReply bodyNotAnObject();
ClientReply modelNotAString();
ClientReply modelMissing();
// Names up to 20 known aliases, leaving out any whose name would make a client retry.
ClientReply unknownModel(const QString &model, const QStringList &knownAliases);

// The relay shuts down (SIGTERM, quit): a request still waiting for its host is answered at once
// rather than cut when the grace period ends; nothing of it reached an engine.
ClientReply relayStopping();

// The host.
ClientReply hostDown(const QString &host, const QString &why);
ClientReply fromHost(const HostRefusal &refusal);
// Why an engine did not start, as the relay and the admin API give it: the failure's record,
// which is English like every record (EngineFailure::toString).
QString engineFailure(const EngineFailure &failure);

// The engine, once the request went upstream.
ClientReply engineUnreachable(const QString &why);   // when no host is named to mark down
ClientReply engineCouldNotLoad(const QString &upstreamMessage);
// The engine's own 5xx (not a 503): its words, unless they would make a client retry.
ClientReply engineFailed(const QString &upstreamMessage);
// The engine's own 4xx about the request (bad grammar, a field it refuses), its words as they
// came; passed on as it is to every client but one with a form of its own (forClaudeCode).
ClientReply engineRefusedRequest(int status, const QString &upstreamMessage);
ClientReply upstreamSilent(const QString &why);
ClientReply upstreamFailedBeforeAnswering(const QString &why);
ClientReply streamBrokeOff(const QString &why);   // a 424: no client sends the turn again

// llama.cpp's errors on /v1/messages in the words Claude Code acts on (ErrorRewrite decides
// when): a late system message, a prompt over the context size.
ClientReply systemMessageNotFirst(const QString &upstreamMessage);
ClientReply promptTooLong(qint64 promptTokens, qint64 contextTokens);
ClientReply promptTooLong(const QString &upstreamMessage);

// Codex (0.169.0, measured) sends a request again five times after any refusal but a 400,
// X-Should-Retry or not, and stops at once at a 400 (and at the response.failed event that
// follows every Responses API error event, ErrorReply::sseEvent). Its requests: /v1/responses
// with a User-Agent of codex_exec/..., codex_cli_rs/..., or another codex_ one.
bool isCodex(QByteArrayView path, QByteArrayView userAgent);
// The reply as Codex gets it: a 404, 423 or 424 goes out as a 400; the body still names the
// real status in its "code" and says why in the same words.
ClientReply forCodex(ClientReply reply);
// Claude Code (2.1.197 and 2.1.332, measured) answers a 404 on its streaming call by sending
// the same request again without streaming, whatever its settings or the reply's headers and
// body say; a 410 it takes as final (one request), as it does a 424 or 421. Its requests:
// /v1/messages with a User-Agent of claude-cli/...
bool isClaudeCode(QByteArrayView path, QByteArrayView userAgent);
// The reply as Claude Code gets it: a 404 goes out as a 410 ("gone": a retry will not bring
// it); the body keeps not_found_error and the same words. A 400 or 422 it has no handler for
// the newest (2.1.337, measured) sends again five more times, the last three with its whole tool
// list; a 424 it takes as final: so those go out as a 424, the body keeping
// invalid_request_error and the words.
ClientReply forClaudeCode(ClientReply reply);
// The wire form a client's refusals take: the clients above have one of their own, everyone
// else (and a client not recognised) gets the reply as it is. Kept with a request that waits, so a
// refusal answered later (a switch that fails, a lease) takes the same form as one answered at once.
enum class ReplyForm { AsIs, Codex, ClaudeCode };
ReplyForm replyFormFor(QByteArrayView path, QByteArrayView userAgent);
ClientReply inForm(ClientReply reply, ReplyForm form);
// The reply as the client that sent `path` with `userAgent` gets it.
ClientReply forClient(ClientReply reply, QByteArrayView path, QByteArrayView userAgent);

// What a streaming client waiting for its answer reads after the relay's early 200.
QByteArray waitingComment(const QString &what);
QString waitingForHost(const HostStateMachine::Wait &wait);
QString waitingForLoad(const QString &host, const QString &model);
QString waitingForAnswer(const QString &host, const QString &model);
QString waitingForUpstream();

} // namespace ClientReplies

} // namespace switchyard
