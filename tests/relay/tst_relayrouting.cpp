// The relay core against a real fake llama.cpp router: which model and host a request reaches
// (aliases, globs, the model field rewritten), refusals, rewritten errors and the retry.
#include "rawhttpclient.h"
#include "relayfixture.h"

#include "journal/journalformat.h"
#include "app/idlememorytrimmer.h"
#include "http/httpheaders.h"
#include "relay/jsonmodelfield.h"
#include "relay/relay.h"
#include "relay/streamstats.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

#include "relaytesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace relaytest;

class TestRelayRouting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { failOnLifecycleBugs(); }
    void unknownAliasIs404();
    void codexGetsItsRefusalsAs400();
    void upstreamRefusingIs424AndMarksTheHostDown();
    void aBoxThatCameBackServesTheNextRequest();
    void mergedModelsUseAliases();
    void modelIsRewrittenToKey();
    void refusals_data();
    void refusals();
    void lateSystemMessageIsRewrittenOnMessagesOnly();
    void contextOverflowIsRewrittenOnMessages();
    void enginesOwn400ReachesClaudeCodeAsA424();
    void refusedUpstreamIsRetriedOnce();
    void configuredAliasGlobReachesItsModel();
    void modelFieldIsReplacedAsAJsonString_data();
    void modelFieldIsReplacedAsAJsonString();
};

void TestRelayRouting::unknownAliasIs404()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-nope", 2)));
    client.send(RawHttpClient::post("/v1/messages", chatBody("nohost-x", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    const auto &openai = client.responses().at(0);
    QCOMPARE(openai.status, 404);
    QCOMPARE(openai.header("x-should-retry"), QByteArray("false"));
    const QJsonObject e = QJsonDocument::fromJson(openai.body).object().value("error"_L1).toObject();
    QCOMPARE(e.value("type"_L1).toString(), u"not_found_error"_s);
    QVERIFY(e.value("message"_L1).toString().contains("h1-alpha"_L1));   // names the known aliases
    const QJsonObject anthropic = QJsonDocument::fromJson(client.responses().at(1).body).object();
    QCOMPARE(client.responses().at(1).status, 404);
    QCOMPARE(anthropic.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(anthropic.value("error"_L1).toObject().value("type"_L1).toString(), u"not_found_error"_s);
}

// Codex sends a request again after any refusal but a 400 (docs/CLIENTS.md): on /v1/responses
// with its User-Agent, a 404 or 424 goes out as a 400 whose body names the real status; anyone
// else, or Codex elsewhere, gets the status itself. Claude Code's 404 on /v1/messages goes out
// as a 410 the same way.
void TestRelayRouting::codexGetsItsRefusalsAs400()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) {
        HostConfig down = c.hosts.first();
        down.name = u"h2"_s;
        down.engines.first().url = QUrl(u"http://127.0.0.1:1"_s);   // nothing listens there
        c.hosts.append(down);
    }));
    QTRY_VERIFY_WITH_TIMEOUT(!f.relay->catalog()->host(u"h2"_s)->lastError.isEmpty(), 5000);
    const QByteArray codex = "User-Agent: codex_exec/0.169.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.169.0)\r\n";
    const QByteArray sdk = "User-Agent: OpenAI/JS 6.49.0\r\n";
    const QByteArray claude = "User-Agent: claude-cli/2.1.197 (external, sdk-cli)\r\n";
    const QByteArray anthropicSdk = "User-Agent: Anthropic/JS 1.14.0\r\n";
    const struct
    {
        QByteArray request;
        int status;
        int code;
    } cases[] = {
        {RawHttpClient::post("/v1/responses", R"({"model":"h1-nope","input":"hi"})", codex), 400, 404},
        {RawHttpClient::post("/v1/responses", R"({"model":"h2-alpha","input":"hi"})", codex), 400, 424},
        {RawHttpClient::post("/v1/responses", R"({"model":"h1-nope","input":"hi"})", sdk), 404, 404},
        {RawHttpClient::post("/v1/chat/completions", chatBody("h1-nope", 1), codex), 404, 404},
        // Claude Code sends a 404 again without streaming; a 410 it does not.
        {RawHttpClient::post("/v1/messages", R"({"model":"h1-nope","max_tokens":8,"stream":true,"messages":[]})", claude), 410, 0},
        {RawHttpClient::post("/v1/messages", R"({"model":"h1-nope","max_tokens":8,"stream":true,"messages":[]})", anthropicSdk), 404, 0},
    };
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    for (const auto &c : cases)
        client.send(c.request);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), int(std::size(cases)), 5000);
    for (size_t i = 0; i < std::size(cases); ++i) {
        const auto &r = client.responses().at(int(i));
        QCOMPARE(r.status, cases[i].status);
        QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
        const QJsonObject error = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject();
        if (cases[i].code)
            QCOMPARE(error.value("code"_L1).toInt(), cases[i].code);
        else   // Anthropic's shape has no code: its type says what it is
            QCOMPARE(error.value("type"_L1).toString(), u"not_found_error"_s);
        QVERIFY(!error.value("message"_L1).toString().isEmpty());
    }
}

