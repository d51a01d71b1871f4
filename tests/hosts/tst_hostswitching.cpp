// A host with two engines behind the relay: switching on demand without cutting a stream,
// leases, failed switches, and the model list staying true throughout.
#include "switchingfixture.h"
#include "testenginedriver.h"

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "config/configloader.h"
#include "hosts/hostcontroller.h"
#include "rawhttpclient.h"
#include "replies/clientreplies.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

QStringList tokensOf(const QByteArray &sse)
{
    QStringList tokens;
    for (const QByteArray &line : sse.split('\n')) {
        if (!line.startsWith("data: {"))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line.mid(6)).object();
        const QJsonObject delta = o.value("choices"_L1).toArray().at(0).toObject().value("delta"_L1).toObject();
        if (delta.contains("content"_L1))
            tokens << delta.value("content"_L1).toString();
    }
    return tokens;
}

} // namespace

class TestHostSwitching : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runningStreamFinishesBeforeTheSwitch();
    void probeThroughASwitchNeverReadsUnloaded();
    void leaseRefusesWith423NamingTheOwner();
    void failedSwitchAnswers424WithTheReason();
    void leaseOverTheAdminApiWaitsForRunningStreams();
    void leaseCommandHoldsTheHostWhileItsCommandRuns();
    void switchOnCommandDrainsFirstAndAnswersWhenUp();
    void switchOnCommandRefusesWhatCannotBe();
    void loadAnsweredInsideItsAdmissionLeavesNothingRunning();
    void unknownModelNamesEveryModelOfEveryEngine();
    void adminHostsListsWhatADrainWaitsOn();
    void batchKeepsTheEngineThroughItsDwellThenSwitches();
    void batchSwitchesAtTheBoundWhileTheEngineHasWork();
    void sideCallWaitsAtMostItsOwnBound();
    void batchedWaiterIsToldWhatItWaitsFor();
};

void TestHostSwitching::runningStreamFinishesBeforeTheSwitch()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    // What the same stream looks like straight from engine a.
    RawHttpClient direct(f.engineA->port());
    QVERIFY(direct.connectToServer());
    direct.send(RawHttpClient::post("/v1/chat/completions", chatBody("alpha", 16, true)));
    QTRY_COMPARE_WITH_TIMEOUT(direct.completedResponses(), 1, 5000);

    RawHttpClient feed(f.port());
    QVERIFY(feed.connectToServer());
    feed.send(RawHttpClient::get("/models/sse"));
    QTRY_VERIFY_WITH_TIMEOUT(feed.current() && feed.current()->status == 200, 3000);
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 16, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 4, false)));

    QTRY_COMPARE_WITH_TIMEOUT(streaming.completedResponses(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 10000);
    const auto &stream = streaming.responses().at(0);
    QVERIFY(stream.body.endsWith("data: [DONE]\n\n"));
    QCOMPARE(tokensOf(stream.body), tokensOf(direct.responses().at(0).body));   // not cut, not altered
    QCOMPARE(other.responses().at(0).status, 200);
    QVERIFY(other.responses().at(0).headAtMs >= stream.completedAtMs);

    // Journal order: the switch starts only after the stream ended, then the engine comes up.
    QCOMPARE(f.events.size(), 2);
    QCOMPARE(f.events.at(0).toString(), u"host h1: switching to engine b for h1-beta"_s);
    QVERIFY(f.events.at(1).toString().startsWith("host h1: engine b up after "_L1));
    QVERIFY(f.eventTimesMs.at(0) >= stream.completedAtMs - 5);
    QCOMPARE(f.relay->hostController(u"h1"_s)->currentEngine(), u"b"_s);
    // The merged feed told its subscribers about the switch too.
    QTRY_VERIFY_WITH_TIMEOUT(feed.current()->body.contains(R"("event":"switchyard_switch_end")"), 3000);
    QVERIFY(feed.current()->body.contains(R"("model":"h1-*")"));
}

