// Every refusal, rewrite and waiting comment the relay sends, once: status, headers, words, and
// the bytes in each API's shape (OpenAI's, which llama.cpp's native paths share, Anthropic's,
// the Responses API's), whole and as the SSE event sent after an early 200.
#include "replies/clientreplies.h"
#include "replies/retrywords.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(switchyard::ClientReply)
Q_DECLARE_METATYPE(switchyard::HostStateMachine::Wait)

namespace {

QByteArray escaped(const QString &message)
{
    return message.toUtf8().replace('\\', "\\\\").replace('"', "\\\"");
}

QByteArray headerLines(const HeaderList &headers)
{
    QByteArray out;
    for (const auto &h : headers)
        out += h.first + ": " + h.second + '\n';
    return out;
}

HostRefusal host(HostRefusal::Reason reason)
{
    HostRefusal why;
    why.reason = reason;
    why.host = u"3090"_s;
    why.engine = u"fork"_s;
    why.engines = {u"mainline"_s, u"fork"_s};
    why.owner = u"bench queue"_s;
    why.until = QDateTime(QDate(2026, 10, 24), QTime(23, 0), Qt::UTC);
    EngineFailure exited = EngineFailure::of(EngineFailure::Kind::Ended);
    exited.exit = EngineFailure::Exit{1, false};
    why.failure = exited;
    why.wakeTimeout = std::chrono::seconds(120);
    return why;
}

} // namespace

class TestClientReplies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyRefusal_data();
    void everyRefusal();
    void codexIsKnownByPathAndUserAgent_data();
    void codexIsKnownByPathAndUserAgent();
    void claudeCodeIsKnownByPathAndUserAgent_data();
    void claudeCodeIsKnownByPathAndUserAgent();
    void hostRefusalsAreWordedByTheCatalogue();
    void waitingComments_data();
    void waitingComments();
};

