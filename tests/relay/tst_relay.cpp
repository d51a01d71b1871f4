// The relay core against a real fake llama.cpp router: streaming, framing, connection
// management, cancellation, refusals.
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

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

fake::FakeOptions routerOptions(double tokensPerSecond = 100)
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s, u"beta"_s};
    o.loaded = {u"alpha"_s};
    o.loadDelay = 200ms;
    o.tokensPerSecond = tokensPerSecond;
    return o;
}

QByteArray chatBody(const QByteArray &model, int maxTokens, bool stream = true)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)"
        + QByteArray::number(maxTokens) + (stream ? R"(,"stream":true})" : "}");
}

int countEvents(const QByteArray &sse)
{
    return int(sse.count("data: "));
}

} // namespace

class TestRelay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void streamArrivesIncrementallyAndConnectionIsReused();
    void fiftyConcurrentStreamsAllStreamAtOnce();
    void largeBodyArrivesWhole();
    void oversizedBodyGets413();
    void oversizedBodyWithExpectGets413WithoutBody();
    void expectContinueIsAnswered();
    void pipelinedRequestsAnswerInOrder();
    void clientCutCancelsUpstreamQuickly();
    void unknownAliasIs404();
    void codexGetsItsRefusalsAs400();
    void upstreamRefusingIs424AndMarksTheHostDown();
    void aBoxThatCameBackServesTheNextRequest();
    void http10ClosesAfterResponse();
    void connectionCloseIsHonoured();
    void idleConnectionIsClosed();
    void answerLongerThanIdleTimeoutIsNotCut();
    void mergedModelsUseAliases();
    void modelIsRewrittenToKey();
    void largeBodyReachesTheEngineByteForByte();
    void hopByHopHeadersDoNotCross();
    void loadShowsLoadingBeforeAnswerLeaves();
    void requestsAreJournaled();
    void modelEventsAreMergedAndRelabelled();
    void probeNeverReadsUnloadedAfterLoad();
    void streamHeadWaitsBrieflyForItsFirstEvent_data();
    void streamHeadWaitsBrieflyForItsFirstEvent();
    void early200KeepsWaitingStreamAlive();
    void early200ThenFailureIsAnSseErrorInShape_data();
    void early200ThenFailureIsAnSseErrorInShape();
    void nonStreamingRequestGetsNoEarly200();
    void clientLeavingDuringWaitCancelsUpstream();
    void refusals_data();
    void refusals();
    void optionsAndHeadAreAnswered();
    void requestFramingIsReadOrRefused_data();
    void requestFramingIsReadOrRefused();
    void manyPipelinedRequestsAreAllAnswered();
    void lateSystemMessageIsRewrittenOnMessagesOnly();
    void contextOverflowIsRewrittenOnMessages();
    void refusedUpstreamIsRetriedOnce();
    void historyRecordsStreamsWithRatesAndNoSecrets();
    void adminApiServesHistoryAndStats();
    void enginesModelsAreRememberedAcrossRestarts();
    void shutdownLetsRunningStreamsFinish();
    void shutdownCutsAfterTheGracePeriod();
    void configuredAliasGlobReachesItsModel();
    void idleMemoryIsTrimmedOnlyWithNothingInFlight();
    void modelFieldIsReplacedAsAJsonString_data();
    void modelFieldIsReplacedAsAJsonString();
    void commonHeaderBytesAreSharedButSafe_data();
    void commonHeaderBytesAreSharedButSafe();
    void streamStatsFindTheCountWhereverReadsSplit_data();
    void streamStatsFindTheCountWhereverReadsSplit();
};

void TestRelay::streamArrivesIncrementallyAndConnectionIsReused()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(50)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 12)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("text/event-stream"));
    QCOMPARE(r.header("transfer-encoding"), QByteArray("chunked"));
    QVERIFY(r.header("connection").isEmpty());   // the upstream's Connection: close stays upstream
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    // 12 tokens at 50/s: the events must spread over ~240 ms, not arrive in one lump.
    QVERIFY2(r.chunkArrivalsMs.size() >= 6, qPrintable(QString::number(r.chunkArrivalsMs.size())));
    const qint64 spread = r.chunkArrivalsMs.last() - r.chunkArrivalsMs.first();
    QVERIFY2(spread >= 150, qPrintable(u"spread %1 ms"_s.arg(spread)));
    // The response ended at its last chunk, with the connection still open for another request.
    QVERIFY(!client.isDisconnected());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 200);
    QVERIFY(!client.isDisconnected());
}

void TestRelay::fiftyConcurrentStreamsAllStreamAtOnce()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(20)));
    std::vector<std::unique_ptr<RawHttpClient>> clients;
    for (int i = 0; i < 50; ++i) {
        clients.push_back(std::make_unique<RawHttpClient>(f.port()));
        QVERIFY(clients.back()->connectToServer());
        clients.back()->send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 10)));
    }
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(clients.begin(), clients.end(), [](const auto &c) { return c->completedResponses() == 1; }),
                             20000);
    // Every stream had its first event before any stream finished: none waited for another.
    qint64 lastFirstEvent = 0;
    qint64 firstCompletion = std::numeric_limits<qint64>::max();
    for (const auto &c : clients) {
        const auto &r = c->responses().at(0);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.chunkArrivalsMs.isEmpty());
        lastFirstEvent = std::max(lastFirstEvent, r.chunkArrivalsMs.first());
        firstCompletion = std::min(firstCompletion, r.completedAtMs);
    }
    QVERIFY2(lastFirstEvent < firstCompletion,
             qPrintable(u"last first event at %1 ms, first completion at %2 ms"_s.arg(lastFirstEvent).arg(firstCompletion)));
}

