// Replicated aliases end to end: two fake routers serving the same model behind one alias, the
// spread of concurrent streams over both, conversations that stick, and failover before the first
// byte when one dies (docs/HOSTS.md, "Replicas and failover").
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "rawhttpclient.h"
#include "relay/relay.h"
#include "store/historyevent.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

QByteArray chatBody(const QByteArray &model, const QByteArray &conversation, int maxTokens)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"system","content":"You code."},)"
        + R"({"role":"user","content":")" + conversation + R"("}],"max_tokens":)"
        + QByteArray::number(maxTokens) + R"(,"stream":true})";
}

struct ReplicaFleet
{
    std::unique_ptr<fake::FakeLlamaServer> h1;
    std::unique_ptr<fake::FakeLlamaServer> h2;
    std::unique_ptr<RelayService> relay;
    QList<RequestRecord> started;    // in the order the relay sent them upstream
    QList<RequestRecord> finished;   // what the journal's request lines say, in order
    QList<HistoryEvent> events;
    const Clock *clock = nullptr;                   // the system's unless set before start()
    std::chrono::milliseconds pollInterval{0};      // the config's default unless set
    QList<ClientApiKey> clientKeys;                 // none unless set

    bool start(double tokensPerSecond)
    {
        fake::FakeOptions o;
        o.models = {u"alpha"_s};
        o.loaded = {u"alpha"_s};
        o.tokensPerSecond = tokensPerSecond;
        h1 = std::make_unique<fake::FakeLlamaServer>(o);
        h2 = std::make_unique<fake::FakeLlamaServer>(o);
        if (!h1->listen() || !h2->listen())
            return false;
        ConfigResult result = ConfigLoader::fromFlags(
            u"127.0.0.1:0"_s, {u"h1="_s + h1->baseUrl().toString(), u"h2="_s + h2->baseUrl().toString()});
        if (!result.ok())
            return false;
        Config config = *result.config;
        config.aliases.append(AliasRule{u"coder"_s, u"h1-alpha"_s, {u"h1-alpha"_s, u"h2-alpha"_s}});
        if (pollInterval.count() > 0)
            config.limits.pollInterval = pollInterval;
        config.access.clientKeys = clientKeys;
        relay = std::make_unique<RelayService>(config, RelayService::standardDrivers(config), clock);
        QObject::connect(relay->relay(), &Relay::requestStarted, relay.get(),
                         [this](const RequestRecord &r) { started.append(r); });
        QObject::connect(relay->relay(), &Relay::requestFinished, relay.get(),
                         [this](const RequestRecord &r) { finished.append(r); });
        QObject::connect(relay->relay(), &Relay::historyEvent, relay.get(),
                         [this](const HistoryEvent &e) { events.append(e); });
        QString error;
        if (!relay->start(&error))
            return false;
        // Both lists read, and each engine's slots asked for (GET /props?model=alpha).
        return QTest::qWaitFor([this] {
            for (const QString &h : {u"h1"_s, u"h2"_s}) {
                if (!relay->catalog()->host(h)->reachable)
                    return false;
            }
            return propsAnswered(*h1) && propsAnswered(*h2);
        }, 5000);
    }

    static bool propsAnswered(const fake::FakeLlamaServer &fake)
    {
        for (const fake::ReceivedRequest &r : fake.received()) {
            if (r.path == "/props" && r.query == "model=alpha" && !r.isOpen())
                return true;
        }
        return false;
    }

    static int chatsOn(const fake::FakeLlamaServer &fake)
    {
        int n = 0;
        for (const fake::ReceivedRequest &r : fake.received())
            n += r.path == "/v1/chat/completions";
        return n;
    }

    quint16 port() const { return relay->endpoint().port(); }
};

class FixedClock final : public Clock
{
public:
    explicit FixedClock(QDateTime now) : m_now(std::move(now)) {}
    QDateTime now() const override { return m_now; }

private:
    QDateTime m_now;
};

} // namespace

class TestReplicas : public QObject
{
    Q_OBJECT

private slots:
    // A move a request's lifecycle refuses is a bug (relay/requestlifecycle), logged: it fails the test.
    void init() { QTest::failOnWarning(QRegularExpression(u": no move \\S+ from "_s)); }
    void listedOnceWithItsReplicas();
    void concurrentStreamsSpreadOverBoth();
    void aConversationSticksToItsReplica();
    void twoClientsThatOpenAlikeAreTwoConversations();
    void killOneMidRun();
    void failoverIsStampedByTheRelaysClock();
};