void TestHostSwitching::probeThroughASwitchNeverReadsUnloaded()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    QCOMPARE(f.statusOf(f.relay->catalog()->modelsJson(), u"h1-beta"_s), u"unloaded"_s);
    client.send(RawHttpClient::post("/models/load", R"({"model":"h1-beta"})"));
    // While the switch runs, the list already says loading.
    QTRY_COMPARE_WITH_TIMEOUT(f.statusOf(f.relay->catalog()->modelsJson(), u"h1-beta"_s), u"loading"_s, 1000);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
    QString status;
    int polls = 0;
    QElapsedTimer clock;
    clock.start();
    while (status != "loaded"_L1 && clock.elapsed() < 10000) {
        client.send(RawHttpClient::get("/models"));
        ++polls;
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1 + polls, 3000);
        status = f.statusOf(client.responses().last().body, u"h1-beta"_s);
        QVERIFY2(status != "unloaded"_L1, qPrintable(u"poll %1 read unloaded"_s.arg(polls)));
        QTest::qWait(200);   // the probe's poll interval, not a wait for a condition
    }
    QCOMPARE(status, u"loaded"_s);
}

void TestHostSwitching::leaseRefusesWith423NamingTheOwner()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    bool granted = false;
    host->takeLease(u"bench queue"_s, 3600s, [&granted](const std::optional<HostRefusal> &refused) { granted = !refused; });
    QTRY_VERIFY_WITH_TIMEOUT(granted, 3000);
    QVERIFY(!f.engineA->isListening());   // the engine was stopped for the lease holder
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    const auto &refused = client.responses().at(0);
    QCOMPARE(refused.status, 423);
    QCOMPARE(refused.header("x-should-retry"), QByteArray("false"));
    const QString message = QJsonDocument::fromJson(refused.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.contains("bench queue"_L1) && message.contains("until"_L1), qPrintable(message));
    host->releaseLease();
    client.send(RawHttpClient::post("/v1/messages", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);
    QCOMPARE(client.responses().at(1).status, 200);
}

void TestHostSwitching::failedSwitchAnswers424WithTheReason()
{
    SwitchingFixture f;
    QVERIFY(f.start([](TestEngineDriver &d) { d.failing = {u"b"_s}; }));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 424);
    QVERIFY(r.body.contains("exited with code 1"));
    QCOMPARE(f.relay->hostController(u"h1"_s)->stateName(), u"down"_s);
    QVERIFY(f.events.last().toString().startsWith("host h1: engine b failed: exited with code 1"_L1));
}

void TestHostSwitching::leaseOverTheAdminApiWaitsForRunningStreams()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 16, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::post("/admin/hosts/h1/lease", R"({"owner":"bench queue","ttl_s":600})"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 10000);
    QCOMPARE(admin.responses().at(0).status, 200);
    QCOMPARE(streaming.completedResponses(), 1);   // the lease waited for the stream
    QVERIFY(streaming.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QVERIFY(admin.responses().at(0).headAtMs >= streaming.responses().at(0).completedAtMs);
    admin.send(RawHttpClient::get("/admin/hosts"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 2, 3000);
    const QJsonObject h1 = QJsonDocument::fromJson(admin.responses().at(1).body).array().at(0).toObject();
    QCOMPARE(h1.value("state"_L1).toString(), u"leased"_s);
    QCOMPARE(h1.value("lease"_L1).toObject().value("owner"_L1).toString(), u"bench queue"_s);
    admin.send("DELETE /admin/hosts/h1/lease HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 3, 3000);
    QCOMPARE(admin.responses().at(2).status, 200);
    QCOMPARE(f.relay->hostController(u"h1"_s)->leaseOwner(), QString());
}

void TestHostSwitching::leaseCommandHoldsTheHostWhileItsCommandRuns()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    const QString binary = qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard"_s;
    QVERIFY2(QFile::exists(binary), qPrintable(binary));
    HostController *host = f.relay->hostController(u"h1"_s);
    const QString relayUrl = f.relay->endpoint().toString();
    // The command checks, while it runs, that the relay refuses the host with 423 naming the owner.
    QTemporaryDir dir;
    const QString seen = dir.filePath(u"seen"_s);
    QProcess lease;
    lease.start(binary, {u"lease"_s, u"h1"_s, u"--owner"_s, u"nightly bench"_s, u"--relay"_s, relayUrl, u"--"_s,
                         u"/bin/sh"_s, u"-c"_s,
                         u"curl -s -o /dev/null -w '%{http_code}' -d '{\"model\":\"h1-alpha\",\"messages\":[]}' %1/v1/chat/completions > %2; exit 3"_s
                             .arg(relayUrl, seen)});
    QTRY_COMPARE_WITH_TIMEOUT(lease.state(), QProcess::NotRunning, 20000);
    QCOMPARE(lease.exitCode(), 3);   // the command's own exit code
    QFile file(seen);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("423"));
    QCOMPARE(host->leaseOwner(), QString());   // released however the command ended
    QVERIFY(host->state() != HostStateMachine::State::Leased);
    const QByteArray err = lease.readAllStandardError();
    QVERIFY2(err.contains("given back"), err.constData());
}