void TestRelay::largeBodyArrivesWhole()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    const QByteArray filler(2 * 1024 * 1024, 'x');
    const QByteArray body = R"({"model":"h1-alpha","max_tokens":1,"messages":[{"role":"user","content":"hi"}],"pad":")" + filler + "\"}";
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", body));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(client.responses().at(0).status, 200);
    const auto chats = f.receivedOn("/v1/chat/completions");
    QCOMPARE(chats.size(), 1);
    const auto it = chats.begin();
    // Whole, with only the model renamed to its key.
    QCOMPARE(it->body.size(), body.size() - qsizetype(strlen("h1-")));
    QVERIFY(it->body.contains(filler));
}

void TestRelay::oversizedBodyGets413()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.limits.maxBodyBytes = 1024 * 1024; }));
    const QByteArray body = R"({"model":"h1-alpha","pad":")" + QByteArray(1024 * 1024 + 10, 'x') + "\"}";
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", body));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 413);
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    const QJsonObject error = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject();
    QVERIFY2(error.value("message"_L1).toString().contains("limit"_L1), r.body.constData());
    // Nothing of it reached the upstream.
    QVERIFY(f.receivedOn("/v1/chat/completions").isEmpty());
}

void TestRelay::oversizedBodyWithExpectGets413WithoutBody()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.limits.maxBodyBytes = 1024; }));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 5000000\r\nExpect: 100-continue\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    QCOMPARE(client.responses().at(0).status, 413);
}

void TestRelay::expectContinueIsAnswered()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    const QByteArray body = chatBody("h1-alpha", 2, false);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\nExpect: 100-continue\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client.rawReceived().startsWith("HTTP/1.1 100 Continue\r\n\r\n"), 2000);
    client.send(body);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
}

void TestRelay::pipelinedRequestsAnswerInOrder()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    // A slow stream, then two quick requests, all in one write.
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20))
                + RawHttpClient::get("/health") + RawHttpClient::get("/v1/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 5000);
    const auto &rs = client.responses();
    QVERIFY(rs.at(0).body.endsWith("data: [DONE]\n\n"));
    QCOMPARE(countEvents(rs.at(0).body), 20 + 3);   // role chunk, tokens, finish chunk, [DONE]
    QCOMPARE(rs.at(1).body, QByteArray(R"({"status":"ok"})"));
    QVERIFY(rs.at(2).body.contains("h1-alpha"));
    QVERIFY(rs.at(1).headAtMs >= rs.at(0).completedAtMs);
}

void TestRelay::clientCutCancelsUpstreamQuickly()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(20)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 200)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && client.current()->chunkArrivalsMs.size() >= 2, 5000);
    QSignalSpy cancelled(f.fake.get(), &fake::FakeLlamaServer::requestCancelled);
    const qint64 cutAt = fake::FakeLlamaServer::nowMs();
    client.close();
    QVERIFY(cancelled.wait(2000));
    const auto *r = f.fake->request(cancelled.at(0).at(0).toLongLong());
    QVERIFY(r);
    QVERIFY2(r->cancelledAtMs - cutAt <= 100, qPrintable(u"cancelled %1 ms after the cut"_s.arg(r->cancelledAtMs - cutAt)));
    QCOMPARE(f.fake->activeGenerations(), 0);
}

void TestRelay::unknownAliasIs404()
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
// else, or Codex elsewhere, gets the status itself.
void TestRelay::codexGetsItsRefusalsAs400()
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
        QCOMPARE(error.value("code"_L1).toInt(), cases[i].code);
        QVERIFY(!error.value("message"_L1).toString().isEmpty());
    }
}

void TestRelay::upstreamRefusingIs424AndMarksTheHostDown()
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

void TestRelay::aBoxThatCameBackServesTheNextRequest()
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

void TestRelay::http10ClosesAfterResponse()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send("GET /health HTTP/1.0\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 3000);
    QVERIFY(client.rawReceived().startsWith("HTTP/1.1 200 OK\r\n"));
    QVERIFY(client.rawReceived().endsWith(R"({"status":"ok"})"));
}

void TestRelay::connectionCloseIsHonoured()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 3), "Connection: close\r\n"));
    QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 5000);
    QCOMPARE(client.completedResponses(), 1);
    QCOMPARE(client.responses().at(0).header("connection"), QByteArray("close"));
}

void TestRelay::idleConnectionIsClosed()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.limits.clientIdleTimeout = 300ms; }));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/health"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 3000);
    QVERIFY(client.disconnectedAtMs() - client.responses().at(0).completedAtMs >= 250);
}

