// GET /admin/stream (issue 30): a watching window's changes as they happen. It needs the admin
// gate like every /admin endpoint, opens with where the history stands and the hosts, delivers a
// finished request and a host's change and history event, keeps a quiet connection alive with
// comments, and lets go of a subscriber that left (its record ends) or of all when the relay
// stops accepting.
#include "admin/adminapi.h"
#include "app/relayservice.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "hosts/hostcontroller.h"
#include "rawhttpclient.h"
#include "relay/peerpolicy.h"
#include "relay/relay.h"
#include "store/historystore.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
const QString AdminToken = u"stream-admin-t0ken"_s;

// A relay with an admin token, a host controller for h1 and a history store, on loopback; only
// 127.0.0.1 counts as this machine, so a client bound to 127.0.0.2 is a LAN peer.
struct StreamRelay
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<fake::FakeLlamaServer> router;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayService> relay;

    bool start()
    {
        fake::FakeOptions o;
        o.models = {u"alpha"_s};
        o.loaded = {u"alpha"_s};
        o.tokensPerSecond = 1000;
        router = std::make_unique<fake::FakeLlamaServer>(o);
        if (!dir.isValid() || !router->listen())
            return false;
        ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1="_s + router->baseUrl().toString()});
        if (!result.ok())
            return false;
        Config config = *result.config;
        config.access.adminToken = AdminToken;
        store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
        relay = std::make_unique<RelayService>(config, RelayService::standardDrivers(config));
        relay->setHistory(store.get());
        PeerPolicy peers;
        peers.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}});
        relay->relay()->setPeerPolicy(peers);
        QString error;
        return store->isOpen() && relay->start(&error);
    }
    quint16 port() const { return relay->endpoint().port(); }
};

struct Frame
{
    QByteArray name;
    QJsonDocument data;
};

// A stream's body so far, cut at its empty lines: one event or comment each.
QByteArrayList blocksOf(const QByteArray &body)
{
    QByteArrayList out;
    qsizetype from = 0;
    for (qsizetype end; (end = body.indexOf("\n\n", from)) >= 0; from = end + 2)
        out.append(body.mid(from, end - from));
    return out;
}

// The events in it, keepalive comments left out.
QList<Frame> framesOf(const QByteArray &body)
{
    QList<Frame> out;
    for (const QByteArray &block : blocksOf(body)) {
        Frame f;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith("event: "))
                f.name = line.mid(7);
            else if (line.startsWith("data: "))
                f.data = QJsonDocument::fromJson(line.mid(6));
        }
        if (!f.name.isEmpty())
            out.append(f);
    }
    return out;
}

QByteArray streamBody(const RawHttpClient &client)
{
    return client.responses().isEmpty() ? QByteArray() : client.responses().first().body;
}

// The first frame named `name` for which `match` holds; an invalid document when none.
QJsonDocument findFrame(const RawHttpClient &client, const QByteArray &name, const std::function<bool(const QJsonDocument &)> &match)
{
    for (const Frame &f : framesOf(streamBody(client))) {
        if (f.name == name && match(f.data))
            return f.data;
    }
    return {};
}

QByteArray bearer(const QString &token)
{
    return "Authorization: Bearer " + token.toUtf8() + "\r\n";
}

} // namespace

class TestAdminStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void needsTheAdminGate_data();
    void needsTheAdminGate();
    void opensWithHelloAndHosts();
    void deliversAFinishedRequestAndAHostEvent();
    void sendsKeepalives();
    void aSubscriberThatLeftIsLetGo();
    void stopAcceptingEndsTheStreams();
};

void TestAdminStream::needsTheAdminGate_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QByteArray>("headers");
    QTest::addColumn<int>("status");
    QTest::newRow("lan, no token") << u"127.0.0.2"_s << QByteArray() << 403;
    QTest::newRow("lan, wrong token") << u"127.0.0.2"_s << bearer(u"wrong-token"_s) << 403;
    QTest::newRow("lan, admin token") << u"127.0.0.2"_s << bearer(AdminToken) << 200;
    QTest::newRow("this machine") << u"127.0.0.1"_s << QByteArray() << 200;
}

void TestAdminStream::needsTheAdminGate()
{
    QFETCH(QString, from);
    QFETCH(QByteArray, headers);
    QFETCH(int, status);
    StreamRelay r;
    QVERIFY(r.start());
    RawHttpClient client(r.port());
    QVERIFY(client.socket()->bind(QHostAddress(from)));
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/admin/stream", headers));
    QTRY_VERIFY_WITH_TIMEOUT(!client.responses().isEmpty() && client.responses().first().status != 0, WaitMs);
    const RawHttpClient::Response &response = client.responses().first();
    QCOMPARE(response.status, status);
    if (status == 200) {
        QCOMPARE(response.header("content-type"), QByteArray("text/event-stream"));
        QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "hello", [](const QJsonDocument &) { return true; }).isNull(), WaitMs);
        QCOMPARE(r.relay->admin()->streamSubscribers(), 1);
    } else {
        QVERIFY(!streamBody(client).contains("event:"));   // the refusal only, no frame
        QCOMPARE(r.relay->admin()->streamSubscribers(), 0);
    }
}