void TestRelayRouting::upstreamRefusingIs424AndMarksTheHostDown()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    f.fake->close();   // the engine died after the relay last saw it
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    // A dead box is no gateway error: every client retries a 5xx, none retries this.
    QCOMPARE(r.status, 424);
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    const QString message = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.contains("host h1 is down"_L1) && message.contains("refused"_L1), qPrintable(message));
    // Marked down at once, with why, not at the next poll.
    QVERIFY(!f.relay->catalog()->host(u"h1"_s)->reachable);
    QVERIFY(f.relay->catalog()->host(u"h1"_s)->lastError.contains("refused"_L1));
    // The next request asks the host once more before it is refused: still down, still 424.
    client.send(RawHttpClient::post("/v1/messages", chatBody("h1-alpha", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 424);
    QCOMPARE(QJsonDocument::fromJson(client.responses().at(1).body).object().value("type"_L1).toString(), u"error"_s);
}

void TestRelayRouting::aBoxThatCameBackServesTheNextRequest()
{
    // A poll interval far longer than the test: only the relay's own probe can find it back.
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.limits.pollInterval = std::chrono::minutes(10); }));
    const quint16 port = f.fake->port();
    f.fake->close();
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 424);
    QVERIFY(!f.relay->catalog()->host(u"h1"_s)->reachable);

    QVERIFY(f.fake->listen(QHostAddress::LocalHost, port));   // restarted on its port
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 200);
    QVERIFY(f.relay->catalog()->host(u"h1"_s)->reachable);
}

void TestRelayRouting::mergedModelsUseAliases()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    const QJsonArray data = QJsonDocument::fromJson(client.responses().at(0).body).object().value("data"_L1).toArray();
    QCOMPARE(data.size(), 2);
    QStringList ids;
    for (const QJsonValue &v : data) {
        const QJsonObject o = v.toObject();
        ids.append(o.value("id"_L1).toString());
        QCOMPARE(o.value("proxy"_L1).toObject().value("host"_L1).toString(), u"h1"_s);
        QVERIFY(o.value("status"_L1).toObject().contains("value"_L1));
    }
    ids.sort();
    QCOMPARE(ids, QStringList({u"h1-alpha"_s, u"h1-beta"_s}));
}

void TestRelayRouting::modelIsRewrittenToKey()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    client.send(RawHttpClient::get("/props?model=h1-alpha"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 200);
    QStringList seen;
    for (const auto &r : f.fake->received()) {
        if (r.path == "/v1/chat/completions")
            QCOMPARE(QJsonDocument::fromJson(r.body).object().value("model"_L1).toString(), u"alpha"_s);
        if (r.path == "/props")
            QCOMPARE(r.query, QByteArray("model=alpha"));
    }
}

void TestRelayRouting::refusals_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("unknown model, openai") << RawHttpClient::post("/v1/chat/completions", chatBody("h1-nope", 1)) << 404 << false << u"known models: h1-alpha"_s;
    QTest::newRow("unknown model, anthropic") << RawHttpClient::post("/v1/messages", chatBody("zz-nope", 1)) << 404 << true << u"not found"_s;
    QTest::newRow("host down, openai") << RawHttpClient::post("/v1/chat/completions", chatBody("h2-alpha", 1)) << 424 << false << u"host h2 is down"_s;
    QTest::newRow("host down, anthropic") << RawHttpClient::post("/v1/messages", chatBody("h2-alpha", 1)) << 424 << true << u"host h2 is down"_s;
    QTest::newRow("delete models") << QByteArray("DELETE /models HTTP/1.1\r\nHost: x\r\n\r\n") << 403 << false << u"refused"_s;
    QTest::newRow("unknown admin path") << RawHttpClient::post("/admin/nope", "{}") << 404 << false << u"no admin endpoint"_s;
    QTest::newRow("missing model") << RawHttpClient::post("/v1/chat/completions", R"({"messages":[]})") << 400 << false << u"model name is missing"_s;
    QTest::newRow("model not a string") << RawHttpClient::post("/v1/messages", R"({"model":42})") << 400 << true << u"must be a string"_s;
    QTest::newRow("malformed json") << RawHttpClient::post("/v1/chat/completions", R"({"model":"h1-alpha",)") << 400 << false << u"not a JSON object"_s;
}