// The idle timer is not stopped per request: it may fire while an answer streams, and must then
// leave the connection alone and start again when the answer ends.
void TestRelay::answerLongerThanIdleTimeoutIsNotCut()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(50), [](Config &c) { c.limits.clientIdleTimeout = 300ms; }));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/health"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    // The first answer's end armed the idle timer; it fires 300 ms into this stream (40 tokens
    // at 50/s: 800 ms).
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 40)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    const auto &r = client.responses().at(1);
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    QVERIFY2(r.completedAtMs - client.responses().at(0).completedAtMs >= 600,
             qPrintable(QString::number(r.completedAtMs - client.responses().at(0).completedAtMs)));
    QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 3000);
    QVERIFY2(client.disconnectedAtMs() - r.completedAtMs >= 250,
             qPrintable(QString::number(client.disconnectedAtMs() - r.completedAtMs)));
}

void TestRelay::mergedModelsUseAliases()
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

void TestRelay::modelIsRewrittenToKey()
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

// An agent's turn: 200 KB of conversation with quotes, escapes and UTF-8, the model named in the
// middle. The engine gets every byte as sent but the model's value, which is the engine's key.
void TestRelay::largeBodyReachesTheEngineByteForByte()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    QByteArray history;
    while (history.size() < 100 * 1024)
        history += R"({"role":"user","content":"int main() {\n  puts(\"h\u00e9llo \\\" \");\n}\t\u00e9"},)";
    const QByteArray before = R"({"messages":[)" + history + R"({"role":"user","content":"hi"}],"model")";
    const QByteArray after = R"(,"stream":false,"max_tokens":2,"tail":")" + history.left(100 * 1024 - 1).toHex()
        + R"("})";
    const QByteArray sent = before + R"( : "h1-alpha")" + after;
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", sent));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);   // the fake's 4096-token context refuses it
    const auto received = f.fake->received();
    const auto chat = std::find_if(received.cbegin(), received.cend(),
                                   [](const auto &r) { return r.path == "/v1/chat/completions"; });
    QVERIFY(chat != received.cend());
    const QByteArray expected = before + R"( : "alpha")" + after;
    QCOMPARE(chat->header("content-length").toLongLong(), qint64(expected.size()));
    QVERIFY(chat->body == expected);
}

void TestRelay::hopByHopHeadersDoNotCross()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false),
                                    "Connection: keep-alive, X-Secret-Hop\r\nX-Secret-Hop: 1\r\nKeep-Alive: timeout=9\r\nX-Kept: yes\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto chats = f.receivedOn("/v1/chat/completions");
    QCOMPARE(chats.size(), 1);
    const auto it = chats.begin();
    QVERIFY(it->header("x-secret-hop").isEmpty());
    QVERIFY(it->header("keep-alive").isEmpty());
    QCOMPARE(it->header("x-kept"), QByteArray("yes"));
    const auto &r = client.responses().at(0);
    QVERIFY(r.header("keep-alive").isEmpty());   // the upstream's Keep-Alive: timeout=5 is its own
    QVERIFY(!client.isDisconnected());
}

void TestRelay::loadShowsLoadingBeforeAnswerLeaves()
{
    fake::FakeOptions o = routerOptions();
    o.loadDelay = 1500ms;
    RelayFixture f;
    QVERIFY(f.start(o));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    // The load's answer and the list request go out back to back on one connection: the list is
    // answered right after the load's answer, from the relay's snapshot.
    client.send(RawHttpClient::post("/models/load", R"({"model":"h1-beta"})") + RawHttpClient::get("/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
    const QJsonArray data = QJsonDocument::fromJson(client.responses().at(1).body).object().value("data"_L1).toArray();
    for (const QJsonValue &v : data) {
        if (v.toObject().value("id"_L1).toString() == "h1-beta"_L1)
            QCOMPARE(v.toObject().value("status"_L1).toObject().value("value"_L1).toString(), u"loading"_s);
    }
}

void TestRelay::requestsAreJournaled()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    QSignalSpy finished(f.relay->relay(), &Relay::requestFinished);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 5)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    const auto record = finished.at(0).at(0).value<RequestRecord>();
    QCOMPARE(record.status, 200);
    QCOMPARE(record.model, u"h1-alpha"_s);
    QCOMPARE(record.host, u"h1"_s);
    QVERIFY(record.bytesOut > 0);
    QVERIFY(record.timeToFirstByte.has_value());
    QCOMPARE(record.streamedTokens.value_or(-1), 5);
}

void TestRelay::modelEventsAreMergedAndRelabelled()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    // The relay follows the fake's own feed before the test subscribes to the relay's.
    QTRY_COMPARE_WITH_TIMEOUT(f.fake->sseSubscribers(), 1, 3000);
    RawHttpClient feed(f.port());
    QVERIFY(feed.connectToServer());
    feed.send(RawHttpClient::get("/models/sse"));
    QTRY_VERIFY_WITH_TIMEOUT(feed.current() && feed.current()->status == 200, 3000);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/models/load", R"({"model":"h1-beta"})"));
    QTRY_VERIFY_WITH_TIMEOUT(feed.current() && feed.current()->body.contains(R"("status":"loaded")"), 5000);
    const QByteArray body = feed.current()->body;
    QVERIFY(body.startsWith("data: "));
    const QByteArray first = body.mid(6, body.indexOf('\n') - 6);
    const QJsonObject event = QJsonDocument::fromJson(first).object();
    QCOMPARE(event.value("model"_L1).toString(), u"h1-beta"_s);
    QCOMPARE(event.value("event"_L1).toString(), u"model_status"_s);
    QCOMPARE(event.value("proxy"_L1).toObject().value("key"_L1).toString(), u"beta"_s);
    QVERIFY(!body.contains(R"("model":"beta")"));
}

