// Requests watched live (#21): the relay reports each request from its arrival, waiting and for
// what (a switch, a model load, a queue), upstream, streaming with its token count, to its
// finished record; /admin/requests?state=active lists them; the history and the metrics keep the
// wait and the bytes that came in.
#include "switchingfixture.h"
#include "testenginedriver.h"

#include "app/relayservice.h"
#include "hosts/hostcontroller.h"
#include "journal/journalformat.h"
#include "rawhttpclient.h"
#include "relay/relay.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// Every progress report and finished record of one relay, in order.
struct ProgressLog
{
    struct Report
    {
        RequestRecord record;
        RequestPhase phase;
    };
    QList<Report> reports;
    QList<RequestRecord> finished;

    explicit ProgressLog(Relay *relay)
    {
        QObject::connect(relay, &Relay::requestProgress, relay, [this](const RequestRecord &r, RequestPhase p) {
            reports.append({r, p});
        });
        QObject::connect(relay, &Relay::requestFinished, relay, [this](const RequestRecord &r) { finished.append(r); });
    }
    QList<Report> of(const QString &model) const
    {
        QList<Report> out;
        for (const Report &r : reports) {
            if (r.record.model == model)
                out.append(r);
        }
        return out;
    }
    bool saw(const QString &model, RequestPhase phase, const WaitReason &reason = {}) const
    {
        for (const Report &r : of(model)) {
            if (r.phase == phase && (reason.isNone() || r.record.waitReason == reason))
                return true;
        }
        return false;
    }
    std::optional<RequestRecord> finishedFor(const QString &model) const
    {
        for (const RequestRecord &r : finished) {
            if (r.model == model)
                return r;
        }
        return std::nullopt;
    }
};

QJsonArray activeRequests(quint16 port)
{
    RawHttpClient admin(port);
    if (!admin.connectToServer())
        return {};
    admin.send(RawHttpClient::get("/admin/requests?state=active"));
    if (!QTest::qWaitFor([&] { return admin.completedResponses() == 1; }, 5000))
        return {};
    return QJsonDocument::fromJson(admin.responses().at(0).body).array();
}

QByteArray metrics(quint16 port)
{
    RawHttpClient client(port);
    if (!client.connectToServer())
        return {};
    client.send(RawHttpClient::get("/metrics"));
    if (!QTest::qWaitFor([&] { return client.completedResponses() == 1; }, 5000))
        return {};
    return client.responses().at(0).body;
}

} // namespace

class TestLiveRequests : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void waitForASwitchIsReportedListedAndRecorded();
    void behindAnotherSwitchWaitsForTheSwitchBack();
    void modelLoadIsAWait();
    void streamReportsTokensAFewTimesASecond();
    void activeStateIsCheckedAndLiveIdsAreUnique();
    void shutdownAnswersWhatWaitsAtOnce();
};

void TestLiveRequests::waitForASwitchIsReportedListedAndRecorded()
{
    SwitchingFixture f;
    QVERIFY(f.start([](TestEngineDriver &d) { d.startDelay = 1200ms; }));
    ProgressLog log(f.relay->relay());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    const QByteArray body = chatBody("h1-beta", 4, false);
    client.send(RawHttpClient::post("/v1/chat/completions", body));

    // Arrived, then waiting for the switch from a to b, before it ends.
    const WaitReason reason{WaitReason::Kind::Switch, u"a"_s, u"b"_s};
    QTRY_VERIFY_WITH_TIMEOUT(log.saw(u"h1-beta"_s, RequestPhase::Waiting, reason), 5000);
    // Its first report came on arrival, before the body was read for its model.
    const quint64 liveId = log.of(u"h1-beta"_s).first().record.liveId;
    QVERIFY(std::any_of(log.reports.cbegin(), log.reports.cend(), [liveId](const ProgressLog::Report &r) {
        return r.record.liveId == liveId && r.phase == RequestPhase::Arrived;
    }));
    QCOMPARE(client.completedResponses(), 0);
    QVERIFY(log.finished.isEmpty() || !log.finishedFor(u"h1-beta"_s));

    // The admin API lists it, waiting, with why and for how long so far.
    QTest::qWait(100);
    const QJsonArray active = activeRequests(f.port());
    QJsonObject waiting;
    for (const QJsonValue &v : active) {
        if (v.toObject().value("model"_L1).toString() == "h1-beta"_L1)
            waiting = v.toObject();
    }
    QVERIFY2(!waiting.isEmpty(), QJsonDocument(active).toJson().constData());
    QCOMPARE(waiting.value("state"_L1).toString(), u"waiting"_s);
    QCOMPARE(waiting.value("wait_reason"_L1).toString(), u"switch a→b"_s);
    QVERIFY(waiting.value("waited_ms"_L1).toDouble() >= 50);
    QCOMPARE(waiting.value("host"_L1).toString(), u"h1"_s);
    QCOMPARE(waiting.value("bytes_in"_L1).toInteger(), body.size());
    QVERIFY(waiting.value("live_id"_L1).toDouble() > 0);

    // Done: the record keeps the wait and its reason, and what came in.
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(client.responses().at(0).status, 200);
    QTRY_VERIFY_WITH_TIMEOUT(log.finishedFor(u"h1-beta"_s).has_value(), 5000);
    const RequestRecord done = *log.finishedFor(u"h1-beta"_s);
    QCOMPARE(done.waitReason, reason);
    QVERIFY2(done.waited >= 1000ms && done.waited <= done.duration, qPrintable(JournalFormat::requestDuration(done.waited)));
    QCOMPARE(done.bytesIn, body.size());
    QVERIFY(done.liveId > 0);
    QCOMPARE(done.liveId, liveId);
    // Nothing is active any more but the admin call itself.
    for (const QJsonValue &v : activeRequests(f.port()))
        QCOMPARE(v.toObject().value("path"_L1).toString(), u"/admin/requests"_s);

    // The metrics: one wait observed above a second, and the body bytes.
    const QByteArray text = metrics(f.port());
    QVERIFY(text.contains(R"(switchyard_request_wait_seconds_count{host="h1",alias="h1-beta"} 1)"));
    QVERIFY(text.contains(R"(switchyard_request_wait_seconds_bucket{host="h1",alias="h1-beta",le="0.5"} 0)"));
    QVERIFY(text.contains(R"(switchyard_request_bytes_total{host="h1",alias="h1-beta"} )" + QByteArray::number(body.size())));
}

