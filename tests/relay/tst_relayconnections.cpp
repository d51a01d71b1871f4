// The relay core against a real fake llama.cpp router: HTTP framing and connections (streams,
// large and oversized bodies, Expect, pipelining, keep-alive and close, idle cuts, hop-by-hop
// headers, OPTIONS and HEAD, client cuts).
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

class TestRelayConnections : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { failOnLifecycleBugs(); }
    void streamArrivesIncrementallyAndConnectionIsReused();
    void fiftyConcurrentStreamsAllStreamAtOnce();
    void largeBodyArrivesWhole();
    void oversizedBodyGets413();
    void oversizedBodyWithExpectGets413WithoutBody();
    void expectContinueIsAnswered();
    void pipelinedRequestsAnswerInOrder();
    void clientCutCancelsUpstreamQuickly();
    void http10ClosesAfterResponse();
    void connectionCloseIsHonoured();
    void idleConnectionIsClosed();
    void answerLongerThanIdleTimeoutIsNotCut();
    void largeBodyReachesTheEngineByteForByte();
    void hopByHopHeadersDoNotCross();
    void optionsAndHeadAreAnswered();
    void requestFramingIsReadOrRefused_data();
    void requestFramingIsReadOrRefused();
    void manyPipelinedRequestsAreAllAnswered();
    void commonHeaderBytesAreSharedButSafe_data();
    void commonHeaderBytesAreSharedButSafe();
};

void TestRelayConnections::streamArrivesIncrementallyAndConnectionIsReused()
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

void TestRelayConnections::fiftyConcurrentStreamsAllStreamAtOnce()
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

void TestRelayConnections::largeBodyArrivesWhole()
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

void TestRelayConnections::oversizedBodyGets413()
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

void TestRelayConnections::oversizedBodyWithExpectGets413WithoutBody()
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

void TestRelayConnections::expectContinueIsAnswered()
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

void TestRelayConnections::pipelinedRequestsAnswerInOrder()
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

void TestRelayConnections::clientCutCancelsUpstreamQuickly()
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

void TestRelayConnections::http10ClosesAfterResponse()
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

void TestRelayConnections::connectionCloseIsHonoured()
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

void TestRelayConnections::idleConnectionIsClosed()
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
void TestRelayConnections::answerLongerThanIdleTimeoutIsNotCut()
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

// An agent's turn: 200 KB of conversation with quotes, escapes and UTF-8, the model named in the
// middle. The engine gets every byte as sent but the model's value, which is the engine's key.
void TestRelayConnections::largeBodyReachesTheEngineByteForByte()
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

void TestRelayConnections::hopByHopHeadersDoNotCross()
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

// The relay reads requests itself (ClientConnection, RequestHead): what it must read, and the
// ambiguous framings it must refuse rather than guess (a proxy that reads a body differently
// from the server behind it is how requests get smuggled).
void TestRelayConnections::requestFramingIsReadOrRefused_data()
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

void TestRelayConnections::requestFramingIsReadOrRefused()
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
void TestRelayConnections::manyPipelinedRequestsAreAllAnswered()
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

void TestRelayConnections::optionsAndHeadAreAnswered()
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

void TestRelayConnections::commonHeaderBytesAreSharedButSafe_data()
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

void TestRelayConnections::commonHeaderBytesAreSharedButSafe()
{
    QFETCH(QByteArray, bytes);
    QByteArray first = HttpHeaders::common(bytes);
    QCOMPARE(first, bytes);
    // Writing to one copy must not change what the next request gets.
    first.append("!");
    first[0] = '#';
    QCOMPARE(HttpHeaders::common(bytes), bytes);
}

QTEST_GUILESS_MAIN(TestRelayConnections)

#include "tst_relayconnections.moc"
