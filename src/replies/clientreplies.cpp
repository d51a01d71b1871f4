#include "replies/clientreplies.h"

#include "hosts/recordedfacts.h"
#include "replies/retrywords.h"

namespace switchyard::ClientReplies {

using namespace Qt::StringLiterals;

namespace {

ClientReply reply(int status, const QString &message, HeaderList extraHeaders = {})
{
    return {status, message, std::move(extraHeaders)};
}

// A client told to authenticate also learns how (RFC 9110 §11.6.1).
const HeaderList AskForBearer{{"WWW-Authenticate", "Bearer"}};

} // namespace

HeaderList corsHeaders()
{
    return {{"Access-Control-Allow-Origin", "*"},
            {"Access-Control-Allow-Methods", "GET, POST, OPTIONS"},
            {"Access-Control-Allow-Headers", "*"},
            {"Access-Control-Max-Age", "86400"}};
}

ClientReply adminOnlyHere()
{
    return reply(403, u"the admin API answers only on this machine, or with the admin token "
                      "(Authorization: Bearer TOKEN)"_s);
}

ClientReply keyMissing()
{
    return reply(401, u"this relay needs an API key: send \"Authorization: Bearer KEY\" or \"x-api-key: KEY\""_s,
                 AskForBearer);
}

ClientReply keyWrong()
{
    // Never quote the key: error messages end up in the journal and the history.
    return reply(401, u"invalid API key"_s, AskForBearer);
}

ClientReply changesHostBehindRelaysBack(const QString &method, const QString &path)
{
    return reply(403, u"%1 %2 is refused: it would change a host behind the relay's back"_s.arg(method, path));
}

ClientReply bodyNotAnObject()
{
    return reply(400, u"the request body is not a JSON object"_s);
}

ClientReply modelNotAString()
{
    return reply(400, u"\"model\" must be a string"_s);
}

ClientReply modelMissing()
{
    return reply(400, u"model name is missing from the request"_s);
}

ClientReply unknownModel(const QString &model, const QStringList &knownAliases)
{
    // A model called "tiny-500m" reads as a 500 to opencode and pi: it is left out of the list.
    QStringList named;
    for (const QString &alias : knownAliases) {
        if (named.size() < 20 && !RetryWords::present(alias))
            named.append(alias);
    }
    QString list = named.isEmpty() ? u"none"_s : named.join(u", "_s);
    if (knownAliases.size() > named.size())
        list += u", and %1 more (GET /v1/models lists them all)"_s.arg(knownAliases.size() - named.size());
    return reply(404, u"model '%1' not found; known models: %2"_s.arg(model, list));
}

ClientReply relayStopping()
{
    // 424 like a host that is down, not a 5xx every client retries: the retry would meet a
    // relay that no longer listens. No word here is one a client retries by.
    return reply(424, u"the relay is shutting down: this request had not reached an engine; "
                      "send it again once the relay is back"_s);
}

ClientReply hostDown(const QString &host, const QString &why)
{
    // 424, not a 5xx: every client retries a 5xx, and a retry meets the same dead box.
    return reply(424, u"host %1 is down: %2"_s.arg(host, why));
}

namespace {

ClientReply fromHostInWords(const HostRefusal &refusal)
{
    const QString &host = refusal.host;
    switch (refusal.reason) {
    case HostRefusal::Reason::Leased:
        return reply(refusal.status(), u"host %1 is leased by %2 until %3"_s
                                           .arg(host, refusal.owner, refusal.until.toString(Qt::ISODate)));
    case HostRefusal::Reason::SwitchFailed:
        return reply(refusal.status(), u"switching host %1 to engine %2 failed: %3"_s
                                           .arg(host, refusal.engine,
                                                refusal.failure ? engineFailure(*refusal.failure) : QString()));
    case HostRefusal::Reason::StaticHost:
        return reply(refusal.status(), u"host %1 runs one static engine and cannot switch"_s.arg(host));
    case HostRefusal::Reason::NoSuchEngine:
        return reply(refusal.status(), u"host %1 has no engine \"%2\" (its engines: %3)"_s
                                           .arg(host, refusal.engine, refusal.engines.join(u", "_s)));
    case HostRefusal::Reason::LeaseTakenOver:
        return reply(refusal.status(), u"the lease of host %1 was taken by %2 before it was granted"_s
                                           .arg(host, refusal.owner));
    case HostRefusal::Reason::LeaseReleased:
        return reply(refusal.status(), u"the lease of host %1 was released before it was granted"_s.arg(host));
    case HostRefusal::Reason::WakeTimedOut:
        return reply(refusal.status(), u"host %1 did not wake: no answer within %2 s"_s
                                           .arg(host, QString::number(refusal.wakeTimeout.count() / 1000.0)));
    }
    return reply(refusal.status(), refusal.facts());
}

} // namespace

ClientReply fromHost(const HostRefusal &refusal)
{
    ClientReply worded = fromHostInWords(refusal);
    worded.facts = RecordedFacts::of(refusal);
    return worded;
}

QString engineFailure(const EngineFailure &failure)
{
    return failure.toString();
}

ClientReply engineUnreachable(const QString &why)
{
    return reply(424, u"the engine is unreachable: %1"_s.arg(why));
}

ClientReply engineCouldNotLoad(const QString &upstreamMessage)
{
    // A router answers 500 when a model cannot load, and every client retries a 500.
    return reply(424, u"the engine could not load the model: %1"_s.arg(upstreamMessage));
}

ClientReply engineFailed(const QString &upstreamMessage)
{
    // A 424, not the engine's 5xx: every client retries a 5xx, and the retry meets the same
    // engine with the same request. Its words, unless they say what a client retries by text
    // ("Internal Server Error"); the journal keeps them either way.
    if (RetryWords::presentInStream(upstreamMessage))
        return reply(424, u"the engine failed to answer this request (its reason is in the relay's journal)"_s);
    return reply(424, u"the engine failed to answer this request: %1"_s.arg(upstreamMessage));
}

ClientReply engineRefusedRequest(int status, const QString &upstreamMessage)
{
    return reply(status, upstreamMessage);
}

ClientReply upstreamSilent(const QString &why)
{
    // The engine took the request and went silent: a retry meets the same hung engine.
    return reply(424, u"upstream stopped answering: %1"_s.arg(why));
}

ClientReply upstreamFailedBeforeAnswering(const QString &why)
{
    // The engine answered something that is not HTTP: the one gateway error left.
    return reply(502, u"upstream failed before answering: %1"_s.arg(why));
}

ClientReply streamBrokeOff(const QString &why)
{
    // Said inside a stream whose 200 is out: a 5xx there makes Codex send the turn again (its
    // response.failed keeps "server_error"), and the turn may already have run a tool.
    return reply(424, u"upstream stream broke off: %1"_s.arg(why));
}

ClientReply systemMessageNotFirst(const QString &upstreamMessage)
{
    // Claude Code answers this 400 by folding the system text into the user turn.
    return reply(400, u"role 'system' must precede an assistant message: a system message inside messages is "
                      "not supported by this model's chat template (llama.cpp: %1)"_s
                          .arg(upstreamMessage));
}

ClientReply promptTooLong(qint64 promptTokens, qint64 contextTokens)
{
    // "prompt is too long" is what Claude Code's compaction looks for.
    return reply(400, u"prompt is too long: %1 tokens > %2 maximum"_s.arg(promptTokens).arg(contextTokens));
}

ClientReply promptTooLong(const QString &upstreamMessage)
{
    return reply(400, u"prompt is too long: %1"_s.arg(upstreamMessage));
}

bool isCodex(QByteArrayView path, QByteArrayView userAgent)
{
    return (path == "/v1/responses" || path == "/responses") && userAgent.startsWith("codex_");
}

ClientReply forCodex(ClientReply reply)
{
    if (reply.status == 404 || reply.status == 423 || reply.status == 424)
        reply.sentStatus = 400;
    return reply;
}

bool isClaudeCode(QByteArrayView path, QByteArrayView userAgent)
{
    return (path == "/v1/messages" || path == "/messages") && userAgent.startsWith("claude-cli/");
}

ClientReply forClaudeCode(ClientReply reply)
{
    if (reply.status == 404)
        reply.sentStatus = 410;
    else if (reply.status == 400 || reply.status == 422)
        reply.sentStatus = 424;
    return reply;
}

ReplyForm replyFormFor(QByteArrayView path, QByteArrayView userAgent)
{
    if (isCodex(path, userAgent))
        return ReplyForm::Codex;
    if (isClaudeCode(path, userAgent))
        return ReplyForm::ClaudeCode;
    return ReplyForm::AsIs;
}

ClientReply inForm(ClientReply reply, ReplyForm form)
{
    switch (form) {
    case ReplyForm::Codex:
        return forCodex(std::move(reply));
    case ReplyForm::ClaudeCode:
        return forClaudeCode(std::move(reply));
    case ReplyForm::AsIs:
        break;
    }
    return reply;
}

ClientReply forClient(ClientReply reply, QByteArrayView path, QByteArrayView userAgent)
{
    return inForm(std::move(reply), replyFormFor(path, userAgent));
}

QByteArray waitingComment(const QString &what)
{
    // A line starting with ':' is a comment every SSE parser ignores; it keeps the client's
    // header/idle timers (Node's fetch gives up after 300 s) from firing while we wait.
    return ": waiting for " + what.toUtf8() + "\n\n";
}

QString waitingForHost(const HostStateMachine::Wait &wait)
{
    using Phase = HostStateMachine::Wait::Phase;
    switch (wait.phase) {
    case Phase::Draining:
        return u"host %1 to finish %2 running request(s) before it switches to engine %3"_s
            .arg(wait.host).arg(wait.running).arg(wait.engine.isEmpty() ? u"-"_s : wait.engine);
    case Phase::Switching:
        return u"host %1 to switch to engine %2"_s.arg(wait.host, wait.engine);
    case Phase::Stopping:
        return u"host %1 to stop its engine"_s.arg(wait.host);
    case Phase::Batching:
        if (wait.holdLeft.count() >= 0)
            return u"host %1 to finish the work of engine %2 before it switches (at the latest in %3 s, then it drains)"_s
                .arg(wait.host, wait.engine)
                .arg(std::chrono::ceil<std::chrono::seconds>(wait.holdLeft).count());
        return u"host %1 to finish the work of engine %2 before it switches"_s.arg(wait.host, wait.engine);
    case Phase::Waking:
        return u"host %1 to wake"_s.arg(wait.host);
    case Phase::Other:
        break;
    }
    return u"host %1"_s.arg(wait.host);
}

QString waitingForLoad(const QString &host, const QString &model)
{
    return u"host %1 to load %2"_s.arg(host, model);
}

QString waitingForAnswer(const QString &host, const QString &model)
{
    return u"host %1 to start answering %2 (queue or prompt processing)"_s.arg(host, model);
}

QString waitingForUpstream()
{
    return u"the upstream"_s;
}

} // namespace switchyard::ClientReplies
