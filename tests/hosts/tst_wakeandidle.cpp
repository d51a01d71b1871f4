// Hosts that sleep (issue 20), without leaving the machine: a static host's wake-on-LAN packet
// caught on a loopback UDP socket, its engine started by the test once the packet came, the
// waiting stream's comments and then its answer, and 424 when no engine comes up; a local
// host's engine (a real switchyard-fakellama child) stopped when idle, its sleep_command run
// once, and started again by the next request, never while a request runs or a lease holds.
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "config/configloader.h"
#include "engines/wakeonlan.h"
#include "hosts/recordedfacts.h"
#include "fakellamaserver.h"
#include "hosts/hostcontroller.h"
#include "laterport.h"
#include "rawhttpclient.h"
#include "store/historyevent.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkDatagram>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUdpSocket>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray Mac = QByteArray::fromHex("3c7c3f1e220a");

QString fakeBinary()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard-fakellama"_s;
}

// Whether a switchyard-fakellama listening on port runs, by its command line in /proc.
bool fakeRunsOn(quint16 port)
{
    const QStringList pids = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool numeric = false;
        pid.toInt(&numeric);
        if (!numeric)
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> argv = cmdline.readAll().split('\0');
        const qsizetype at = argv.indexOf("--port");
        if (!argv.isEmpty() && argv.first() == fakeBinary().toUtf8() && at >= 0 && at + 1 < argv.size()
            && argv.at(at + 1) == QByteArray::number(port))
            return true;
    }
    return false;
}

QString statusOf(const QByteArray &modelsJson, const QString &alias)
{
    const QJsonArray data = QJsonDocument::fromJson(modelsJson).object().value("data"_L1).toArray();
    for (const QJsonValue &v : data) {
        if (v.toObject().value("id"_L1).toString() == alias)
            return v.toObject().value("status"_L1).toObject().value("value"_L1).toString();
    }
    return u"absent"_s;
}

QByteArray chat(const QString &model, bool stream, int maxTokens = 8)
{
    return RawHttpClient::post("/v1/chat/completions",
                               QJsonDocument(QJsonObject{{"model"_L1, model}, {"stream"_L1, stream},
                                                         {"max_tokens"_L1, maxTokens},
                                                         {"messages"_L1, QJsonArray{QJsonObject{
                                                             {"role"_L1, "user"_L1}, {"content"_L1, "hi"_L1}}}}})
                                   .toJson(QJsonDocument::Compact));
}

QList<HistoryEvent::Kind> kinds(const QList<HistoryEvent> &events)
{
    QList<HistoryEvent::Kind> out;
    for (const HistoryEvent &e : events)
        out.append(e.kind);
    return out;
}

} // namespace

class TestWakeAndIdle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void requestWakesSleepingHost();
    void noEngineComingUpGets424();
    void idleEngineIsStoppedAndSleeps();

private:
    // A static host "sleeper" whose engine listens on nothing yet, woken through udpPort.
    std::unique_ptr<RelayService> sleeperRelay(quint16 enginePort, quint16 udpPort, double timeoutS);
    QTemporaryDir m_dir;
};

void TestWakeAndIdle::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

std::unique_ptr<RelayService> TestWakeAndIdle::sleeperRelay(quint16 enginePort, quint16 udpPort, double timeoutS)
{
    const QJsonObject wake{{"mac"_L1, "3c:7c:3f:1e:22:0a"_L1}, {"broadcast"_L1, "127.0.0.1"_L1},
                           {"port"_L1, udpPort}, {"timeout_s"_L1, timeoutS}};
    const QJsonObject engines{{"main"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                     {"models"_L1, QJsonArray{u"m"_s}}}}};
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, m_dir.filePath(u"state-sleeper"_s)},
                           {"waiting"_L1, QJsonObject{{"early_200_after_s"_L1, 0.1}, {"comment_every_s"_L1, 0.2}}},
                           {"hosts"_L1, QJsonObject{{"sleeper"_L1, QJsonObject{{"wake"_L1, wake}, {"engines"_L1, engines}}}}}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"sleeper.json"_s);
    if (!result.ok()) {
        qWarning() << (result.errors.isEmpty() ? QString() : result.errors.first().toString());
        return nullptr;
    }
    auto relay = std::make_unique<RelayService>(*result.config, RelayService::standardDrivers(*result.config));
    QString error;
    if (!relay->start(&error)) {
        qWarning() << error;
        return nullptr;
    }
    return relay;
}

