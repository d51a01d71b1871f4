// A fleet of two hosts with two engines each, every engine a real switchyard-fakellama child
// process started and stopped by the "local" driver: the seed's probe across engine switches,
// and a broken engine answered with 424 and its reason.
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "config/configloader.h"
#include "hosts/hostcontroller.h"
#include "laterport.h"
#include "rawhttpclient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

QString fakeBinary()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard-fakellama"_s;
}

QJsonObject engine(quint16 port, const QString &models, const QStringList &extra = {})
{
    QJsonArray argv{fakeBinary(), u"--port"_s, QString::number(port), u"--models"_s, models,
                    u"--load-ms"_s, u"1500"_s, u"--max-models"_s, u"1"_s};
    for (const QString &a : extra)
        argv.append(a);
    return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)}, {"argv"_L1, argv}, {"start_timeout_s"_L1, 20}};
}

QStringList contentTokens(const QByteArray &sse)
{
    QStringList tokens;
    for (const QByteArray &line : sse.split('\n')) {
        if (!line.startsWith("data: {"))
            continue;
        const QJsonObject delta = QJsonDocument::fromJson(line.mid(6)).object().value("choices"_L1).toArray()
                                      .at(0).toObject().value("delta"_L1).toObject();
        if (delta.value("content"_L1).isString())
            tokens << delta.value("content"_L1).toString();
    }
    return tokens;
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

} // namespace

class TestLocalFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void probeLoadsEveryModelAcrossSwitches();
    void brokenEngineAnswers424WithItsReason();
    void streamOnOneEngineFinishesBeforeTheSwitch();
    void freshInstallListsEveryRouterEnginesModels();

private:
    QTemporaryDir m_dir;
};

void TestLocalFleet::initTestCase()
{
    QVERIFY2(QFile::exists(fakeBinary()), qPrintable(fakeBinary()));
    QVERIFY(m_dir.isValid());
}

void TestLocalFleet::probeLoadsEveryModelAcrossSwitches()
{
    const QHash<QString, QStringList> engineModels{{u"e1"_s, {u"x1"_s, u"x2"_s}}, {u"e2"_s, {u"y1"_s}}};
    QJsonObject hosts;
    QJsonObject memory;
    for (const QString &host : {u"h1"_s, u"h2"_s}) {
        QJsonObject engines;
        QJsonObject remembered;
        for (const QString &e : {u"e1"_s, u"e2"_s}) {
            engines.insert(e, engine(portForLater(), engineModels.value(e).join(u',')));
            QJsonArray list;
            for (const QString &m : engineModels.value(e)) {
                // As the engine listed it while the model was loaded: with its context size.
                list.append(e == "e2"_L1 ? QJsonObject{{"id"_L1, m}, {"meta"_L1, QJsonObject{{"n_ctx"_L1, 4096}}}}
                                         : QJsonObject{{"id"_L1, m}});
            }
            remembered.insert(e, list);
        }
        // In arrival order: the switches are the subject, not the batch scheduler's 20 s dwell
        // before each (which made this test take 86 s).
        hosts.insert(host, QJsonObject{{"driver"_L1, "local"_L1}, {"scheduling"_L1, QJsonObject{{"policy"_L1, "arrival"_L1}}},
                                       {"engines"_L1, engines}});
        memory.insert(host, remembered);
    }
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1}, {"state_dir"_L1, m_dir.filePath(u"state"_s)}, {"hosts"_L1, hosts}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"fleet.json"_s);
    QVERIFY2(result.ok(), result.errors.isEmpty() ? "" : qPrintable(result.errors.first().toString()));
    // What each engine serves, as a previous run would have remembered it.
    QFile memoryFile(m_dir.filePath(u"engines.json"_s));
    QVERIFY(memoryFile.open(QIODevice::WriteOnly));
    memoryFile.write(QJsonDocument(memory).toJson());
    memoryFile.close();

    RelayService relay(*result.config, RelayService::standardDrivers(*result.config));
    relay.rememberEnginesIn(memoryFile.fileName());
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));
    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    int answered = 0;
    // An engine not running now: its model's context is still known (clients' exports read it).
    client.send(RawHttpClient::get("/v1/models"));
    ++answered;
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), answered, 3000);
    {
        const QJsonArray data = QJsonDocument::fromJson(client.responses().last().body).object().value("data"_L1).toArray();
        int seen = 0;
        for (const QJsonValue &m : data) {
            const QJsonObject o = m.toObject();
            if (o.value("id"_L1).toString() == "h1-y1"_L1) {
                ++seen;
                QCOMPARE(o.value("proxy"_L1).toObject().value("n_ctx"_L1).toInt(), 4096);
                QVERIFY(!o.contains("meta"_L1));   // meta describes a model loaded now
            }
        }
        QCOMPARE(seen, 1);
    }
    for (const QString &host : {u"h1"_s, u"h2"_s}) {
        for (const QString &key : {u"x1"_s, u"y1"_s, u"x2"_s}) {   // e1, then a switch to e2, then back
            const QString alias = host + u'-' + key;
            client.send(RawHttpClient::post("/models/load", R"({"model":")" + alias.toUtf8() + R"("})"));
            ++answered;
            QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), answered, 30000);
            QCOMPARE(client.responses().last().status, 200);
            QString status;
            QElapsedTimer clock;
            clock.start();
            while (status != "loaded"_L1 && clock.elapsed() < 20000) {
                client.send(RawHttpClient::get("/models"));
                ++answered;
                QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), answered, 3000);
                status = statusOf(client.responses().last().body, alias);
                QVERIFY2(status != "unloaded"_L1 && status != "absent"_L1,
                         qPrintable(u"%1 read %2 after its load returned"_s.arg(alias, status)));
                QTest::qWait(200);   // the probe's poll interval, not a wait for a condition
            }
            QCOMPARE(status, u"loaded"_s);
        }
    }
    QCOMPARE(relay.hostController(u"h1"_s)->currentEngine(), u"e1"_s);
    QCOMPARE(relay.hostController(u"h2"_s)->currentEngine(), u"e1"_s);
}