void TestReplicas::listedOnceWithItsReplicas()
{
    ReplicaFleet f;
    QVERIFY(f.start(1000));
    for (const QByteArray &path : {QByteArray("/v1/models"), QByteArray("/models")}) {
        RawHttpClient client(f.port());
        QVERIFY(client.connectToServer());
        client.send(RawHttpClient::get(path));
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
        const QJsonArray data = QJsonDocument::fromJson(client.responses().at(0).body).object().value("data"_L1).toArray();
        QStringList ids;
        QJsonObject coder;
        for (const QJsonValue &v : data) {
            ids.append(v.toObject().value("id"_L1).toString());
            if (ids.last() == "coder"_L1)
                coder = v.toObject();
        }
        QCOMPARE(ids, (QStringList{u"h1-alpha"_s, u"h2-alpha"_s, u"coder"_s}));
        QCOMPARE(coder.value("status"_L1).toObject().value("value"_L1).toString(), u"loaded"_s);
        const QJsonArray replicas = coder.value("proxy"_L1).toObject().value("replicas"_L1).toArray();
        QCOMPARE(replicas.size(), 2);
        QCOMPARE(replicas.at(0).toObject().value("host"_L1).toString(), u"h1"_s);
        QCOMPARE(replicas.at(1).toObject().value("host"_L1).toString(), u"h2"_s);
        QCOMPARE(replicas.at(1).toObject().value("key"_L1).toString(), u"alpha"_s);
        QCOMPARE(replicas.at(1).toObject().value("status"_L1).toString(), u"loaded"_s);
    }
}

void TestReplicas::concurrentStreamsSpreadOverBoth()
{
    ReplicaFleet f;
    QVERIFY(f.start(20));   // 30 tokens: 1.5 s a stream, so all twenty run at once
    QList<std::shared_ptr<RawHttpClient>> clients;
    for (int i = 0; i < 20; ++i) {
        auto c = std::make_shared<RawHttpClient>(f.port());
        QVERIFY(c->connectToServer());
        c->send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "task " + QByteArray::number(i), 30)));
        clients.append(c);
    }
    for (const auto &c : clients) {
        QTRY_COMPARE_WITH_TIMEOUT(c->completedResponses(), 1, 15000);
        QCOMPARE(c->responses().at(0).status, 200);
        QVERIFY(c->responses().at(0).body.contains("data: [DONE]"));
    }
    QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 20, 5000);
    // By the rule: each goes to the replica with the fewest of the relay's requests against its
    // slots (4 each), ties to the first: h1, h2, h1, h2, ... so ten each, as the journal says.
    QStringList order;
    for (const RequestRecord &r : std::as_const(f.started))
        order.append(r.host);
    QStringList expected;
    for (int i = 0; i < 10; ++i)
        expected << u"h1"_s << u"h2"_s;
    QCOMPARE(order, expected);
    QMap<QString, int> perHost;
    for (const RequestRecord &r : std::as_const(f.finished)) {
        QCOMPARE(r.model, u"coder"_s);
        ++perHost[r.host];
    }
    QCOMPARE(perHost.value(u"h1"_s), 10);
    QCOMPARE(perHost.value(u"h2"_s), 10);
    QCOMPARE(ReplicaFleet::chatsOn(*f.h1), 10);
    QCOMPARE(ReplicaFleet::chatsOn(*f.h2), 10);
    // The engine got its own name for the model.
    QVERIFY(f.h2->received().last().body.contains(R"("model":"alpha")"));
    QVERIFY(f.events.isEmpty());   // no failover
}

void TestReplicas::aConversationSticksToItsReplica()
{
    ReplicaFleet f;
    QVERIFY(f.start(1000));
    // Turn 1 of a conversation goes to h1 (both idle: the first).
    RawHttpClient first(f.port());
    QVERIFY(first.connectToServer());
    first.send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "refactor the parser", 4)));
    QTRY_COMPARE_WITH_TIMEOUT(first.completedResponses(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 1, 5000);
    QCOMPARE(f.finished.at(0).host, u"h1"_s);

    // h1 busy with another stream: a new conversation goes to the idle h2 ...
    fake::FakeLlamaServer &h1 = *f.h1;
    h1.setTokensPerSecond(20);
    RawHttpClient busy(f.port());
    QVERIFY(busy.connectToServer());
    busy.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", "something else", 200)));
    QTRY_VERIFY_WITH_TIMEOUT(busy.current() && !busy.current()->body.isEmpty(), 5000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "write the docs", 4)));
    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 2, 5000);
    QCOMPARE(f.finished.at(1).host, u"h2"_s);

    // ... but turn 2 of the first conversation (its first messages the same, more after them)
    // stays on h1, where its prompt is cached, though h2 is idle.
    const QByteArray turn2 = R"({"model":"coder","messages":[{"role":"system","content":"You code."},)"
                             R"({"role":"user","content":"refactor the parser"},)"
                             R"({"role":"assistant","content":"Done."},{"role":"user","content":"now test it"}],)"
                             R"("max_tokens":4,"stream":true})";
    first.send(RawHttpClient::post("/v1/chat/completions", turn2));
    QTRY_COMPARE_WITH_TIMEOUT(first.completedResponses(), 2, 10000);
    QCOMPARE(first.responses().at(1).status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 3, 10000);
    QCOMPARE(f.finished.at(2).host, u"h1"_s);
    busy.close();
}