void TestWakeAndIdle::requestWakesSleepingHost()
{
    QUdpSocket lan;
    QVERIFY(lan.bind(QHostAddress::LocalHost, 0));
    const quint16 enginePort = portForLater();
    std::unique_ptr<RelayService> relay = sleeperRelay(enginePort, lan.localPort(), 20);
    QVERIFY(relay);
    HostController *host = relay->hostController(u"sleeper"_s);
    QList<HistoryEvent> events;
    connect(host, &HostController::historyEvent, this, [&events](const HistoryEvent &e) { events.append(e); });
    // Its engine does not answer: the host is taken for asleep, its model reads so.
    QTRY_COMPARE_WITH_TIMEOUT(host->stateName(), u"asleep"_s, 5000);
    RawHttpClient client(relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::get("/v1/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3000);
    QCOMPARE(statusOf(client.responses().last().body, u"sleeper-m"_s), u"asleep"_s);
    QVERIFY(!lan.hasPendingDatagrams());

    // A streaming request sends the magic packet: 6 x 0xFF, then the MAC 16 times.
    client.send(chat(u"sleeper-m"_s, true));
    QTRY_VERIFY_WITH_TIMEOUT(lan.hasPendingDatagrams(), 5000);
    const QByteArray packet = lan.receiveDatagram().data();
    QCOMPARE(packet.size(), WakeOnLan::PacketBytes);
    QCOMPARE(packet.left(6), QByteArray(6, char(0xFF)));
    for (int i = 0; i < 16; ++i)
        QCOMPARE(packet.mid(6 + i * 6, 6), Mac);
    QCOMPARE(host->stateName(), u"waking"_s);
    // The client has its early 200 and hears why it waits.
    const QByteArray comment = ": waiting for host sleeper to wake";
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && client.current()->body.count(comment) >= 2, 5000);
    QCOMPARE(client.current()->status, 200);

    // The box is up: its engine answers /health, the request goes on.
    fake::FakeOptions options;
    options.models = {u"m"_s};
    options.loaded = {u"m"_s};
    options.singleModel = true;
    fake::FakeLlamaServer engine(options);
    QVERIFY(engine.listen(QHostAddress::LocalHost, enginePort));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 10000);
    const RawHttpClient::Response &r = client.responses().last();
    QCOMPARE(r.status, 200);
    const qsizetype firstData = r.body.indexOf("data: {");
    QVERIFY2(firstData > r.body.lastIndexOf(comment), r.body.constData());   // comments, then the stream
    QVERIFY2(r.body.contains("data: [DONE]"), r.body.constData());
    QVERIFY(!r.body.contains("\"error\""));
    QCOMPARE(host->stateName(), u"serving"_s);
    QCOMPARE(kinds(events), (QList<HistoryEvent::Kind>{HistoryEvent::Kind::WakeSent, HistoryEvent::Kind::Woke}));
    QVERIFY2(events.first().toString().contains("wake-on-LAN sent: 3c:7c:3f:1e:22:0a to 127.0.0.1:"_L1),
             qPrintable(events.first().toString()));
    QVERIFY(!lan.hasPendingDatagrams());   // one packet for one wake
}