void TestLocalFleet::brokenEngineAnswers424WithItsReason()
{
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, m_dir.filePath(u"state2"_s)},
        {"hosts"_L1, QJsonObject{{"h3"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                     {"engines"_L1, QJsonObject{{"broken"_L1, QJsonObject{
                                                         {"url"_L1, u"http://127.0.0.1:%1"_s.arg(portForLater())},
                                                         {"models"_L1, QJsonArray{u"z"_s}},
                                                         {"start_timeout_s"_L1, 5},
                                                         {"argv"_L1, QJsonArray{u"/nonexistent/llama-server"_s}}}}}}}}}}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"broken.json"_s);
    QVERIFY2(result.ok(), result.errors.isEmpty() ? "" : qPrintable(result.errors.first().toString()));
    RelayService relay(*result.config, RelayService::standardDrivers(*result.config));
    QString error;
    QVERIFY(relay.start(&error));
    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    QElapsedTimer clock;
    clock.start();
    client.send(RawHttpClient::post("/v1/chat/completions", R"({"model":"h3-z","messages":[]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QVERIFY(clock.elapsed() < 6000);   // within its start timeout, not a hang
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 424);
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    const QString message = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(message.contains("broken"_L1) && message.contains("nonexistent"_L1), qPrintable(message));
}