void TestHostSwitching::switchOnCommandDrainsFirstAndAnswersWhenUp()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 16, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);

    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::post("/admin/hosts/h1/engine", R"({"engine":"b","by":"desktop"})"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 10000);
    QCOMPARE(admin.responses().at(0).status, 200);
    QCOMPARE(QJsonDocument::fromJson(admin.responses().at(0).body).object().value("engine"_L1).toString(), u"b"_s);
    // The stream was not cut: it ended before the switch began, and the answer came when b was up.
    QCOMPARE(streaming.completedResponses(), 1);
    QVERIFY(streaming.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QVERIFY(admin.responses().at(0).headAtMs >= streaming.responses().at(0).completedAtMs);
    QCOMPARE(f.relay->hostController(u"h1"_s)->currentEngine(), u"b"_s);
    QCOMPARE(f.events.size(), 2);
    QCOMPARE(f.events.at(0).toString(), u"host h1: switching to engine b for desktop"_s);
    QVERIFY(f.events.at(1).toString().startsWith("host h1: engine b up after "_L1));
    // The command holds no slot once the engine is up: a request for b goes straight through.
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->hostController(u"h1"_s)->runningRequests(), 0, 3000);
    QCOMPARE(f.relay->hostController(u"h1"_s)->stateName(), u"serving"_s);

    // Asking for the engine that already runs answers at once and switches nothing.
    admin.send(RawHttpClient::post("/admin/hosts/h1/engine", R"({"engine":"b"})"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 2, 3000);
    QCOMPARE(admin.responses().at(1).status, 200);
    QCOMPARE(f.events.size(), 2);
}

void TestHostSwitching::switchOnCommandRefusesWhatCannotBe()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    HostController *c = f.relay->hostController(u"h1"_s);
    QCOMPARE(c->engines(), (QStringList{u"a"_s, u"b"_s}));

    int status = 0;
    QString reason;
    const auto answered = [&](const std::optional<HostRefusal> &why) {
        status = why ? why->status() : 200;
        reason = why ? ClientReplies::fromHost(*why).message : QString();
    };
    c->switchEngine(u"nope"_s, u"test"_s, answered);
    QCOMPARE(status, 400);
    QVERIFY2(reason.contains("no engine \"nope\""_L1) && reason.contains("a, b"_L1), qPrintable(reason));

    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::post("/admin/hosts/h1/engine", R"({})"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 3000);
    QCOMPARE(admin.responses().at(0).status, 400);
    QVERIFY(admin.responses().at(0).body.contains("a, b"));
    admin.send(RawHttpClient::post("/admin/hosts/h9/engine", R"({"engine":"a"})"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 2, 3000);
    QCOMPARE(admin.responses().at(1).status, 404);

    // A leased host refuses with 423 naming the owner.
    bool granted = false;
    c->takeLease(u"bench queue"_s, 10min, [&](const std::optional<HostRefusal> &refused) { granted = !refused; });
    QTRY_VERIFY_WITH_TIMEOUT(granted, 5000);
    status = 0;
    c->switchEngine(u"b"_s, u"test"_s, answered);
    QTRY_COMPARE_WITH_TIMEOUT(status, 423, 3000);
    QVERIFY2(reason.contains("bench queue"_L1), qPrintable(reason));
}

void TestHostSwitching::adminHostsListsWhatADrainWaitsOn()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 40, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false), "User-Agent: opencode/1.18.33 ai-sdk\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->hostController(u"h1"_s)->waitingRequests(), 1, 5000);

    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::get("/admin/hosts"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 5000);
    const QJsonObject h1 = QJsonDocument::fromJson(admin.responses().at(0).body).array().at(0).toObject();
    QCOMPARE(h1.value("state"_L1).toString(), u"draining"_s);
    const QJsonArray running = h1.value("running_requests"_L1).toArray();
    const QJsonArray waiting = h1.value("waiting_requests"_L1).toArray();
    QCOMPARE(running.size(), 1);
    QCOMPARE(waiting.size(), 1);
    QCOMPARE(running.at(0).toObject().value("alias"_L1).toString(), u"h1-alpha"_s);
    QCOMPARE(waiting.at(0).toObject().value("alias"_L1).toString(), u"h1-beta"_s);
    QCOMPARE(waiting.at(0).toObject().value("engine"_L1).toString(), u"b"_s);
    QCOMPARE(waiting.at(0).toObject().value("client"_L1).toString(), u"127.0.0.1 opencode/1.18.33"_s);
    QVERIFY(running.at(0).toObject().value("age_ms"_L1).toDouble() >= waiting.at(0).toObject().value("age_ms"_L1).toDouble());
    QVERIFY(running.at(0).toObject().value("id"_L1).toDouble() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 10000);
}