void TestRelayRouting::refusals()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(bool, anthropic);
    QFETCH(QString, messagePart);
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) {
        HostConfig down = c.hosts.first();
        down.name = u"h2"_s;
        down.engines.first().url = QUrl(u"http://127.0.0.1:1"_s);   // nothing listens there
        c.hosts.append(down);
    }));
    QTRY_VERIFY_WITH_TIMEOUT(!f.relay->catalog()->host(u"h2"_s)->lastError.isEmpty(), 5000);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(request);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    QVERIFY(r.header("content-type").startsWith("application/json"));
    const QJsonObject root = QJsonDocument::fromJson(r.body).object();
    QJsonObject error = root.value("error"_L1).toObject();
    if (anthropic) {
        QCOMPARE(root.value("type"_L1).toString(), u"error"_s);
        QVERIFY(!error.contains("code"_L1));
    } else {
        QVERIFY(!root.contains("type"_L1));
        QCOMPARE(error.value("code"_L1).toInt(), status);
    }
    QVERIFY(!error.value("type"_L1).toString().isEmpty());
    QCOMPARE(error.value("source"_L1).toString(), u"switchyard"_s);
    QVERIFY2(error.value("message"_L1).toString().contains(messagePart), r.body.constData());
}

void TestRelayRouting::lateSystemMessageIsRewrittenOnMessagesOnly()
{
    fake::FakeOptions o = routerOptions();
    o.rejectLateSystem = true;
    RelayFixture f;
    QVERIFY(f.start(o));
    const QByteArray body = R"({"model":"h1-alpha","max_tokens":8,"messages":[{"role":"user","content":"hi"},)"
                            R"({"role":"assistant","content":"hello"},{"role":"system","content":"be brief"},)"
                            R"({"role":"user","content":"again"}]})";
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", body));
    client.send(RawHttpClient::post("/v1/chat/completions", body));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    const auto &messages = client.responses().at(0);
    QCOMPARE(messages.status, 400);
    const QJsonObject root = QJsonDocument::fromJson(messages.body).object();
    QCOMPARE(root.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(root.value("error"_L1).toObject().value("type"_L1).toString(), u"invalid_request_error"_s);
    QVERIFY(root.value("error"_L1).toObject().value("message"_L1).toString().contains("role 'system' must precede an assistant message"_L1));
    const auto &chat = client.responses().at(1);
    // Elsewhere llama.cpp's 500 goes out as the relay's 424 with the engine's own words: sending
    // the same request again meets the same engine, so nothing in it may invite a retry (issue 32).
    QCOMPARE(chat.status, 424);
    QVERIFY2(chat.body.contains("System message must be at the beginning."), chat.body.constData());
}

void TestRelayRouting::contextOverflowIsRewrittenOnMessages()
{
    fake::FakeOptions o = routerOptions();
    o.modelContext = {{u"alpha"_s, 32}};
    RelayFixture f;
    QVERIFY(f.start(o));
    QByteArray words;
    for (int i = 0; i < 100; ++i)
        words += "word" + QByteArray::number(i) + ' ';
    const QByteArray body = R"({"model":"h1-alpha","max_tokens":8,"stream":true,"messages":[{"role":"user","content":")" + words + R"("}]})";
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    // As Claude Code sends it: a 400 it compacts at, not the 424 of an engine's other 400s.
    client.send(RawHttpClient::post("/v1/messages", body, "User-Agent: claude-cli/2.1.337 (external, sdk-cli)\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 400);
    const QString message = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(QRegularExpression(u"^prompt is too long: \\d+ tokens > 32 maximum$"_s).match(message).hasMatch(), qPrintable(message));
}

// The newest Claude Code sends a 400 it has no handler for five more times; a 424 it takes as
// final. Everyone else gets the engine's 400 byte for byte; Claude Code's own rewrites
// (contextOverflowIsRewrittenOnMessages) stay 400s it acts on.
void TestRelayRouting::enginesOwn400ReachesClaudeCodeAsA424()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    const QByteArray engineBody = R"({"error":{"code":400,"message":"bad grammar","type":"invalid_request_error"}})";
    fake::FakeFailure refusal;
    refusal.mode = fake::FakeFailure::Mode::Status;
    refusal.status = 400;
    refusal.body = engineBody;
    f.fake->failNextRequests(2, refusal);
    const QByteArray body = R"({"model":"h1-alpha","max_tokens":8,"stream":true,"messages":[{"role":"user","content":"hi"}]})";
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", body, "User-Agent: claude-cli/2.1.337 (external, sdk-cli)\r\n"));
    client.send(RawHttpClient::post("/v1/messages", body, "User-Agent: Anthropic/JS 1.14.0\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);

    const auto &claude = client.responses().at(0);
    QCOMPARE(claude.status, 424);
    QCOMPARE(claude.header("x-should-retry"), QByteArray("false"));
    const QJsonObject root = QJsonDocument::fromJson(claude.body).object();
    QCOMPARE(root.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(root.value("error"_L1).toObject().value("type"_L1).toString(), u"invalid_request_error"_s);
    QCOMPARE(root.value("error"_L1).toObject().value("message"_L1).toString(), u"bad grammar"_s);

    const auto &sdk = client.responses().at(1);
    QCOMPARE(sdk.status, 400);
    QCOMPARE(sdk.body, engineBody);
}

void TestRelayRouting::refusedUpstreamIsRetriedOnce()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    const quint16 upstreamPort = f.fake->port();
    f.fake->close();
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    // The engine comes back after the first attempt was refused but before the relay's one retry
    // (250 ms later): the client never sees the outage.
    bool relistened = false;
    QTimer::singleShot(100ms, f.fake.get(), [&] { relistened = f.fake->listen(QHostAddress::LocalHost, upstreamPort); });
    QTRY_VERIFY_WITH_TIMEOUT(relistened, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
    QCOMPARE(f.receivedOn("/v1/chat/completions").size(), 1);
}

void TestRelayRouting::configuredAliasGlobReachesItsModel()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.aliases.append({u"claude-*"_s, u"h1-alpha"_s, {u"h1-alpha"_s}}); }));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", chatBody("claude-opus-4-8", 2, false)));
    client.send(RawHttpClient::post("/v1/messages", chatBody("claude-haiku-4-5-20251001", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
    QCOMPARE(client.responses().at(1).status, 200);
    for (const auto &r : f.fake->received()) {
        if (r.path == "/v1/messages")
            QCOMPARE(QJsonDocument::fromJson(r.body).object().value("model"_L1).toString(), u"alpha"_s);
    }
}

void TestRelayRouting::modelFieldIsReplacedAsAJsonString_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QByteArray>("literal");
    QTest::newRow("plain") << u"qwen3-8b"_s << QByteArray(R"("qwen3-8b")");
    QTest::newRow("quote and backslash") << u"a\"b\\c"_s << QByteArray(R"("a\"b\\c")");
    QTest::newRow("named controls") << u"a\nb\tc\rd\be\ff"_s << QByteArray(R"("a\nb\tc\rd\be\ff")");
    QTest::newRow("other controls") << QString(u"a"_s + QChar(0x01) + u"b"_s + QChar(0x1f)) << QByteArray(R"("a\u0001b\u001f")");
    QTest::newRow("utf-8 stays") << u"mod\u00e8le-\U0001F600"_s << QByteArray("\"mod\xc3\xa8le-\xf0\x9f\x98\x80\"");
    QTest::newRow("empty") << QString() << QByteArray(R"("")");
}

void TestRelayRouting::modelFieldIsReplacedAsAJsonString()
{
    QFETCH(QString, key);
    QFETCH(QByteArray, literal);
    const QByteArray body = R"({"stream":true, "model" : "h1-alpha","messages":[]})";
    const JsonModelField field = JsonModelField::find(body);
    QCOMPARE(field.result, JsonModelField::Result::Found);
    const QByteArray replaced = field.replaced(body, key);
    // Every other byte is the client's, untouched.
    QCOMPARE(replaced, body.first(field.start) + literal + body.sliced(field.end));
    const QJsonObject parsed = QJsonDocument::fromJson(replaced).object();
    QCOMPARE(parsed.value("model"_L1).toString(), key);
}

QTEST_GUILESS_MAIN(TestRelayRouting)

#include "tst_relayrouting.moc"