// The seed's probe: after a load returns, a poll of /models never reads "unloaded" again.
void TestRelay::probeNeverReadsUnloadedAfterLoad()
{
    fake::FakeOptions o = routerOptions();
    o.loadDelay = 1200ms;
    RelayFixture f;
    QVERIFY(f.start(o));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/models/load", R"({"model":"h1-beta"})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
    QString status;
    QElapsedTimer clock;
    clock.start();
    int polls = 0;
    while (status != "loaded"_L1 && clock.elapsed() < 10000) {
        client.send(RawHttpClient::get("/models"));
        ++polls;
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1 + polls, 3000);
        const QJsonArray data = QJsonDocument::fromJson(client.responses().last().body).object().value("data"_L1).toArray();
        for (const QJsonValue &v : data) {
            if (v.toObject().value("id"_L1).toString() == "h1-beta"_L1)
                status = v.toObject().value("status"_L1).toObject().value("value"_L1).toString();
        }
        QVERIFY2(status != "unloaded"_L1, qPrintable(u"poll %1 read unloaded"_s.arg(polls)));
        QTest::qWait(50);   // the probe's poll interval (scaled down), not a wait for a condition
    }
    QCOMPARE(status, u"loaded"_s);
}

namespace {
void quickWaiting(Config &c)
{
    c.waiting.early200After = 200ms;
    c.waiting.commentEvery = 300ms;
}
} // namespace

void TestRelay::streamHeadWaitsBrieflyForItsFirstEvent_data()
{
    QTest::addColumn<int>("prefillMs");
    // The engine sends its head, then the first event after `prefillMs` (prompt processing).
    QTest::newRow("first event right after the head") << 0;
    QTest::newRow("first event 400 ms after the head") << 400;
}

// A stream's head that arrives alone waits for the first event (one write, one wake-up of the
// client), but only ResponseWriter::HoldLimit: a client whose prompt takes long still learns
// at once that its stream began. (That head and event then leave in one sendmsg() is seen with
// strace on the real binary; in one process the client's reads cannot tell.)
void TestRelay::streamHeadWaitsBrieflyForItsFirstEvent()
{
    QFETCH(int, prefillMs);
    fake::FakeOptions o = routerOptions(0);   // as fast as the fake's event loop goes
    o.prefillDelay = std::chrono::milliseconds(prefillMs);
    RelayFixture f;
    QVERIFY(f.start(o));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    const qint64 sentAt = client.nowMs();
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.startsWith("data: {"));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    QVERIFY(!r.chunkArrivalsMs.isEmpty());
    const qint64 firstEventAt = r.chunkArrivalsMs.first();
    QVERIFY2(firstEventAt - r.headAtMs >= prefillMs / 2,
             qPrintable(u"head at %1 ms, first event at %2 ms"_s.arg(r.headAtMs - sentAt).arg(firstEventAt - sentAt)));
}

void TestRelay::early200KeepsWaitingStreamAlive()
{
    fake::FakeOptions o = routerOptions(200);
    o.loadDelay = 1500ms;
    RelayFixture f;
    QVERIFY(f.start(o, quickWaiting));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    const qint64 sentAt = client.nowMs();
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 4)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && client.current()->status == 200, 3000);
    QVERIFY2(client.current()->headAtMs - sentAt < 1000, "the early 200 must come long before the model is loaded");
    QCOMPARE(client.current()->header("content-type"), QByteArray("text/event-stream"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const QByteArray body = client.responses().at(0).body;
    QVERIFY2(body.startsWith(": waiting for host h1 to load beta\n\n"), body.left(200).constData());
    QVERIFY(body.count(": waiting for") >= 2);   // 200 ms, then every 300 ms until ~1.5 s
    QVERIFY(body.contains("data: {"));
    QVERIFY(body.endsWith("data: [DONE]\n\n"));
}

void TestRelay::early200ThenFailureIsAnSseErrorInShape_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("expectedStart");
    QTest::newRow("chat completions") << QByteArray("/v1/chat/completions") << QByteArray("data: {\"error\":");
    QTest::newRow("anthropic messages") << QByteArray("/v1/messages") << QByteArray("event: error\ndata: {\"error\":");
}

void TestRelay::early200ThenFailureIsAnSseErrorInShape()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, expectedStart);
    fake::FakeOptions o = routerOptions();
    o.loadDelay = 800ms;
    o.failLoad = {u"beta"_s};
    RelayFixture f;
    QVERIFY(f.start(o, quickWaiting));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post(path, chatBody("h1-beta", 4)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 200);
    const qsizetype at = r.body.indexOf(expectedStart.startsWith("event") ? QByteArray("event: error") : QByteArray("data: {"));
    QVERIFY2(at > 0, r.body.constData());
    QVERIFY2(r.body.mid(at).startsWith(expectedStart) || r.body.mid(at).contains("\"type\":\"error\""), r.body.constData());
    QVERIFY2(r.body.contains("failed to load"), r.body.constData());   // the upstream's own reason
    QVERIFY(!r.body.contains("[DONE]"));
}

