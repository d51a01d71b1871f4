// Issue 34: the admin API carries the facts beside its English, so a window watching this relay
// from elsewhere words a failed switch in its user's language as the relay's own window does.
// /admin/hosts has a host's last failure (last_failure beside last_error), /admin/events and
// /admin/stream an event's facts, /admin/requests and /admin/stream a request's relay_facts; the
// watching window's reader (RemoteRelayJson) takes them, and keeps the English of a relay before.
#include "app/relayservice.h"
#include "app/remoterelayjson.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "hosts/recordedfacts.h"
#include "rawhttpclient.h"
#include "store/historystore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 15000;
const QString Failure = u"exited with code 1: no such model file"_s;

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// A relay with a history and one local host "box" whose engine "broken" exits 1 at start.
struct FailingRelay
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayService> relay;

    bool start()
    {
        ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"box=http://127.0.0.1:%1"_s.arg(freePort())});
        if (!dir.isValid() || !result.ok())
            return false;
        Config config = *result.config;
        config.stateDir = dir.path();
        HostConfig &host = config.hosts.first();
        host.driver = u"local"_s;
        EngineConfig &engine = host.engines.first();
        engine.name = u"broken"_s;
        engine.models = {u"m"_s};
        engine.argv = {u"/bin/sh"_s, u"-c"_s, u"echo no such model file >&2; exit 1"_s};
        store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
        relay = std::make_unique<RelayService>(config, RelayService::standardDrivers(config));
        relay->setHistory(store.get());
        QString error;
        return store->isOpen() && relay->start(&error);
    }
    quint16 port() const { return relay->endpoint().port(); }
};

std::optional<RawHttpClient::Response> ask(quint16 port, const QByteArray &raw)
{
    RawHttpClient client(port);
    if (!client.connectToServer())
        return std::nullopt;
    client.send(raw);
    if (!QTest::qWaitFor([&client] { return client.completedResponses() == 1; }, WaitMs))
        return std::nullopt;
    return client.responses().at(0);
}

QJsonDocument getJson(quint16 port, const QByteArray &path)
{
    const std::optional<RawHttpClient::Response> r = ask(port, RawHttpClient::get(path));
    return r && r->status == 200 ? QJsonDocument::fromJson(r->body) : QJsonDocument();
}

// The data of the stream's first frame named `name` for which `match` holds; empty when none.
QJsonObject streamFrame(const RawHttpClient &stream, const QByteArray &name, const std::function<bool(const QJsonObject &)> &match)
{
    if (stream.responses().isEmpty())
        return {};
    QByteArray current;
    for (const QByteArray &line : stream.responses().first().body.split('\n')) {
        if (line.startsWith("event: ")) {
            current = line.mid(7);
        } else if (line.startsWith("data: ") && current == name) {
            const QJsonObject data = QJsonDocument::fromJson(line.mid(6)).object();
            if (match(data))
                return data;
        }
    }
    return {};
}

bool isSwitchFailed(const QJsonObject &o)
{
    return o.value("kind"_L1).toString() == "switch_failed"_L1;
}

bool isRefused(const QJsonObject &o)
{
    return o.value("status"_L1).toInt() == 424;
}

QJsonObject firstWhere(const QJsonArray &array, const std::function<bool(const QJsonObject &)> &match)
{
    for (const QJsonValue &v : array) {
        if (match(v.toObject()))
            return v.toObject();
    }
    return {};
}

} // namespace

class TestAdminFacts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFailedSwitchComesWithItsFacts();
    void aRelayBeforeTheFactsKeepsItsEnglish();
};