void TestClientReplies::everyRefusal_data()
{
    QTest::addColumn<ClientReply>("reply");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("extraHeaders");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("openAiType");      // also the Responses API's
    QTest::addColumn<QString>("anthropicType");

    const QString bearer = u"WWW-Authenticate: Bearer\n"_s;
    auto row = [](const char *name, const ClientReply &reply, int status, const QString &headers,
                  const QString &message, const char *openAi, const char *anthropic) {
        QTest::newRow(name) << reply << status << headers.toUtf8() << message << QString::fromLatin1(openAi)
                            << QString::fromLatin1(anthropic);
    };

    // Before a request is routed.
    row("admin API from elsewhere", ClientReplies::adminOnlyHere(), 403, {},
        u"the admin API answers only on this machine, or with the admin token (Authorization: Bearer TOKEN)"_s,
        "permission_error", "permission_error");
    row("key missing", ClientReplies::keyMissing(), 401, bearer,
        u"this relay needs an API key: send \"Authorization: Bearer KEY\" or \"x-api-key: KEY\""_s,
        "authentication_error", "authentication_error");
    row("key wrong", ClientReplies::keyWrong(), 401, bearer, u"invalid API key"_s,
        "authentication_error", "authentication_error");
    row("a host changed behind the relay's back", ClientReplies::changesHostBehindRelaysBack(u"DELETE"_s, u"/models/a"_s),
        403, {}, u"DELETE /models/a is refused: it would change a host behind the relay's back"_s,
        "permission_error", "permission_error");
    row("body not an object", ClientReplies::bodyNotAnObject(), 400, {}, u"the request body is not a JSON object"_s,
        "invalid_request_error", "invalid_request_error");
    row("model not a string", ClientReplies::modelNotAString(), 400, {}, u"\"model\" must be a string"_s,
        "invalid_request_error", "invalid_request_error");
    row("model missing", ClientReplies::modelMissing(), 400, {}, u"model name is missing from the request"_s,
        "invalid_request_error", "invalid_request_error");
    row("unknown model", ClientReplies::unknownModel(u"nope"_s, {u"a"_s, u"tiny-500m"_s, u"b"_s}), 404, {},
        u"model 'nope' not found; known models: a, b, and 1 more (GET /v1/models lists them all)"_s,
        "not_found_error", "not_found_error");
    row("unknown model, none known", ClientReplies::unknownModel(u"nope"_s, {}), 404, {},
        u"model 'nope' not found; known models: none"_s, "not_found_error", "not_found_error");

    row("relay stopping", ClientReplies::relayStopping(), 424, {},
        u"the relay is shutting down: this request had not reached an engine; send it again once the relay is back"_s,
        "failed_dependency_error", "failed_dependency_error");

    // The host.
    row("host down", ClientReplies::hostDown(u"h1"_s, u"not reached yet"_s), 424, {},
        u"host h1 is down: not reached yet"_s, "failed_dependency_error", "failed_dependency_error");
    row("host leased", ClientReplies::fromHost(host(HostRefusal::Reason::Leased)), 423, {},
        u"host 3090 is leased by bench queue until 2026-10-24T23:00:00Z"_s, "locked_error", "locked_error");
    row("switch failed", ClientReplies::fromHost(host(HostRefusal::Reason::SwitchFailed)), 424, {},
        u"switching host 3090 to engine fork failed: exited with code 1"_s, "failed_dependency_error", "failed_dependency_error");
    row("wake timed out", ClientReplies::fromHost(host(HostRefusal::Reason::WakeTimedOut)), 424, {},
        u"host 3090 did not wake: no answer within 120 s"_s, "failed_dependency_error", "failed_dependency_error");
    row("static host", ClientReplies::fromHost(host(HostRefusal::Reason::StaticHost)), 409, {},
        u"host 3090 runs one static engine and cannot switch"_s, "invalid_request_error", "invalid_request_error");
    row("no such engine", ClientReplies::fromHost(host(HostRefusal::Reason::NoSuchEngine)), 400, {},
        u"host 3090 has no engine \"fork\" (its engines: mainline, fork)"_s, "invalid_request_error",
        "invalid_request_error");
    row("lease taken over", ClientReplies::fromHost(host(HostRefusal::Reason::LeaseTakenOver)), 409, {},
        u"the lease of host 3090 was taken by bench queue before it was granted"_s, "invalid_request_error",
        "invalid_request_error");
    row("lease released", ClientReplies::fromHost(host(HostRefusal::Reason::LeaseReleased)), 409, {},
        u"the lease of host 3090 was released before it was granted"_s, "invalid_request_error",
        "invalid_request_error");

    // The engine.
    row("engine unreachable", ClientReplies::engineUnreachable(u"connection refused"_s), 424, {},
        u"the engine is unreachable: connection refused"_s, "failed_dependency_error", "failed_dependency_error");
    row("engine could not load", ClientReplies::engineCouldNotLoad(u"failed to load model"_s), 424, {},
        u"the engine could not load the model: failed to load model"_s, "failed_dependency_error", "failed_dependency_error");
    row("engine failed", ClientReplies::engineFailed(u"Jinja Exception: bad template"_s), 424, {},
        u"the engine failed to answer this request: Jinja Exception: bad template"_s, "failed_dependency_error", "failed_dependency_error");
    row("engine failed, in words a client retries by", ClientReplies::engineFailed(u"Internal Server Error"_s), 424, {},
        u"the engine failed to answer this request (its reason is in the relay's journal)"_s, "failed_dependency_error",
        "failed_dependency_error");
    row("upstream silent", ClientReplies::upstreamSilent(u"no data for 600 s"_s), 424, {},
        u"upstream stopped answering: no data for 600 s"_s, "failed_dependency_error", "failed_dependency_error");
    row("upstream not HTTP", ClientReplies::upstreamFailedBeforeAnswering(u"bad status line"_s), 502, {},
        u"upstream failed before answering: bad status line"_s, "server_error", "api_error");
    row("stream broke off", ClientReplies::streamBrokeOff(u"reset"_s), 424, {},
        u"upstream stream broke off: reset"_s, "failed_dependency_error", "failed_dependency_error");

    // llama.cpp's errors in Claude Code's words. ErrorRewrite sends these as they are (a 400 is
    // what Claude Code compacts or moves its system prompt at), not through inForm.
    row("system message not first", ClientReplies::systemMessageNotFirst(u"System message must be at the beginning."_s),
        400, {},
        u"role 'system' must precede an assistant message: a system message inside messages is not supported by "
        "this model's chat template (llama.cpp: System message must be at the beginning.)"_s,
        "invalid_request_error", "invalid_request_error");
    row("prompt too long, counted", ClientReplies::promptTooLong(9000, 8192), 400, {},
        u"prompt is too long: 9000 tokens > 8192 maximum"_s, "invalid_request_error", "invalid_request_error");
    row("prompt too long", ClientReplies::promptTooLong(u"the request exceeds the available context size"_s), 400, {},
        u"prompt is too long: the request exceeds the available context size"_s, "invalid_request_error",
        "invalid_request_error");
}