void TestRelay::nonStreamingRequestGetsNoEarly200()
{
    fake::FakeOptions o = routerOptions();
    o.loadDelay = 700ms;
    o.failLoad = {u"beta"_s};
    RelayFixture f;
    QVERIFY(f.start(o, quickWaiting));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 4, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    // llama.cpp's 500 "failed to load" is no retry's business: the relay's 424, in shape.
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 424);
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    const QJsonObject error = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject();
    QVERIFY2(error.value("message"_L1).toString().contains("model name=beta failed to load"_L1), r.body.constData());
    // The same on /v1/messages, in Anthropic's shape.
    client.send(RawHttpClient::post("/v1/messages", chatBody("h1-beta", 4, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 424);
    QCOMPARE(QJsonDocument::fromJson(client.responses().at(1).body).object().value("type"_L1).toString(), u"error"_s);
}

void TestRelay::clientLeavingDuringWaitCancelsUpstream()
{
    fake::FakeOptions o = routerOptions();
    o.loadDelay = 3000ms;
    RelayFixture f;
    QVERIFY(f.start(o, quickWaiting));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 4)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && client.current()->body.contains(": waiting"), 3000);
    QSignalSpy cancelled(f.fake.get(), &fake::FakeLlamaServer::requestCancelled);
    client.close();
    QVERIFY(cancelled.wait(2000));
    const auto *r = f.fake->request(cancelled.at(0).at(0).toLongLong());
    QVERIFY(r);
    QCOMPARE(r->tokensSent, 0);
}

void TestRelay::refusals_data()
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

void TestRelay::refusals()
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

// The relay reads requests itself (ClientConnection, RequestHead): what it must read, and the
// ambiguous framings it must refuse rather than guess (a proxy that reads a body differently
// from the server behind it is how requests get smuggled).
void TestRelay::requestFramingIsReadOrRefused_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("why");   // a part of the refusal's message
    const QByteArray body = chatBody("h1-alpha", 2, false);
    const QByteArray post = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    const QByteArray half = QByteArray::number(body.size() / 2, 16);
    const QByteArray rest = QByteArray::number(body.size() - body.size() / 2, 16);
    QTest::newRow("chunked body") << post + "Transfer-Encoding: chunked\r\n\r\n" + half + ";ext=1\r\n"
                                         + body.first(body.size() / 2) + "\r\n" + rest + "\r\n"
                                         + body.sliced(body.size() / 2) + "\r\n0\r\n\r\n"
                                  << 200 << QString();
    QTest::newRow("absolute-form target") << "GET http://relay.test/health HTTP/1.1\r\nHost: relay.test\r\n\r\n"_ba << 200 << QString();
    QTest::newRow("percent-encoded path") << "GET /v1/%6Dodels HTTP/1.1\r\nHost: x\r\n\r\n"_ba << 200 << QString();
    QTest::newRow("length and chunked") << post + "Content-Length: " + QByteArray::number(body.size())
                                               + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                                        << 400 << u"both Content-Length and Transfer-Encoding"_s;
    QTest::newRow("two lengths") << post + "Content-Length: 2\r\nContent-Length: " + QByteArray::number(body.size())
                                        + "\r\n\r\n" + body
                                 << 400 << u"two different Content-Length headers"_s;
    QTest::newRow("space before colon") << post + "Content-Length : " + QByteArray::number(body.size()) + "\r\n\r\n" + body
                                        << 400 << u"no space before the colon"_s;
    QTest::newRow("signed length") << post + "Content-Length: +" + QByteArray::number(body.size()) + "\r\n\r\n" + body
                                   << 400 << u"Content-Length is not a plain number"_s;
    QTest::newRow("other transfer coding") << post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" << 400 << u"a Transfer-Encoding other than chunked"_s;
    QTest::newRow("bare LF in a value") << "GET /health HTTP/1.1\r\nHost: x\r\nX-Note: a\nInjected: b\r\n\r\n"_ba << 400 << u"a header value holds a control character"_s;
    QTest::newRow("space in the target") << "GET /he alth HTTP/1.1\r\nHost: x\r\n\r\n"_ba << 400 << u"the target holds a space"_s;
    QTest::newRow("bad chunk size") << post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body + "\r\n0\r\n\r\n" << 400 << u"invalid chunk size"_s;
    // RFC 9112: hex digits only. A server that reads "+5" or "0x5" as 5 and one that refuses it
    // disagree on where the body ends.
    const QByteArray size = QByteArray::number(body.size(), 16);
    QTest::newRow("signed chunk size") << post + "Transfer-Encoding: chunked\r\n\r\n+" + size + "\r\n" + body + "\r\n0\r\n\r\n"
                                       << 400 << u"invalid chunk size"_s;
    QTest::newRow("0x chunk size") << post + "Transfer-Encoding: chunked\r\n\r\n0x" + size + "\r\n" + body + "\r\n0\r\n\r\n"
                                   << 400 << u"invalid chunk size"_s;
    QTest::newRow("upper-case chunk size") << post + "Transfer-Encoding: chunked\r\n\r\n" + size.toUpper() + "\r\n" + body
                                                  + "\r\n0\r\n\r\n"
                                           << 200 << QString();
}

void TestRelay::requestFramingIsReadOrRefused()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, why);
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(request);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, status);
    if (status == 200) {
        if (request.startsWith("POST"))
            QVERIFY2(r.body.contains("choices"), r.body.constData());
        QVERIFY(!client.isDisconnected());
    } else {
        QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
        QCOMPARE(r.header("connection"), QByteArray("close"));
        QVERIFY2(QString::fromUtf8(r.body).contains(why), r.body.constData());
        QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 5000);
    }
}