void TestAdminStream::opensWithHelloAndHosts()
{
    StreamRelay r;
    QVERIFY(r.start());
    RawHttpClient client(r.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/admin/stream"));
    QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "hosts", [](const QJsonDocument &) { return true; }).isNull(), WaitMs);
    const QList<Frame> frames = framesOf(streamBody(client));
    QCOMPARE(frames.first().name, QByteArray("hello"));
    const QJsonObject hello = frames.first().data.object();
    QCOMPARE(hello.value("history"_L1).toString(), r.store->historyId());
    QCOMPARE(hello.value("last_request"_L1).toInteger(), r.store->lastRequestId());
    QCOMPARE(hello.value("last_event"_L1).toInteger(), r.store->lastEventId());
    QCOMPARE(frames.at(1).name, QByteArray("hosts"));
    QCOMPARE(frames.at(1).data.array().first().toObject().value("host"_L1).toString(), u"h1"_s);
}

void TestAdminStream::deliversAFinishedRequestAndAHostEvent()
{
    StreamRelay r;
    QVERIFY(r.start());
    RawHttpClient client(r.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/admin/stream"));
    QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "hello", [](const QJsonDocument &) { return true; }).isNull(), WaitMs);

    // A request finishes: its record comes with its id in the history.
    RawHttpClient chat(r.port());
    QVERIFY(chat.connectToServer());
    chat.send(RawHttpClient::post("/v1/chat/completions", R"({"model":"h1-alpha","messages":[{"role":"user","content":"hi"}],"max_tokens":2})"));
    QTRY_COMPARE_WITH_TIMEOUT(chat.completedResponses(), 1, WaitMs);
    QCOMPARE(chat.responses().first().status, 200);
    const auto isChat = [](const QJsonDocument &d) { return d.object().value("model"_L1).toString() == "h1-alpha"_L1; };
    QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "request", isChat).isNull(), WaitMs);
    const QJsonObject request = findFrame(client, "request", isChat).object();
    QCOMPARE(request.value("status"_L1).toInt(), 200);
    QCOMPARE(request.value("path"_L1).toString(), u"/v1/chat/completions"_s);
    QCOMPARE(request.value("id"_L1).toInteger(), r.store->lastRequestId());
    // It was in flight first: an "active" frame with its live id, before the finished record.
    QVERIFY(!findFrame(client, "active", isChat).isNull());

    // A lease on h1: the host's change (its lease on the card) and the history event.
    int status = 0;
    r.relay->hostController(u"h1"_s)->takeLease(u"bench queue"_s, std::chrono::seconds(600),
                                               [&status](const std::optional<HostRefusal> &refused) { status = refused ? refused->status() : 200; });
    const auto leased = [](const QJsonDocument &d) {
        return d.array().first().toObject().value("lease"_L1).toObject().value("owner"_L1).toString() == "bench queue"_L1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "hosts", leased).isNull(), WaitMs);
    const auto leaseEvent = [](const QJsonDocument &d) { return d.object().value("kind"_L1).toString() == "lease_taken"_L1; };
    QTRY_VERIFY_WITH_TIMEOUT(!findFrame(client, "event", leaseEvent).isNull(), WaitMs);
    const QJsonObject event = findFrame(client, "event", leaseEvent).object();
    QCOMPARE(event.value("host"_L1).toString(), u"h1"_s);
    QVERIFY(event.value("id"_L1).toInteger() > 0);
    QCOMPARE(status, 200);
    // The stream is still open: a stream, not an answer.
    QCOMPARE(client.completedResponses(), 0);
}

void TestAdminStream::sendsKeepalives()
{
    StreamRelay r;
    QVERIFY(r.start());
    r.relay->admin()->setStreamKeepalive(std::chrono::milliseconds(100));
    RawHttpClient client(r.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/admin/stream"));
    QTRY_VERIFY_WITH_TIMEOUT(streamBody(client).count(": keepalive\n\n") >= 3, WaitMs);
    // Each a comment of its own between the events: a client reading events sees none for them.
    for (const QByteArray &block : blocksOf(streamBody(client)))
        QVERIFY2(block.isEmpty() || block == ": keepalive" || block.startsWith("event: "), block.constData());
}

void TestAdminStream::aSubscriberThatLeftIsLetGo()
{
    StreamRelay r;
    QVERIFY(r.start());
    QSignalSpy finished(r.relay->relay(), &Relay::requestFinished);
    {
        RawHttpClient client(r.port());
        QVERIFY(client.connectToServer());
        client.send(RawHttpClient::get("/admin/stream"));
        QTRY_COMPARE_WITH_TIMEOUT(r.relay->admin()->streamSubscribers(), 1, WaitMs);
        client.close();
    }
    QTRY_COMPARE_WITH_TIMEOUT(r.relay->admin()->streamSubscribers(), 0, WaitMs);
    // Its record ends, so it is not "in flight" for ever.
    const auto streamFinished = [&finished] {
        for (const QList<QVariant> &args : finished) {
            if (args.first().value<RequestRecord>().path == "/admin/stream"_L1)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(streamFinished(), WaitMs);
}

void TestAdminStream::stopAcceptingEndsTheStreams()
{
    StreamRelay r;
    QVERIFY(r.start());
    RawHttpClient client(r.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/admin/stream"));
    QTRY_COMPARE_WITH_TIMEOUT(r.relay->admin()->streamSubscribers(), 1, WaitMs);
    // A config reload retires the service: its watchers must move on to the next one.
    r.relay->stopAccepting();
    QCOMPARE(r.relay->admin()->streamSubscribers(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), WaitMs);
}

QTEST_GUILESS_MAIN(TestAdminStream)
#include "tst_adminstream.moc"
