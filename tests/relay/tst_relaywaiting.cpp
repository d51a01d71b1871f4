// The relay core against a real fake llama.cpp router: a request waiting for a load (loading
// shown, model events relabelled, the early 200 and its comments, a client leaving).
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

class TestRelayWaiting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { failOnLifecycleBugs(); }
    void loadShowsLoadingBeforeAnswerLeaves();
    void modelEventsAreMergedAndRelabelled();
    void probeNeverReadsUnloadedAfterLoad();
    void streamHeadWaitsBrieflyForItsFirstEvent_data();
    void streamHeadWaitsBrieflyForItsFirstEvent();
    void early200KeepsWaitingStreamAlive();
    void early200ThenFailureIsAnSseErrorInShape_data();
    void early200ThenFailureIsAnSseErrorInShape();
    void nonStreamingRequestGetsNoEarly200();
    void clientLeavingDuringWaitCancelsUpstream();
};

void TestRelayWaiting::loadShowsLoadingBeforeAnswerLeaves()
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

void TestRelayWaiting::modelEventsAreMergedAndRelabelled()
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
void TestRelayWaiting::probeNeverReadsUnloadedAfterLoad()
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

void TestRelayWaiting::streamHeadWaitsBrieflyForItsFirstEvent_data()
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
void TestRelayWaiting::streamHeadWaitsBrieflyForItsFirstEvent()
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

void TestRelayWaiting::early200KeepsWaitingStreamAlive()
{
    fake::FakeOptions o = routerOptions(200);
    o.loadDelay = 1500ms;
    RelayFixture f;
    QVERIFY(f.start(o, quickWaiting));
    QList<RequestRecord> finished;
    connect(f.relay->relay(), &Relay::requestFinished, this, [&finished](const RequestRecord &r) { finished.append(r); });
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
    // Issue 30 item 12: its first byte is the engine's, after the load, not the relay's first
    // keepalive comment (200 ms after arrival).
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QVERIFY(finished.first().timeToFirstByte.has_value());
    QVERIFY2(*finished.first().timeToFirstByte >= 1000ms,
             qPrintable(QString::number(std::chrono::duration<double, std::milli>(*finished.first().timeToFirstByte).count())));
}

void TestRelayWaiting::early200ThenFailureIsAnSseErrorInShape_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("expectedStart");
    QTest::newRow("chat completions") << QByteArray("/v1/chat/completions") << QByteArray("data: {\"error\":");
    QTest::newRow("anthropic messages") << QByteArray("/v1/messages") << QByteArray("event: error\ndata: {\"error\":");
}

void TestRelayWaiting::early200ThenFailureIsAnSseErrorInShape()
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

void TestRelayWaiting::nonStreamingRequestGetsNoEarly200()
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
    // A refusal the waiting request answers itself takes the client's own form, as one the relay
    // answers at once does: Codex's 400 (it sends any other refusal five times more).
    client.send(RawHttpClient::post("/v1/responses", R"({"model":"h1-beta","input":"hi"})",
                                    "User-Agent: codex_exec/0.169.0 (Debian 12.0.0; x86_64) dumb\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 5000);
    const auto &codex = client.responses().at(2);
    QCOMPARE(codex.status, 400);
    QCOMPARE(QJsonDocument::fromJson(codex.body).object().value("error"_L1).toObject().value("code"_L1).toInt(), 424);
}

void TestRelayWaiting::clientLeavingDuringWaitCancelsUpstream()
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

QTEST_GUILESS_MAIN(TestRelayWaiting)

#include "tst_relaywaiting.moc"