void TestClientReplies::everyRefusal()
{
    QFETCH(ClientReply, reply);
    QFETCH(int, status);
    QFETCH(QByteArray, extraHeaders);
    QFETCH(QString, message);
    QFETCH(QString, openAiType);
    QFETCH(QString, anthropicType);

    QCOMPARE(reply.status, status);
    QCOMPARE(reply.message, message);
    QCOMPARE(headerLines(reply.headers()),
             "Content-Type: application/json; charset=utf-8\nX-Should-Retry: false\n" + extraHeaders);

    const QByteArray m = escaped(message);
    const QByteArray code = QByteArray::number(status);
    const QByteArray openAi = R"({"error":{"code":)" + code + R"(,"message":")" + m
        + R"(","source":"switchyard","type":")" + openAiType.toUtf8() + R"("}})";
    const QByteArray anthropic = R"({"error":{"message":")" + m + R"(","source":"switchyard","type":")"
        + anthropicType.toUtf8() + R"("},"type":"error"})";
    QCOMPARE(reply.body(ApiShape::OpenAI), openAi);
    QCOMPARE(reply.body(ApiShape::Responses), openAi);
    QCOMPARE(reply.body(ApiShape::Anthropic), anthropic);

    // After an early 200, the same refusal ends the stream as an error event; on chat completions
    // a 5xx there is a 424, and the event holds no word that makes opencode send the turn again.
    if (status >= 500) {
        QCOMPARE(reply.sseEvent(ApiShape::OpenAI),
                 R"(data: {"error":{"code":424,"message":")" + m
                     + R"(","source":"switchyard","type":"failed_dependency_error"}})" + "\n\n");
    } else {
        QCOMPARE(reply.sseEvent(ApiShape::OpenAI), "data: " + openAi + "\n\n");
    }
    if (!RetryWords::presentInStream(message))
        QVERIFY2(!RetryWords::presentInStream(QString::fromUtf8(reply.sseEvent(ApiShape::OpenAI))),
                 reply.sseEvent(ApiShape::OpenAI).constData());
    QCOMPARE(reply.sseEvent(ApiShape::Anthropic), "event: error\ndata: " + anthropic + "\n\n");
    // The Responses API's error event, then response.failed: Codex reads only that one, and
    // sends the request again unless its code is one it gives up at ("invalid_prompt").
    const QByteArray failedCode = status >= 500 ? "server_error" : "invalid_prompt";
    QCOMPARE(reply.sseEvent(ApiShape::Responses),
             R"(event: error
data: {"code":")" + openAiType.toUtf8() + R"(","message":")" + m + R"(","param":null,"type":"error"})" + "\n\n"
             + R"(event: response.failed
data: {"response":{"error":{"code":")" + failedCode + R"(","message":")" + m
             + R"("},"object":"response","status":"failed"},"type":"response.failed"})" + "\n\n");

    // Codex gets a 404, 423 or 424 as a 400, the one status it does not send again; the body
    // keeps the real one.
    QCOMPARE(ClientReplies::inForm(reply, ClientReplies::ReplyForm::AsIs).httpStatus(), status);
    const ClientReply codex = ClientReplies::inForm(reply, ClientReplies::ReplyForm::Codex);
    QCOMPARE(codex.httpStatus(), status == 404 || status == 423 || status == 424 ? 400 : status);
    QCOMPARE(codex.body(ApiShape::Responses), openAi);
    QCOMPARE(reply.httpStatus(), status);
    // Claude Code gets a 404 as a 410, the one it does not send again without streaming, and a
    // 400 or 422 as a 424, which the newest does not send again either; the body keeps the real
    // one (not_found_error, invalid_request_error).
    const ClientReply claude = ClientReplies::inForm(reply, ClientReplies::ReplyForm::ClaudeCode);
    QCOMPARE(claude.httpStatus(), status == 404 ? 410 : status == 400 || status == 422 ? 424 : status);
    QCOMPARE(claude.body(ApiShape::Anthropic), anthropic);
}

void TestClientReplies::codexIsKnownByPathAndUserAgent_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("userAgent");
    QTest::addColumn<bool>("codex");
    const QByteArray exec = "codex_exec/0.169.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.169.0)";
    QTest::newRow("codex exec") << "/v1/responses"_ba << exec << true;
    QTest::newRow("the TUI") << "/v1/responses"_ba << "codex_cli_rs/0.169.0 (Debian 12.0.0; x86_64)"_ba << true;
    QTest::newRow("another path") << "/v1/chat/completions"_ba << exec << false;
    QTest::newRow("the OpenAI SDK") << "/v1/responses"_ba << "OpenAI/JS 6.49.0"_ba << false;
    QTest::newRow("no User-Agent") << "/v1/responses"_ba << QByteArray() << false;
}

void TestClientReplies::codexIsKnownByPathAndUserAgent()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, userAgent);
    QFETCH(bool, codex);
    QCOMPARE(ClientReplies::isCodex(path, userAgent), codex);
    QCOMPARE(ClientReplies::replyFormFor(path, userAgent) == ClientReplies::ReplyForm::Codex, codex);
}