void TestLiveRequests::behindAnotherSwitchWaitsForTheSwitchBack()
{
    SwitchingFixture f;
    f.tune = [](fake::FakeOptions &a, fake::FakeOptions &) { a.tokensPerSecond = 20; };
    QVERIFY(f.start());
    ProgressLog log(f.relay->relay());
    // A stream on a runs; beta asks for b: the host drains a. Then alpha asks for a: it waits
    // for the switch back from b to a, as requests for a that come after b runs say (#22: the
    // demo's first such request read "queue" and the later ones "switch fork→mainline").
    RawHttpClient streaming(f.port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 5000);
    RawHttpClient beta(f.port());
    QVERIFY(beta.connectToServer());
    beta.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 2, false)));
    QTRY_VERIFY_WITH_TIMEOUT(log.saw(u"h1-beta"_s, RequestPhase::Waiting,
                                     {WaitReason::Kind::Switch, u"a"_s, u"b"_s}), 5000);
    RawHttpClient alpha(f.port());
    QVERIFY(alpha.connectToServer());
    alpha.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(alpha.completedResponses(), 1, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(log.finished.size() >= 3, 5000);
    QList<RequestRecord> alphas;
    for (const RequestRecord &r : log.finished) {
        if (r.model == "h1-alpha"_L1)
            alphas.append(r);
    }
    QCOMPARE(alphas.size(), 2);
    QVERIFY(alphas.first().waitReason.isNone());   // the stream went at once
    QCOMPARE(alphas.first().waited, std::chrono::nanoseconds(0));
    const WaitReason back{WaitReason::Kind::Switch, u"b"_s, u"a"_s};
    QCOMPARE(alphas.last().waitReason, back);
    QVERIFY(alphas.last().waited > 0ms);
    // Every report while it waited said the same.
    for (const ProgressLog::Report &r : log.of(u"h1-alpha"_s)) {
        if (r.phase == RequestPhase::Waiting && r.record.liveId == alphas.last().liveId)
            QCOMPARE(r.record.waitReason, back);
    }
}