// More pipelined requests than the connection queues at once: the rest wait in the socket and
// are read as answers go out, all answered in order.
void TestRelay::manyPipelinedRequestsAreAllAnswered()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    QByteArray all;
    for (int i = 0; i < 30; ++i)
        all += i % 2 ? RawHttpClient::get("/health") : RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false));
    client.send(all);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 30, 10000);
    for (int i = 0; i < 30; ++i) {
        QCOMPARE(client.responses().at(i).status, 200);
        QCOMPARE(client.responses().at(i).body.contains("choices"), i % 2 == 0);
    }
    QVERIFY(!client.isDisconnected());
}

void TestRelay::optionsAndHeadAreAnswered()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send("OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: x\r\nOrigin: http://example.test\r\n\r\n");
    client.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client.rawReceived().count("HTTP/1.1 ") == 2, 3000);
    const QByteArray raw = client.rawReceived();
    QVERIFY(raw.startsWith("HTTP/1.1 204 No Content\r\n"));
    QVERIFY(raw.contains("Access-Control-Allow-Origin: *\r\n"));
    QVERIFY(raw.contains("HTTP/1.1 200 OK\r\n"));
    QVERIFY(!client.isDisconnected());
}

void TestRelay::lateSystemMessageIsRewrittenOnMessagesOnly()
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
    QCOMPARE(chat.status, 500);   // elsewhere llama.cpp's answer passes unchanged
    QVERIFY(chat.body.contains("System message must be at the beginning."));
}

void TestRelay::contextOverflowIsRewrittenOnMessages()
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
    client.send(RawHttpClient::post("/v1/messages", body));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 400);
    const QString message = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(QRegularExpression(u"^prompt is too long: \\d+ tokens > 32 maximum$"_s).match(message).hasMatch(), qPrintable(message));
}

void TestRelay::refusedUpstreamIsRetriedOnce()
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

void TestRelay::historyRecordsStreamsWithRatesAndNoSecrets()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SystemClock clock;
    const QString dbPath = dir.filePath(u"history.sqlite"_s);
    auto store = std::make_unique<HistoryStore>(dbPath, clock);
    QVERIFY(store->isOpen());
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    f.relay->setHistory(store.get());
    QStringList journalLines;
    connect(f.relay->relay(), &Relay::requestFinished, this,
            [&journalLines](const RequestRecord &r) { journalLines.append(JournalFormat::requestLine(r)); });
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    for (int i = 0; i < 3; ++i)
        client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20), "Authorization: Bearer sekrit-123\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 10000);
    store->sync();
    RequestQuery query;
    query.host = u"h1"_s;
    const QList<RequestRecord> rows = store->requests(query);
    QCOMPARE(rows.size(), 3);
    for (const RequestRecord &r : rows) {
        QCOMPARE(r.status, 200);
        QVERIFY(r.timeToFirstByte.has_value());
        QVERIFY(r.duration > *r.timeToFirstByte);
        QCOMPARE(r.streamedTokens.value_or(-1), 20);
        QVERIFY2(r.tokensPerSecond && qAbs(*r.tokensPerSecond - 100.0) <= 10.0,
                 qPrintable(u"tokens/s %1"_s.arg(r.tokensPerSecond.value_or(-1))));
    }
    store.reset();   // close: everything is in the file now
    QByteArray fileBytes;
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s}) {
        QFile file(dbPath + suffix);
        if (file.open(QIODevice::ReadOnly))
            fileBytes += file.readAll();
    }
    QVERIFY(!fileBytes.isEmpty());
    QVERIFY(!fileBytes.contains("sekrit-123"));
    QCOMPARE(journalLines.size(), 3);
    QVERIFY(!journalLines.join(u'\n').contains("sekrit"_L1));
}

void TestRelay::adminApiServesHistoryAndStats()
{
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    f.relay->setHistory(&store);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 10), "Authorization: Bearer sekrit-9\r\n"));
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-nope", 10)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    client.send(RawHttpClient::get("/admin/requests?model=h1-alpha"));
    client.send(RawHttpClient::get("/admin/stats"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 4, 5000);
    const QJsonArray rows = QJsonDocument::fromJson(client.responses().at(2).body).array();
    QCOMPARE(rows.size(), 1);
    const QJsonObject row = rows.at(0).toObject();
    QCOMPARE(row.value("status"_L1).toInt(), 200);
    QVERIFY(row.value("ttfb_ms"_L1).isDouble());
    QCOMPARE(row.value("client_app"_L1).toString(), u"other"_s);   // RawHttpClient sends no User-Agent
    QVERIFY(row.value("journal"_L1).toString().contains(R"(POST /v1/chat/completions model="h1-alpha" host=h1 status=200)"_L1));
    const QJsonObject aliases = QJsonDocument::fromJson(client.responses().at(3).body).object().value("aliases"_L1).toObject();
    QCOMPARE(aliases.value("h1-alpha"_L1).toObject().value("requests"_L1).toInt(), 1);
    QCOMPARE(aliases.value("h1-nope"_L1).toObject().value("errors"_L1).toInt(), 1);
    for (const auto &r : client.responses())
        QVERIFY(!r.body.contains("sekrit"));
}