void TestAdminFacts::aFailedSwitchComesWithItsFacts()
{
    FailingRelay r;
    QVERIFY(r.start());
    RawHttpClient stream(r.port());
    QVERIFY(stream.connectToServer());
    stream.send(RawHttpClient::get("/admin/stream"));
    QTRY_VERIFY_WITH_TIMEOUT(!streamFrame(stream, "hello", [](const QJsonObject &) { return true; }).isEmpty(), WaitMs);

    const std::optional<RawHttpClient::Response> failed = ask(
        r.port(), RawHttpClient::post("/v1/chat/completions", R"({"model":"box-m","max_tokens":4,"messages":[{"role":"user","content":"hi"}]})"));
    QVERIFY(failed);
    QCOMPARE(failed->status, 424);

    // The host: its English and, beside it, the facts it words.
    const QJsonObject box = getJson(r.port(), "/admin/hosts").array().at(0).toObject();
    QCOMPARE(box.value("last_error"_L1).toString(), Failure);
    QVERIFY2(box.value("last_failure"_L1).isObject(), QJsonDocument(box).toJson().constData());
    const EngineFailure lastFailure = EngineFailure::fromJson(box.value("last_failure"_L1).toObject());
    QCOMPARE(lastFailure.kind, EngineFailure::Kind::Ended);
    QCOMPARE(lastFailure.toString(), Failure);

    // The failed switch's event, paged and streamed, with the EngineFailure its detail words.
    QJsonObject event;
    QTRY_VERIFY_WITH_TIMEOUT(!(event = firstWhere(getJson(r.port(), "/admin/events").array(), isSwitchFailed)).isEmpty(), WaitMs);
    QCOMPARE(event.value("detail"_L1).toString(), Failure);
    const std::optional<EngineFailure> eventFailure = RecordedFacts::engineFailure(event.value("facts"_L1).toObject());
    QVERIFY(eventFailure);
    QCOMPARE(eventFailure->toString(), Failure);
    QTRY_VERIFY_WITH_TIMEOUT(!streamFrame(stream, "event", isSwitchFailed).isEmpty(), WaitMs);
    QCOMPARE(streamFrame(stream, "event", isSwitchFailed).value("facts"_L1).toObject(), event.value("facts"_L1).toObject());
    // Events without facts carry none.
    const QJsonObject start = firstWhere(getJson(r.port(), "/admin/events").array(), [](const QJsonObject &o) {
        return o.value("kind"_L1).toString() == "switch_start"_L1;
    });
    QVERIFY(!start.isEmpty());
    QVERIFY(!start.contains("facts"_L1));

    // The refused request, paged and streamed, with the host's refusal its relay_error words.
    QJsonObject request;
    QTRY_VERIFY_WITH_TIMEOUT(!(request = firstWhere(getJson(r.port(), "/admin/requests").array(), isRefused)).isEmpty(), WaitMs);
    QCOMPARE(request.value("relay_error"_L1).toString(), u"switching host box to engine broken failed: "_s + Failure);
    const std::optional<HostRefusal> refusal = RecordedFacts::refusal(request.value("relay_facts"_L1).toObject());
    QVERIFY(refusal);
    QCOMPARE(refusal->reason, HostRefusal::Reason::SwitchFailed);
    QCOMPARE(refusal->engine, u"broken"_s);
    QVERIFY(refusal->failure);
    QCOMPARE(refusal->failure->toString(), Failure);
    QTRY_VERIFY_WITH_TIMEOUT(!streamFrame(stream, "request", isRefused).isEmpty(), WaitMs);
    QCOMPARE(streamFrame(stream, "request", isRefused).value("relay_facts"_L1).toObject(),
             request.value("relay_facts"_L1).toObject());

    // What a watching window reads of them.
    const QList<RemoteRelayJson::Host> hosts = RemoteRelayJson::hosts(getJson(r.port(), "/admin/hosts").array());
    QCOMPARE(hosts.size(), 1);
    QVERIFY(hosts.first().lastFailure);
    QCOMPARE(hosts.first().lastFailure->toString(), Failure);
    QVERIFY2(hosts.first().state.lastError != Failure, qPrintable(hosts.first().state.lastError));   // the poll's, as locally
    const std::optional<HistoryEvent> copied = RemoteRelayJson::event(event);
    QVERIFY(copied);
    QCOMPARE(copied->facts, event.value("facts"_L1).toObject());
    QCOMPARE(RemoteRelayJson::request(request).relayFacts, request.value("relay_facts"_L1).toObject());
}

// A relay before the facts sends only the English: the watching window keeps it.
void TestAdminFacts::aRelayBeforeTheFactsKeepsItsEnglish()
{
    const QJsonArray hosts{QJsonObject{{"host"_L1, "box"_L1}, {"state"_L1, "down"_L1}, {"last_error"_L1, Failure},
                                       {"poll_error"_L1, "the engine refused the connection"_L1}}};
    const QList<RemoteRelayJson::Host> read = RemoteRelayJson::hosts(hosts);
    QCOMPARE(read.size(), 1);
    QVERIFY(!read.first().lastFailure);
    QCOMPARE(read.first().state.lastError, Failure);

    const std::optional<HistoryEvent> event = RemoteRelayJson::event(
        QJsonObject{{"id"_L1, 3}, {"kind"_L1, "switch_failed"_L1}, {"host"_L1, "box"_L1}, {"detail"_L1, Failure}});
    QVERIFY(event);
    QCOMPARE(event->detail, Failure);
    QVERIFY(event->facts.isEmpty());
    const RequestRecord request = RemoteRelayJson::request(QJsonObject{{"id"_L1, 4}, {"status"_L1, 424}, {"relay_error"_L1, Failure}});
    QCOMPARE(request.relayError, Failure);
    QVERIFY(request.relayFacts.isEmpty());
}

QTEST_GUILESS_MAIN(TestAdminFacts)
#include "tst_adminfacts.moc"