// The batch policy through the whole relay, on real time: the controller's wake-up timer ends
// the dwell.
void TestHostSwitching::batchKeepsTheEngineThroughItsDwellThenSwitches()
{
    SwitchingFixture f;
    f.scheduling.policy = SchedulingConfig::Policy::Batch;
    f.scheduling.dwell = 800ms;
    f.scheduling.maxWait = 20s;
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    RawHttpClient first(f.port());
    QVERIFY(first.connectToServer());
    first.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(first.completedResponses(), 1, 5000);
    const qint64 firstDone = f.clock.elapsed();

    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 1, 3000);
    QCOMPARE(host->stateName(), u"serving"_s);
    QCOMPARE(host->waitFor().phase, HostStateMachine::Wait::Phase::Batching);
    // Back within the dwell: the running engine's agent goes first.
    first.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(first.completedResponses(), 2, 5000);
    QCOMPARE(first.responses().at(1).status, 200);
    QCOMPARE(other.completedResponses(), 0);
    const qint64 secondDone = f.clock.elapsed();

    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 10000);
    QCOMPARE(other.responses().at(0).status, 200);
    QCOMPARE(host->currentEngine(), u"b"_s);
    QCOMPARE(f.events.size(), 2);
    QCOMPARE(f.events.at(0).toString(), u"host h1: switching to engine b for h1-beta"_s);
    // The switch began once the dwell after the last request for a had passed, not before.
    QVERIFY2(f.eventTimesMs.at(0) >= secondDone + 800 - 250,   // secondDone is when the test saw it
             qPrintable(u"switch at %1 ms, a's last answer at %2 ms"_s.arg(f.eventTimesMs.at(0)).arg(secondDone)));
    QVERIFY(f.eventTimesMs.at(0) >= firstDone + 800 - 250);
    QCOMPARE(host->nextWakeUp().has_value(), false);
}

// A stream held while the host finishes another engine's work hears that in its keepalive
// comments, with the bound, not "queue or prompt processing" (issue 30 item 12).
void TestHostSwitching::batchedWaiterIsToldWhatItWaitsFor()
{
    SwitchingFixture f;
    f.scheduling.policy = SchedulingConfig::Policy::Batch;
    f.scheduling.dwell = 20s;
    f.scheduling.maxWait = 20s;
    f.configure = [](Config &config) {
        config.waiting.early200After = 200ms;
        config.waiting.commentEvery = 200ms;
    };
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 400, true)));   // 10 s at 40/s
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, true)));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 1, 3000);
    QCOMPARE(host->waitFor().phase, HostStateMachine::Wait::Phase::Batching);
    QTRY_VERIFY_WITH_TIMEOUT(other.current() && other.current()->body.count(": waiting for") >= 2, 5000);
    const QByteArray body = other.current()->body;
    QVERIFY2(body.contains(": waiting for host h1 to finish the work of engine a before it switches (at the latest in "), body.constData());
    QVERIFY2(!body.contains("queue or prompt processing"), body.constData());
}

void TestHostSwitching::batchSwitchesAtTheBoundWhileTheEngineHasWork()
{
    SwitchingFixture f;
    f.scheduling.policy = SchedulingConfig::Policy::Batch;
    f.scheduling.dwell = 20s;
    f.scheduling.maxWait = 600ms;
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 80, true)));   // 2 s at 40/s
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 1, 3000);
    QCOMPARE(host->stateName(), u"serving"_s);
    // The bound: the host drains for the waiter while the stream still runs, and a new request
    // for a waits behind the switch.
    QTRY_COMPARE_WITH_TIMEOUT(host->stateName(), u"draining"_s, 3000);
    QCOMPARE(streaming.completedResponses(), 0);
    RawHttpClient late(f.port());
    QVERIFY(late.connectToServer());
    late.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 2, 3000);

    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 10000);
    QVERIFY(streaming.responses().at(0).body.endsWith("data: [DONE]\n\n"));   // not cut
    QVERIFY(other.responses().at(0).headAtMs >= streaming.responses().at(0).completedAtMs);
    // The late request for a waited at most its own bound on b, then the host switched back.
    QTRY_COMPARE_WITH_TIMEOUT(late.completedResponses(), 1, 10000);
    QCOMPARE(late.responses().at(0).status, 200);
    QCOMPARE(host->currentEngine(), u"a"_s);
}