void TestRelay::configuredAliasGlobReachesItsModel()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.aliases.append({u"claude-*"_s, u"h1-alpha"_s}); }));
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

void TestRelay::enginesModelsAreRememberedAcrossRestarts()
{
    QTemporaryDir dir;
    const QString memory = dir.filePath(u"engines.json"_s);
    // A host whose second engine "b" is not running: only memory can say what it serves.
    auto withSecondEngine = [](Config &c) {
        EngineConfig b;
        b.name = u"b"_s;
        b.url = QUrl(u"http://127.0.0.1:1"_s);
        c.hosts.first().engines.append(b);
    };
    {
        RelayFixture f;
        QVERIFY(f.start(routerOptions(), withSecondEngine));
        QVERIFY(f.relay->catalog()->engineFor(u"h1"_s, u"gamma"_s).isEmpty());
        f.relay->catalog()->setMemoryFile(memory);   // learns and writes "main": alpha, beta
        f.relay->catalog()->refreshHost(u"h1"_s);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(memory), 3000);
    }
    // Pretend engine b once served gamma, then restart.
    QFile file(memory);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject h1 = root.value("h1"_L1).toObject();
    QCOMPARE(h1.value("main"_L1).toArray().size(), 2);
    h1.insert("b"_L1, QJsonArray{QJsonObject{{"id"_L1, "gamma"_L1}}});
    root.insert("h1"_L1, h1);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(root).toJson());
    file.close();

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), withSecondEngine));
    f.relay->catalog()->setMemoryFile(memory);
    QCOMPARE(f.relay->catalog()->engineFor(u"h1"_s, u"gamma"_s), u"b"_s);
    const QJsonArray data = QJsonDocument::fromJson(f.relay->catalog()->modelsJson()).object().value("data"_L1).toArray();
    bool listed = false;
    for (const QJsonValue &v : data) {
        const QJsonObject o = v.toObject();
        if (o.value("id"_L1).toString() == "h1-gamma"_L1) {
            listed = true;
            QCOMPARE(o.value("status"_L1).toObject().value("value"_L1).toString(), u"unloaded"_s);
            QCOMPARE(o.value("proxy"_L1).toObject().value("engine"_L1).toString(), u"b"_s);
        }
    }
    QVERIFY(listed);
}

void TestRelay::shutdownLetsRunningStreamsFinish()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(50)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 15)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && !client.current()->chunkArrivalsMs.isEmpty(), 5000);
    QSignalSpy stopped(f.relay.get(), &RelayService::stopped);
    f.relay->shutdown(10s);
    RawHttpClient late(f.port());
    QVERIFY(!late.connectToServer());   // no longer accepting
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QVERIFY(client.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 2000);
}

void TestRelay::shutdownCutsAfterTheGracePeriod()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(10)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 500)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && !client.current()->chunkArrivalsMs.isEmpty(), 5000);
    QSignalSpy stopped(f.relay.get(), &RelayService::stopped);
    QElapsedTimer clock;
    clock.start();
    f.relay->shutdown(300ms);
    QVERIFY(stopped.wait(3000));
    QVERIFY2(clock.elapsed() >= 250 && clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
}


void TestRelay::streamStatsFindTheCountWhereverReadsSplit_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<double>("perSecond");   // -1: none given, derived from the time
    QTest::addColumn<qint64>("prompt");      // tokens in; -1: none
    const QByteArray token = "data: {\"choices\":[{\"delta\":{\"content\":\"usage timings\"}}]}\n\n";
    QTest::newRow("llama.cpp timings")
        << token + token
               + "data: {\"choices\":[],\"timings\":{\"predicted_n\":42,\"predicted_per_second\":12.5}}\n\n"
               + "data: [DONE]\n\n"
        << qint64(42) << 12.5 << qint64(-1);
    QTest::newRow("OpenAI usage, CRLF")
        << QByteArray(token).replace("\n", "\r\n")
               + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":7}}\r\n\r\n"
        << qint64(7) << -1.0 << qint64(3);
    QTest::newRow("Anthropic output_tokens, last one wins")
        << QByteArray("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"output_tokens\":1}}}\n\n")
               + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"hi\"}}\n\n"
               + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\n\n"
        << qint64(9) << -1.0 << qint64(-1);
    QTest::newRow("Responses API: response.completed holds the usage")
        << QByteArray("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"usage\"}\n\n")
               + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\","
                 "\"output\":[{\"usage\":{\"output_tokens\":99}}],\"usage\":{\"input_tokens\":12,\"output_tokens\":11,\"total_tokens\":23}}}\n\n"
        << qint64(11) << -1.0 << qint64(12);
    QTest::newRow("the member, not the word in the text or in a nested object")
        << token
               + "data: {\"id\":\"c1\",\"created\":17, \"choices\":[{\"delta\":{\"content\":\"\\\"usage\\\":{\\\"completion_tokens\\\":99}\"},"
                 "\"x\":{\"usage\":{\"completion_tokens\":98}}}],\"ok\":true,\"usage\" : {\"completion_tokens\":7}}\n\n"
        << qint64(7) << -1.0 << qint64(-1);
    QTest::newRow("a nested usage alone counts nothing")
        << QByteArray("data: {\"n\":-1.5e3,\"x\":[{\"usage\":{\"completion_tokens\":5}}],\"usage\":null}\n\n")
        << qint64(-1) << -1.0 << qint64(-1);
    QTest::newRow("the word outside a data line is ignored")
        << token + ": \"usage\" {\"usage\":{\"completion_tokens\":5}}\n\n" << qint64(-1) << -1.0 << qint64(-1);
    // Tokens in: the whole prompt, what the engine took from its cache included (the real
    // llama-server's answers, llama-transcripts/13 and 22).
    QTest::newRow("llama.cpp usage and timings, prompt partly cached")
        << token
               + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":4,\"prompt_tokens\":29,\"total_tokens\":33,"
                 "\"prompt_tokens_details\":{\"cached_tokens\":10}},\"timings\":{\"cache_n\":10,\"prompt_n\":19,"
                 "\"predicted_n\":4,\"predicted_per_second\":983.5}}\n\n"
        << qint64(4) << 983.5 << qint64(29);
    QTest::newRow("llama.cpp timings alone")
        << token + "data: {\"timings\":{\"cache_n\":146,\"prompt_n\":1,\"predicted_n\":109,\"predicted_per_second\":1335.5}}\n\n"
        << qint64(109) << 1335.5 << qint64(147);
    QTest::newRow("Anthropic input in message_start, cache reads included")
        << QByteArray("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":"
                      "{\"cache_read_input_tokens\":27,\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
               + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":6}}\n\n"
        << qint64(6) << -1.0 << qint64(28);
}