void TestLiveRequests::modelLoadIsAWait()
{
    SwitchingFixture f;
    f.tune = [](fake::FakeOptions &a, fake::FakeOptions &) {
        a.models = {u"alpha"_s, u"gamma"_s};
        a.loadDelay = 700ms;
    };
    QVERIFY(f.start());
    ProgressLog log(f.relay->relay());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-gamma", 2, false)));
    const WaitReason loading{WaitReason::Kind::ModelLoad, {}, {}};
    QTRY_VERIFY_WITH_TIMEOUT(log.saw(u"h1-gamma"_s, RequestPhase::Waiting, loading), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(client.responses().at(0).status, 200);
    QTRY_VERIFY_WITH_TIMEOUT(log.finishedFor(u"h1-gamma"_s).has_value(), 5000);
    const RequestRecord done = *log.finishedFor(u"h1-gamma"_s);
    QCOMPARE(done.waitReason, loading);
    QVERIFY2(done.waited >= 500ms, qPrintable(JournalFormat::requestDuration(done.waited)));
}

void TestLiveRequests::streamReportsTokensAFewTimesASecond()
{
    SwitchingFixture f;
    f.tune = [](fake::FakeOptions &a, fake::FakeOptions &) { a.tokensPerSecond = 40; };
    QVERIFY(f.start());
    ProgressLog log(f.relay->relay());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 60, true)));   // 1.5 s
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(log.finishedFor(u"h1-alpha"_s).has_value(), 5000);

    QList<qint64> counts;
    for (const ProgressLog::Report &r : log.of(u"h1-alpha"_s)) {
        if (r.phase == RequestPhase::Streaming && r.record.streamedTokens)
            counts.append(*r.record.streamedTokens);
    }
    // Rising, several times, and coalesced: 60 events in 1.5 s are a handful of reports.
    QVERIFY2(counts.size() >= 3, qPrintable(QString::number(counts.size())));
    QVERIFY2(counts.size() <= 12, qPrintable(QString::number(counts.size())));
    QVERIFY(std::is_sorted(counts.cbegin(), counts.cend()));
    QVERIFY(counts.last() > counts.first());
    QVERIFY(!log.saw(u"h1-alpha"_s, RequestPhase::Waiting));
    const RequestRecord done = *log.finishedFor(u"h1-alpha"_s);
    QVERIFY(done.waitReason.isNone());
    QCOMPARE(done.waited, std::chrono::nanoseconds(0));
    QVERIFY(done.streamedTokens && *done.streamedTokens >= 50);
}

void TestLiveRequests::activeStateIsCheckedAndLiveIdsAreUnique()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    ProgressLog log(f.relay->relay());
    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::get("/admin/requests?state=bogus"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 5000);
    QCOMPARE(admin.responses().at(0).status, 400);
    QVERIFY(admin.responses().at(0).body.contains("state"));
    QTRY_COMPARE_WITH_TIMEOUT(log.finished.size(), 1, 5000);
    QSet<quint64> ids;
    for (int i = 0; i < 5; ++i) {
        admin.send(RawHttpClient::get("/health"));
        QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 2 + i, 5000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(log.finished.size(), 6, 5000);
    for (const RequestRecord &r : log.finished)
        ids.insert(r.liveId);
    QCOMPARE(ids.size(), 6);
    QVERIFY(!ids.contains(0));
}

// Issue 32: a relay that shuts down answers what still waits for its host at once, in the
// request's own shape (a 424 without retry words; after the early 200, an error event), rather
// than cutting it when the grace period ends. It then stops without waiting for the grace.
void TestLiveRequests::shutdownAnswersWhatWaitsAtOnce()
{
    SwitchingFixture f;
    f.configure = [](Config &config) {
        config.waiting.early200After = 200ms;
        config.waiting.commentEvery = 200ms;
    };
    QVERIFY(f.start([](TestEngineDriver &d) { d.startDelay = 20s; }));   // the switch to b never ends here
    RawHttpClient plain(f.port());
    RawHttpClient streaming(f.port());
    QVERIFY(plain.connectToServer());
    QVERIFY(streaming.connectToServer());
    plain.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 4, false)));
    streaming.send(RawHttpClient::post(
        "/v1/messages", R"({"model":"h1-beta","max_tokens":4,"stream":true,"messages":[{"role":"user","content":"hi"}]})"));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->body.contains(": waiting for"), 5000);
    QCOMPARE(plain.completedResponses(), 0);

    QSignalSpy stopped(f.relay.get(), &RelayService::stopped);
    QElapsedTimer clock;
    clock.start();
    f.relay->shutdown(10s);
    QTRY_COMPARE_WITH_TIMEOUT(plain.completedResponses(), 1, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(streaming.completedResponses(), 1, 2000);
    const RawHttpClient::Response refused = plain.responses().at(0);
    QCOMPARE(refused.status, 424);
    QCOMPARE(refused.header("x-should-retry"), QByteArray("false"));
    const QString message = QJsonDocument::fromJson(refused.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.startsWith(u"the relay is shutting down"_s), qPrintable(message));
    const RawHttpClient::Response late = streaming.responses().at(0);
    QCOMPARE(late.status, 200);
    QVERIFY2(late.body.contains("event: error\ndata: ") && late.body.contains("the relay is shutting down"), late.body.constData());
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 2000);
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));   // not the 10 s grace
    QCOMPARE(f.relay->relay()->requestsInFlight(), 0);
}

QTEST_MAIN(TestLiveRequests)
#include "tst_liverequests.moc"