// Issue 31: opencode's title call (no tools) is a side call: it waits for the running engine's
// work at most side_call_max_wait_s, where a turn for the same engine would wait max_wait_s.
void TestHostSwitching::sideCallWaitsAtMostItsOwnBound()
{
    SwitchingFixture f;
    f.scheduling.policy = SchedulingConfig::Policy::Batch;
    f.scheduling.dwell = 20s;
    f.scheduling.maxWait = 20s;
    f.scheduling.sideCallMaxWait = 600ms;
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 80, true)));   // 2 s at 40/s
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);

    // A turn for b (a plain client): held for max_wait_s.
    RawHttpClient turn(f.port());
    QVERIFY(turn.connectToServer());
    turn.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 1, 3000);
    QVERIFY(host->nextWakeUp().has_value());
    QVERIFY2(*host->nextWakeUp() > std::chrono::steady_clock::now() + 10s, "a turn is held for max_wait_s");

    // opencode's title call for b: held for side_call_max_wait_s only.
    RawHttpClient title(f.port());
    QVERIFY(title.connectToServer());
    title.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false),
                                   "User-Agent: opencode/1.18.33 ai-sdk/provider-utils/3.0\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(host->waitingRequests(), 2, 3000);
    QTRY_COMPARE_WITH_TIMEOUT(host->stateName(), u"draining"_s, 3000);
    QCOMPARE(streaming.completedResponses(), 0);   // drained, not cut

    QTRY_COMPARE_WITH_TIMEOUT(title.completedResponses(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(turn.completedResponses(), 1, 10000);
    QCOMPARE(title.responses().at(0).status, 200);
    QCOMPARE(turn.responses().at(0).status, 200);
    QVERIFY(streaming.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QVERIFY(title.responses().at(0).headAtMs >= streaming.responses().at(0).completedAtMs);
    QCOMPARE(host->currentEngine(), u"b"_s);
}

QTEST_GUILESS_MAIN(TestHostSwitching)
#include "tst_hostswitching.moc"

// Issue 17, case 1: a load of the running non-router engine's model is answered by the relay
// itself, inside its own admission. It used to leave "running 1" behind, and the next switch
// then drained forever.
void TestHostSwitching::loadAnsweredInsideItsAdmissionLeavesNothingRunning()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    HostController *host = f.relay->hostController(u"h1"_s);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(host->currentEngine(), u"b"_s);   // b lists its models: not a router
    for (int i = 0; i < 3; ++i) {
        client.send(RawHttpClient::post("/models/load", R"({"model":"h1-beta"})"));
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2 + i, 5000);
        QCOMPARE(client.responses().last().status, 200);
        QCOMPARE(client.responses().last().body, QByteArray(R"({"success":true})"));
        QCOMPARE(host->runningRequests(), 0);
        QCOMPARE(host->waitingRequests(), 0);
        QVERIFY2(host->bookkeepingError().isEmpty(), qPrintable(host->bookkeepingError()));
    }
    // The switch back is not held up by requests that are not running.
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 5, 10000);
    QCOMPARE(client.responses().last().status, 200);
    QCOMPARE(host->currentEngine(), u"a"_s);
    QCOMPARE(host->runningRequests(), 0);
}

// Issue 17, case 4: the 404 names what the relay can serve, not only what runs right now.
void TestHostSwitching::unknownModelNamesEveryModelOfEveryEngine()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    QCOMPARE(f.relay->hostController(u"h1"_s)->currentEngine(), u"a"_s);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-gamma", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 404);
    const QString message = QJsonDocument::fromJson(client.responses().at(0).body).object()
                                .value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.contains("h1-alpha"_L1) && message.contains("h1-beta"_L1), qPrintable(message));
}