void TestReplicas::twoClientsThatOpenAlikeAreTwoConversations()
{
    // The conversation is the client key and the prompt's prefix: two clients sending the same
    // first turn (the same system prompt and question) keep a conversation each.
    ReplicaFleet f;
    f.clientKeys = {ClientApiKey{u"alice"_s, u"sk-alice-0123456789"_s}, ClientApiKey{u"bob"_s, u"sk-bob-0123456789"_s}};
    QVERIFY(f.start(1000));
    const QByteArray alice = "Authorization: Bearer sk-alice-0123456789\r\n";
    const QByteArray bob = "Authorization: Bearer sk-bob-0123456789\r\n";
    const QByteArray turn1 = chatBody("coder", "refactor the parser", 4);
    const QByteArray turn2 = R"({"model":"coder","messages":[{"role":"system","content":"You code."},)"
                             R"({"role":"user","content":"refactor the parser"},)"
                             R"({"role":"assistant","content":"Done."},{"role":"user","content":"now test it"}],)"
                             R"("max_tokens":4,"stream":true})";
    const auto ask = [&f](RawHttpClient &client, const QByteArray &body, const QByteArray &key) {
        const int before = int(f.finished.size());
        client.send(RawHttpClient::post("/v1/chat/completions", body, key));
        if (!QTest::qWaitFor([&] { return f.finished.size() > before; }, 5000))
            return u"no answer"_s;
        return f.finished.constLast().host;
    };
    RawHttpClient a(f.port());
    QVERIFY(a.connectToServer());
    QCOMPARE(ask(a, turn1, alice), u"h1"_s);   // both idle: the first

    // Bob opens alike while h1 is busy: his conversation goes to the idle h2.
    f.h1->setTokensPerSecond(20);
    RawHttpClient busy(f.port());
    QVERIFY(busy.connectToServer());
    busy.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", "something else", 200), alice));
    QTRY_VERIFY_WITH_TIMEOUT(busy.current() && !busy.current()->body.isEmpty(), 5000);
    RawHttpClient b(f.port());
    QVERIFY(b.connectToServer());
    QCOMPARE(ask(b, turn1, bob), u"h2"_s);
    busy.close();
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->relay()->requestsInFlight(), 0, 5000);
    f.h1->setTokensPerSecond(1000);

    // Each one's second turn goes back to the replica of its first, whichever asked last.
    QCOMPARE(ask(a, turn2, alice), u"h1"_s);
    QCOMPARE(ask(b, turn2, bob), u"h2"_s);
    QCOMPARE(ask(a, turn2, alice), u"h1"_s);
    QCOMPARE(f.finished.constLast().keyName, u"alice"_s);
}