// The scan skips reads that cannot hold a count; a count split over two reads anywhere (inside
// the word, the number, before the newline) must still be found, and the same as whole.
void TestRelay::streamStatsFindTheCountWhereverReadsSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(qint64, tokens);
    QFETCH(double, perSecond);
    QFETCH(qint64, prompt);
    for (qsizetype first = 0; first <= stream.size(); ++first) {
        for (qsizetype second = first; second <= stream.size(); second += 7) {
            StreamStats stats;
            stats.feed(QByteArrayView(stream).first(first));
            stats.feed(QByteArrayView(stream).sliced(first, second - first));
            stats.feed(QByteArrayView(stream).sliced(second));
            const QString where = u"split at %1 and %2"_s.arg(first).arg(second);
            QVERIFY2(stats.tokens().value_or(-1) == tokens, qPrintable(where));
            QVERIFY2(stats.promptTokens().value_or(-1) == prompt, qPrintable(where));
            const std::optional<double> rate = stats.tokensPerSecond(std::chrono::seconds(2));
            if (perSecond >= 0)
                QVERIFY2(rate && *rate == perSecond, qPrintable(where));
            else if (tokens >= 0)
                QVERIFY2(rate && *rate == double(tokens) / 2.0, qPrintable(where));
            else
                QVERIFY2(!rate, qPrintable(where));
        }
    }
}

void TestRelay::commonHeaderBytesAreSharedButSafe_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("known name") << "Content-Type"_ba;
    QTest::newRow("known name, Node's spelling") << "content-type"_ba;
    QTest::newRow("known value") << "text/event-stream"_ba;
    QTest::newRow("other spelling") << "CONTENT-TYPE"_ba;
    QTest::newRow("same length, other bytes") << "Content-Tipe"_ba;
    QTest::newRow("unknown") << "X-Stainless-Lang"_ba;
    QTest::newRow("empty") << QByteArray("");
}

void TestRelay::commonHeaderBytesAreSharedButSafe()
{
    QFETCH(QByteArray, bytes);
    QByteArray first = HttpHeaders::common(bytes);
    QCOMPARE(first, bytes);
    // Writing to one copy must not change what the next request gets.
    first.append("!");
    first[0] = '#';
    QCOMPARE(HttpHeaders::common(bytes), bytes);
}

void TestRelay::modelFieldIsReplacedAsAJsonString_data()
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

void TestRelay::modelFieldIsReplacedAsAJsonString()
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

void TestRelay::idleMemoryIsTrimmedOnlyWithNothingInFlight()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(20)));
    IdleMemoryTrimmer trimmer(100ms);
    trimmer.watch(f.relay->relay());
    int trimsWhenStreamEnded = -1;
    connect(f.relay->relay(), &Relay::requestFinished, this, [&](const RequestRecord &r) {
        if (r.path == "/v1/chat/completions"_L1)
            trimsWhenStreamEnded = trimmer.trims();
    });
    // A stream of about a second, and a short request that ends at its start: the short one's
    // quiet time runs out while the stream is still in flight, which must not trim.
    RawHttpClient stream(f.port());
    QVERIFY(stream.connectToServer());
    stream.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20)));
    RawHttpClient shortOne(f.port());
    QVERIFY(shortOne.connectToServer());
    shortOne.send(RawHttpClient::get("/health"));
    QTRY_COMPARE_WITH_TIMEOUT(shortOne.completedResponses(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(stream.completedResponses(), 1, 10000);
    QCOMPARE(stream.responses().at(0).status, 200);
    QCOMPARE(trimsWhenStreamEnded, 0);
    // Nothing in flight any more: one trim, a quiet time after the stream ended.
    QTRY_COMPARE_WITH_TIMEOUT(trimmer.trims(), 1, 5000);
}

QTEST_GUILESS_MAIN(TestRelay)
#include "tst_relay.moc"