void TestClientReplies::claudeCodeIsKnownByPathAndUserAgent_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("userAgent");
    QTest::addColumn<bool>("claudeCode");
    const QByteArray cli = "claude-cli/2.1.197 (external, sdk-cli)";
    QTest::newRow("claude -p") << "/v1/messages"_ba << cli << true;
    QTest::newRow("without /v1") << "/messages"_ba << cli << true;
    QTest::newRow("another path") << "/v1/chat/completions"_ba << cli << false;
    QTest::newRow("the Anthropic SDK") << "/v1/messages"_ba << "Anthropic/JS 1.14.0"_ba << false;
    QTest::newRow("no User-Agent") << "/v1/messages"_ba << QByteArray() << false;
}

void TestClientReplies::claudeCodeIsKnownByPathAndUserAgent()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, userAgent);
    QFETCH(bool, claudeCode);
    QCOMPARE(ClientReplies::isClaudeCode(path, userAgent), claudeCode);
    QCOMPARE(ClientReplies::replyFormFor(path, userAgent) == ClientReplies::ReplyForm::ClaudeCode, claudeCode);
    // Only the client's own form changes: everyone else's 404 stays a 404.
    const ClientReply unknown = ClientReplies::unknownModel(u"nope"_s, {u"h1-alpha"_s});
    QCOMPARE(ClientReplies::forClient(unknown, path, userAgent).httpStatus(), claudeCode ? 410 : 404);
}

void TestClientReplies::hostRefusalsAreWordedByTheCatalogue()
{
    for (auto reason : {HostRefusal::Reason::Leased, HostRefusal::Reason::SwitchFailed, HostRefusal::Reason::StaticHost,
                        HostRefusal::Reason::NoSuchEngine, HostRefusal::Reason::LeaseTakenOver,
                        HostRefusal::Reason::LeaseReleased, HostRefusal::Reason::WakeTimedOut}) {
        const HostRefusal why = host(reason);
        QCOMPARE(ClientReplies::fromHost(why).status, why.status());
        QVERIFY2(!ClientReplies::fromHost(why).message.contains(why.facts()), qPrintable(why.facts()));
    }
}

void TestClientReplies::waitingComments_data()
{
    using Phase = HostStateMachine::Wait::Phase;
    QTest::addColumn<QString>("what");
    QTest::addColumn<QByteArray>("comment");
    auto wait = [](Phase phase, int running, const QString &engine) {
        return ClientReplies::waitingForHost(HostStateMachine::Wait{phase, u"3090"_s, running, engine});
    };
    QTest::newRow("draining") << wait(Phase::Draining, 2, u"fork"_s)
                              << QByteArray(": waiting for host 3090 to finish 2 running request(s) before it switches to engine fork\n\n");
    QTest::newRow("draining for a lease") << wait(Phase::Draining, 1, {})
                                          << QByteArray(": waiting for host 3090 to finish 1 running request(s) before it switches to engine -\n\n");
    QTest::newRow("switching") << wait(Phase::Switching, 0, u"fork"_s)
                               << QByteArray(": waiting for host 3090 to switch to engine fork\n\n");
    QTest::newRow("batching") << wait(Phase::Batching, 1, u"mainline"_s)
                              << QByteArray(": waiting for host 3090 to finish the work of engine mainline before it switches\n\n");
    HostStateMachine::Wait held{Phase::Batching, u"3090"_s, 1, u"mainline"_s};
    held.holdLeft = std::chrono::milliseconds(24200);
    QTest::newRow("batching, with its limit") << ClientReplies::waitingForHost(held)
        << QByteArray(": waiting for host 3090 to finish the work of engine mainline before it switches (at the latest in 25 s, then it drains)\n\n");
    QTest::newRow("stopping") << wait(Phase::Stopping, 0, {}) << QByteArray(": waiting for host 3090 to stop its engine\n\n");
    QTest::newRow("other") << wait(Phase::Other, 0, {}) << QByteArray(": waiting for host 3090\n\n");
    QTest::newRow("a model loading") << ClientReplies::waitingForLoad(u"h1"_s, u"alpha"_s)
                                     << QByteArray(": waiting for host h1 to load alpha\n\n");
    QTest::newRow("the first token") << ClientReplies::waitingForAnswer(u"h1"_s, u"alpha"_s)
                                     << QByteArray(": waiting for host h1 to start answering alpha (queue or prompt processing)\n\n");
    QTest::newRow("no host named") << ClientReplies::waitingForUpstream() << QByteArray(": waiting for the upstream\n\n");
}

void TestClientReplies::waitingComments()
{
    QFETCH(QString, what);
    QFETCH(QByteArray, comment);
    QCOMPARE(ClientReplies::waitingComment(what), comment);
}

QTEST_GUILESS_MAIN(TestClientReplies)
#include "tst_clientreplies.moc"