void TestReplicas::killOneMidRun()
{
    ReplicaFleet f;
    QVERIFY(f.start(20));   // 60 tokens: 3 s a stream
    QList<std::shared_ptr<RawHttpClient>> running;
    for (int i = 0; i < 10; ++i) {
        auto c = std::make_shared<RawHttpClient>(f.port());
        QVERIFY(c->connectToServer());
        c->send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "run " + QByteArray::number(i), 60)));
        running.append(c);
    }
    // All ten streaming, five on each.
    for (const auto &c : running)
        QTRY_VERIFY_WITH_TIMEOUT(c->current() && c->current()->body.contains("data: {"), 10000);
    QCOMPARE(ReplicaFleet::chatsOn(*f.h1), 5);
    QCOMPARE(ReplicaFleet::chatsOn(*f.h2), 5);

    // h2 dies. Ten requests not yet started arrive at that moment and ten more a little later.
    f.h2->close();
    QList<std::shared_ptr<RawHttpClient>> later;
    const auto sendOne = [&](int i) {
        auto c = std::make_shared<RawHttpClient>(f.port());
        QVERIFY(c->connectToServer());
        c->send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "later " + QByteArray::number(i), 5)));
        later.append(c);
    };
    for (int i = 0; i < 10; ++i)
        sendOne(i);
    QTRY_VERIFY_WITH_TIMEOUT(!f.relay->catalog()->host(u"h2"_s)->reachable, 5000);
    for (int i = 10; i < 20; ++i)
        sendOne(i);

    // Not one of them sees an error: each gets one normal stream, from h1.
    for (const auto &c : std::as_const(later)) {
        QTRY_COMPARE_WITH_TIMEOUT(c->completedResponses(), 1, 15000);
        const RawHttpClient::Response &r = c->responses().at(0);
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("data: [DONE]") && !r.body.contains("\"error\""), r.body.constData());
    }
    // The streams that ran on h2 end with an error event in their shape (chat completions:
    // data: {"error": ...}); those on h1 end normally.
    int broken = 0;
    int whole = 0;
    for (const auto &c : std::as_const(running)) {
        QTRY_COMPARE_WITH_TIMEOUT(c->completedResponses(), 1, 15000);
        const QByteArray body = c->responses().at(0).body;
        QCOMPARE(c->responses().at(0).status, 200);
        if (body.contains("data: [DONE]")) {
            ++whole;
            continue;
        }
        ++broken;
        const QByteArray last = body.trimmed().split('\n').last();
        QVERIFY2(last.startsWith("data: {\"error\":"), body.constData());
        QVERIFY(QJsonDocument::fromJson(last.mid(6)).object().value("error"_L1).isObject());
    }
    QCOMPARE(broken, 5);
    QCOMPARE(whole, 5);

    // The journal: twenty more requests, all answered by h1; each failover a history event.
    QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 30, 10000);
    int laterOnH1 = 0;
    for (const RequestRecord &r : std::as_const(f.finished))
        laterOnH1 += r.host == "h1"_L1 && r.status == 200 && r.relayError.isEmpty();
    QCOMPARE(laterOnH1, 5 + 20);
    QVERIFY(!f.events.isEmpty());
    for (const HistoryEvent &e : std::as_const(f.events)) {
        QCOMPARE(e.kind, HistoryEvent::Kind::Failover);
        QCOMPARE(e.host, u"h2"_s);
        QVERIFY2(e.toString().startsWith("host h2: failover of coder to h1-alpha: "_L1), qPrintable(e.toString()));
    }

    // The list says so too: nothing on the dead h2 is loaded, and coder names h1.
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/v1/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QJsonObject h2alpha;
    QJsonObject coder;
    for (const QJsonValue &v : QJsonDocument::fromJson(client.responses().at(0).body).object().value("data"_L1).toArray()) {
        if (v.toObject().value("id"_L1) == "h2-alpha"_L1)
            h2alpha = v.toObject();
        if (v.toObject().value("id"_L1) == "coder"_L1)
            coder = v.toObject();
    }
    QCOMPARE(h2alpha.value("status"_L1).toObject().value("value"_L1).toString(), u"unloaded"_s);
    QVERIFY(!h2alpha.contains("meta"_L1));
    const QJsonObject proxy = coder.value("proxy"_L1).toObject();
    QCOMPARE(proxy.value("host"_L1).toString(), u"h1"_s);
    QCOMPARE(coder.value("status"_L1).toObject().value("value"_L1).toString(), u"loaded"_s);
    const QJsonArray replicas = proxy.value("replicas"_L1).toArray();
    QCOMPARE(replicas.size(), 2);
    QCOMPARE(replicas.at(1).toObject().value("host"_L1).toString(), u"h2"_s);
    QCOMPARE(replicas.at(1).toObject().value("status"_L1).toString(), u"unloaded"_s);
}

// The failover's history event (the timeline, the store) carries the time of the relay's clock,
// as every other event does, not the wall clock's.
void TestReplicas::failoverIsStampedByTheRelaysClock()
{
    const QDateTime then(QDate(2031, 5, 6), QTime(7, 8, 9), Qt::UTC);
    const FixedClock clock(then);
    ReplicaFleet f;
    f.clock = &clock;
    f.pollInterval = std::chrono::hours(1);   // only the request finds h1 gone, never a poll first
    QVERIFY(f.start(1000));
    // Both idle: coder goes to h1 first, which refuses the connection, so it fails over to h2.
    f.h1->close();
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("coder", "stamp it", 3)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(client.responses().at(0).status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(f.events.size(), 1, 5000);
    const HistoryEvent &e = f.events.at(0);
    QCOMPARE(e.kind, HistoryEvent::Kind::Failover);
    QCOMPARE(e.host, u"h1"_s);
    QCOMPARE(e.at, then);
}

QTEST_MAIN(TestReplicas)
#include "tst_replicas.moc"