void TestLocalFleet::streamOnOneEngineFinishesBeforeTheSwitch()
{
    const quint16 portA = portForLater();
    const quint16 portB = portForLater();
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, m_dir.filePath(u"state3"_s)},
        {"hosts"_L1, QJsonObject{{"h4"_L1, QJsonObject{
            {"driver"_L1, "local"_L1},
            {"scheduling"_L1, QJsonObject{{"policy"_L1, "arrival"_L1}}},   // the drain is the subject, not the dwell
            {"engines"_L1, QJsonObject{{"ea"_L1, engine(portA, u"alpha"_s, {u"--loaded"_s, u"alpha"_s, u"--tokens-per-s"_s, u"40"_s})},
                                       {"eb"_L1, engine(portB, u"beta"_s, {u"--loaded"_s, u"beta"_s})}}}}}}}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"stream.json"_s);
    QVERIFY2(result.ok(), result.errors.isEmpty() ? "" : qPrintable(result.errors.first().toString()));
    QFile memoryFile(m_dir.filePath(u"engines-stream.json"_s));
    QVERIFY(memoryFile.open(QIODevice::WriteOnly));
    memoryFile.write(R"({"h4":{"ea":[{"id":"alpha"}],"eb":[{"id":"beta"}]}})");
    memoryFile.close();
    RelayService relay(*result.config, RelayService::standardDrivers(*result.config));
    relay.rememberEnginesIn(memoryFile.fileName());
    QStringList journal;   // the switches
    QStringList saves;     // prompt caches saved before an engine stopped: on by default (issue 31)
    connect(relay.hostController(u"h4"_s), &HostController::historyEvent, this, [&journal, &saves](const HistoryEvent &e) {
        if (e.kind == HistoryEvent::Kind::CacheSave)
            saves << e.toString();
        else if (e.kind == HistoryEvent::Kind::SwitchStart || e.kind == HistoryEvent::Kind::SwitchEnd)
            journal << e.toString();
    });
    QString error;
    QVERIFY(relay.start(&error));
    const QByteArray body = R"({"model":"h4-alpha","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"Hello there"}]})";

    RawHttpClient streaming(relay.endpoint().port());
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", body));   // starts engine ea first
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 2, 20000);
    RawHttpClient other(relay.endpoint().port());
    QVERIFY(other.connectToServer());
    other.send(RawHttpClient::post("/v1/chat/completions", R"({"model":"h4-beta","max_tokens":4,"messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(streaming.completedResponses(), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 30000);
    QCOMPARE(other.responses().at(0).status, 200);
    QVERIFY(other.responses().at(0).headAtMs >= streaming.responses().at(0).completedAtMs);

    // The same request through the relay again (which switches back to ea), then straight to ea:
    // the relayed stream carries exactly the engine's tokens, and ends as the engine ends it.
    RawHttpClient back(relay.endpoint().port());
    QVERIFY(back.connectToServer());
    back.send(RawHttpClient::post("/v1/chat/completions", body));
    QTRY_COMPARE_WITH_TIMEOUT(back.completedResponses(), 1, 30000);
    RawHttpClient direct(portA);
    QVERIFY(direct.connectToServer());
    direct.send(RawHttpClient::post("/v1/chat/completions", QByteArray(body).replace("h4-alpha", "alpha")));
    QTRY_COMPARE_WITH_TIMEOUT(direct.completedResponses(), 1, 10000);
    const QByteArray relayed = streaming.responses().at(0).body;
    QVERIFY(relayed.endsWith("data: [DONE]\n\n"));
    QCOMPARE(contentTokens(relayed).size(), 16);
    QCOMPARE(contentTokens(relayed), contentTokens(direct.responses().at(0).body));
    QCOMPARE(contentTokens(back.responses().at(0).body), contentTokens(direct.responses().at(0).body));
    QVERIFY(direct.responses().at(0).body.endsWith("data: [DONE]\n\n"));

    // Journal: ea up, then the switch to eb only after the stream, then eb up, then back to ea.
    QVERIFY2(journal.size() >= 4, qPrintable(journal.join(u" | "_s)));
    QCOMPARE(journal.at(0), u"host h4: switching to engine ea for h4-alpha"_s);
    QVERIFY(journal.at(1).startsWith("host h4: engine ea up after"_L1));
    QCOMPARE(journal.at(2), u"host h4: switching to engine eb for h4-beta"_s);
    QVERIFY(journal.at(3).startsWith("host h4: engine eb up after"_L1));
    // No prompt_cache in the config: ea's conversation was saved before ea stopped all the same.
    QVERIFY2(!saves.isEmpty() && saves.first().contains(u"ea"_s), qPrintable(saves.join(u" | "_s)));
}

// Issue 17, case 5: router engines (no "models" list) the relay has never seen run, with an empty
// data folder. It asks each what it serves, remembers it, and lists every model within seconds.
void TestLocalFleet::freshInstallListsEveryRouterEnginesModels()
{
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, m_dir.filePath(u"state5"_s)},
        {"hosts"_L1, QJsonObject{{"h5"_L1, QJsonObject{
            {"driver"_L1, "local"_L1},
            {"engines"_L1, QJsonObject{{"ea"_L1, engine(portForLater(), u"alpha,alpha-long"_s)},
                                       {"eb"_L1, engine(portForLater(), u"beta"_s)}}}}}}}};
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"fresh.json"_s);
    QVERIFY2(result.ok(), result.errors.isEmpty() ? "" : qPrintable(result.errors.first().toString()));
    const QString memory = m_dir.filePath(u"fresh-engines.json"_s);
    QVERIFY(!QFile::exists(memory));
    auto listed = [](RelayService &relay) {
        QStringList ids;
        const QJsonArray data = QJsonDocument::fromJson(relay.catalog()->modelsJson()).object().value("data"_L1).toArray();
        for (const QJsonValue &v : data)
            ids << v.toObject().value("id"_L1).toString();
        ids.sort();
        return ids;
    };
    const QStringList all{u"h5-alpha"_s, u"h5-alpha-long"_s, u"h5-beta"_s};
    {
        RelayService relay(*result.config, RelayService::standardDrivers(*result.config));
        relay.rememberEnginesIn(memory);
        QString error;
        QVERIFY2(relay.start(&error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(listed(relay), all, 20000);
        HostController *host = relay.hostController(u"h5"_s);
        QTRY_VERIFY_WITH_TIMEOUT(host->state() == HostStateMachine::State::Serving, 10000);
        QCOMPARE(host->runningRequests(), 0);
        QCOMPARE(host->waitingRequests(), 0);
        // Known from now on, also for the next start.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(memory), 5000);
        relay.shutdown(std::chrono::seconds(5));
    }
    RelayService again(*result.config, RelayService::standardDrivers(*result.config));
    again.rememberEnginesIn(memory);
    QString error;
    QVERIFY2(again.start(&error), qPrintable(error));
    QCOMPARE(listed(again), all);   // at once, from memory: nothing to ask
}

QTEST_GUILESS_MAIN(TestLocalFleet)
#include "tst_localfleet.moc"