void TestWakeAndIdle::noEngineComingUpGets424()
{
    QUdpSocket lan;
    QVERIFY(lan.bind(QHostAddress::LocalHost, 0));
    std::unique_ptr<RelayService> relay = sleeperRelay(portForLater(), lan.localPort(), 1);
    QVERIFY(relay);
    HostController *host = relay->hostController(u"sleeper"_s);
    QList<HistoryEvent> events;
    connect(host, &HostController::historyEvent, this, [&events](const HistoryEvent &e) { events.append(e); });
    QTRY_COMPARE_WITH_TIMEOUT(host->stateName(), u"asleep"_s, 5000);

    // One client waits without streaming, one streams in Anthropic's shape.
    RawHttpClient plain(relay->endpoint().port());
    RawHttpClient anthropic(relay->endpoint().port());
    QVERIFY(plain.connectToServer());
    QVERIFY(anthropic.connectToServer());
    QElapsedTimer clock;
    clock.start();
    plain.send(chat(u"sleeper-m"_s, false));
    anthropic.send(RawHttpClient::post("/v1/messages",
                                       R"({"model":"sleeper-m","stream":true,"max_tokens":8,)"
                                       R"("messages":[{"role":"user","content":"hi"}]})"));
    QTRY_VERIFY_WITH_TIMEOUT(lan.hasPendingDatagrams(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(plain.completedResponses(), 1, 6000);
    QTRY_COMPARE_WITH_TIMEOUT(anthropic.completedResponses(), 1, 6000);
    QVERIFY2(clock.elapsed() >= 900, qPrintable(QString::number(clock.elapsed())));   // not before timeout_s

    const RawHttpClient::Response &p = plain.responses().first();
    QCOMPARE(p.status, 424);
    const QString message = QJsonDocument::fromJson(p.body).object().value("error"_L1).toObject()
                                .value("message"_L1).toString();
    QCOMPARE(message, u"host sleeper did not wake: no answer within 1 s"_s);
    const RawHttpClient::Response &a = anthropic.responses().first();
    QCOMPARE(a.status, 200);   // its early 200 went out first: the error is an SSE event in its shape
    QVERIFY2(a.body.contains(": waiting for host sleeper to wake"), a.body.constData());
    QVERIFY2(a.body.contains("event: error"), a.body.constData());
    QVERIFY2(a.body.contains("host sleeper did not wake: no answer within 1 s"), a.body.constData());
    QCOMPARE(host->stateName(), u"asleep"_s);
    QCOMPARE(kinds(events), (QList<HistoryEvent::Kind>{HistoryEvent::Kind::WakeSent, HistoryEvent::Kind::WakeTimedOut}));
    // The marker's detail is English; the facts beside it are what the window words (issue 34).
    QCOMPARE(events.at(1).detail, u"no answer within 1 s"_s);
    const std::optional<HostRefusal> why = RecordedFacts::refusal(events.at(1).facts);
    QVERIFY(why);
    QCOMPARE(why->reason, HostRefusal::Reason::WakeTimedOut);
    QCOMPARE(why->host, u"sleeper"_s);
    QCOMPARE(why->wakeTimeout, std::chrono::milliseconds(1000));
}

void TestWakeAndIdle::idleEngineIsStoppedAndSleeps()
{
    QVERIFY2(QFile::exists(fakeBinary()), qPrintable(fakeBinary()));
    const quint16 port = portForLater();
    const QString slept = m_dir.filePath(u"slept.txt"_s);
    const QJsonArray argv{fakeBinary(), u"--port"_s, QString::number(port), u"--models"_s, u"x1"_s,
                          u"--load-ms"_s, u"50"_s, u"--tokens-per-s"_s, u"10"_s};
    const QJsonObject ws{{"driver"_L1, "local"_L1},
                         {"idle_stop_after_s"_L1, 1},
                         {"sleep_command"_L1, QJsonArray{u"/bin/sh"_s, u"-c"_s, u"echo slept >> \"$0\""_s, slept}},
                         {"engines"_L1, QJsonObject{{"e1"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)},
                                                                         {"argv"_L1, argv},
                                                                         {"models"_L1, QJsonArray{u"x1"_s}},
                                                                         {"start_timeout_s"_L1, 20}}}}}};
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1}, {"state_dir"_L1, m_dir.filePath(u"state-idle"_s)},
                           {"hosts"_L1, QJsonObject{{"ws"_L1, ws}}}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"idle.json"_s);
    QVERIFY2(result.ok(), result.errors.isEmpty() ? "" : qPrintable(result.errors.first().toString()));
    RelayService relay(*result.config, RelayService::standardDrivers(*result.config));
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));
    HostController *host = relay.hostController(u"ws"_s);
    QList<HistoryEvent> events;
    connect(host, &HostController::historyEvent, this, [&events](const HistoryEvent &e) { events.append(e); });
    const auto idleStops = [&events] { return kinds(events).count(HistoryEvent::Kind::IdleStop); };
    const auto sleepLines = [&slept] {
        QFile f(slept);
        return f.open(QIODevice::ReadOnly) ? f.readAll().count('\n') : 0;
    };

    // A stream of 3 s on an engine idle-stopped after 1 s: it is not stopped while it runs.
    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(chat(u"ws-x1"_s, true, 30));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 30000);
    QCOMPARE(client.responses().last().status, 200);
    QVERIFY(client.responses().last().body.contains("data: [DONE]"));
    QCOMPARE(idleStops(), 0);
    QVERIFY(fakeRunsOn(port));

    // A second of nothing: the engine goes, the sleep command runs once, the model reads asleep.
    QTRY_COMPARE_WITH_TIMEOUT(host->stateName(), u"asleep"_s, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!fakeRunsOn(port), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(sleepLines(), 1, 5000);
    QVERIFY(!host->nextWakeUp());   // nothing else is due: no second sleep
    QCOMPARE(idleStops(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(kinds(events).contains(HistoryEvent::Kind::SleepCommand), 5000);
    for (const HistoryEvent &e : std::as_const(events)) {
        if (e.kind == HistoryEvent::Kind::SleepCommand)
            QVERIFY2(e.detail.endsWith("exit code 0"_L1), qPrintable(e.detail));
    }
    client.send(RawHttpClient::get("/models"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 3000);
    QCOMPARE(statusOf(client.responses().last().body, u"ws-x1"_s), u"asleep"_s);

    // The next request starts it again.
    client.send(chat(u"ws-x1"_s, false, 2));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 30000);
    QCOMPARE(client.responses().last().status, 200);
    QVERIFY(fakeRunsOn(port));
    QCOMPARE(host->stateName(), u"serving"_s);
    QVERIFY(host->nextWakeUp());   // its idle limit counts again

    // A lease stops it for its holder; no idle stop and no sleep while it holds.
    int granted = 0;
    host->takeLease(u"bench"_s, std::chrono::seconds(60), [&granted](const std::optional<HostRefusal> &refused) { granted = refused ? refused->status() : 200; });
    QTRY_COMPARE_WITH_TIMEOUT(granted, 200, 10000);
    QCOMPARE(host->stateName(), u"leased"_s);
    QVERIFY(!host->nextWakeUp());
    QCOMPARE(idleStops(), 1);
    QCOMPARE(sleepLines(), 1);
    host->releaseLease();
    QCOMPARE(sleepLines(), 1);
}

QTEST_GUILESS_MAIN(TestWakeAndIdle)
#include "tst_wakeandidle.moc"
