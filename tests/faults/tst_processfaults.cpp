// The fault suite (issue 9), faults a config file or a signal brings: a broken config on reload,
// SIGTERM with streams running, SIGHUP on the headless relay (the real executable).
#include "laterport.h"
#include "rawhttpclient.h"
#include "relayfixture.h"
#include "slowreader.h"

#include "app/commandline.h"
#include "app/configreloader.h"
#include "http/httpserver.h"
#include "journal/journalformat.h"
#include "relay/relay.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"
#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <memory>

#include "faultstestcase.h"
#include "faultstesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace faultstest;

class TestProcessFaults final : public FaultsTestCase
{
    Q_OBJECT

private Q_SLOTS:
    void brokenConfigOnReloadKeepsTheRunningOne_data();
    void brokenConfigOnReloadKeepsTheRunningOne();
    void sigtermLetsStreamsFinishAndOrphansNoEngine();
    void sighupReloadsHeadlessAndRefusesABrokenFile();
};

// ---- config reload ----------------------------------------------------------------------------

void TestProcessFaults::brokenConfigOnReloadKeepsTheRunningOne_data()
{
    QTest::addColumn<int>("cutAt");          // bytes of the new file written (-1: all of it)
    QTest::addColumn<QByteArray>("newHost");  // the second host's JSON in the new file
    QTest::addColumn<QString>("expected");   // in the first error: what and where
    const QByteArray good = R"({"engines": {"main": {"url": "http://127.0.0.1:9"}}})";
    QTest::newRow("half-written file") << 60 << good << u":4:"_s;
    QTest::newRow("empty file (truncated on open)") << 0 << good << u"faults.json"_s;
    QTest::newRow("valid JSON, wrong field") << -1 << R"({"engines": {"main": {"url": "ftp://x"}}})"_ba
                                            << u":4: hosts.h2.engines.main.url:"_s;
}

void TestProcessFaults::brokenConfigOnReloadKeepsTheRunningOne()
{
    QFETCH(int, cutAt);
    QFETCH(QByteArray, newHost);
    QFETCH(QString, expected);
    fake::FakeLlamaServer engine(routerOptions());
    QVERIFY(engine.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"faults.json"_s);
    auto write = [&path](const QByteArray &text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    };
    const QByteArray h1 = R"("h1": {"engines": {"main": {"url": ")" + engine.baseUrl().toString().toUtf8() + R"("}}})";
    write("{\n  \"listen\": \"127.0.0.1:0\",\n  \"hosts\": {\n    " + h1 + "\n  }\n}\n");
    AppOptions options;
    options.configPath = path;
    RelayRunner runner(nullptr, nullptr);
    const ConfigResult first = ConfigLoader::load(path);
    QVERIFY(first.ok());
    QString error;
    QVERIFY(runner.start(*first.config, &error));
    RelayService *before = runner.service();
    const quint16 port = before->endpoint().port();
    QTRY_VERIFY_WITH_TIMEOUT(before->catalog()->host(u"h1"_s)->reachable, 5000);

    ConfigReloader reloader(options, nullptr, &runner, nullptr);
    QSignalSpy failed(&reloader, &ConfigReloader::reloadFailed);
    const QByteArray next = "{\n  \"listen\": \"127.0.0.1:0\",\n  \"hosts\": {\n    \"h2\": " + newHost + ",\n    " + h1 + "\n  }\n}\n";
    write(cutAt < 0 ? next : next.left(cutAt));
    QVERIFY(!reloader.reload());
    QCOMPARE(failed.size(), 1);
    const QStringList errors = failed.first().first().toStringList();
    QVERIFY(!errors.isEmpty());
    QVERIFY2(errors.first().startsWith(path) && errors.first().contains(expected), qPrintable(errors.join(u'\n')));

    // The running relay is the same one, on the same port, still routing by the old config.
    QCOMPARE(runner.service(), before);
    QCOMPARE(before->catalog()->hostNames(), QStringList{u"h1"_s});
    RawHttpClient client(port);
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
}

// ---- SIGTERM on the real binary ---------------------------------------------------------------

void TestProcessFaults::sigtermLetsStreamsFinishAndOrphansNoEngine()
{
    QTemporaryDir dir;
    const quint16 relayPort = portForLater();
    const quint16 enginePort = portForLater();
    const QJsonArray argv{binary(u"switchyard-fakellama"_s), u"--port"_s, QString::number(enginePort),
                          u"--models"_s, u"alpha"_s, u"--loaded"_s, u"alpha"_s, u"--tokens-per-s"_s, u"20"_s};
    const QJsonObject root{
        {"listen"_L1, u"127.0.0.1:%1"_s.arg(relayPort)},
        {"state_dir"_L1, dir.filePath(u"state"_s)},
        {"hosts"_L1, QJsonObject{{"h1"_L1, QJsonObject{
            {"driver"_L1, "local"_L1},
            {"engines"_L1, QJsonObject{{"e1"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                             {"models"_L1, QJsonArray{u"alpha"_s}},
                                                             {"argv"_L1, argv},
                                                             {"start_timeout_s"_L1, 20}}}}}}}}}};
    const QString configPath = dir.filePath(u"relay.json"_s);
    {
        QFile file(configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
    }
    HeadlessRelay headless;
    QVERIFY2(headless.start(configPath, dir), headless.output.constData());
    QProcess &relay = headless.process;
    QByteArray &output = headless.output;

    // A stream of 60 tokens at 20/s: three seconds, most of it after the SIGTERM.
    RawHttpClient streaming(relayPort);
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 60, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 3, 20000);
    const qint64 engine = enginePid(enginePort);
    QVERIFY2(engine > 0, "the relay's engine process was not found");

    QElapsedTimer sinceTerm;
    sinceTerm.start();
    QCOMPARE(::kill(pid_t(relay.processId()), SIGTERM), 0);
    // New connections are refused at once, while the stream goes on.
    bool refused = false;
    QElapsedTimer probing;
    probing.start();
    while (!refused && probing.elapsed() < 5000) {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, relayPort);
        refused = !probe.waitForConnected(1000);
        if (!refused)
            QTest::qWait(50);   // the relay's loop must run to close its listener
    }
    QVERIFY2(refused, "the relay still accepts connections after SIGTERM");
    QVERIFY(!streaming.isDisconnected());
    QCOMPARE(streaming.completedResponses(), 0);

    QTRY_COMPARE_WITH_TIMEOUT(streaming.completedResponses(), 1, 15000);
    const auto &r = streaming.responses().at(0);
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.endsWith("data: [DONE]\n\n"), r.body.right(200).constData());
    QCOMPARE(int(r.body.count("data: ")), 60 + 3);   // role chunk, tokens, finish chunk, [DONE]
    // Then the relay exits by itself, well within its 30 s grace, and takes its engine along.
    QTRY_COMPARE_WITH_TIMEOUT(relay.state(), QProcess::NotRunning, 15000);
    QVERIFY2(sinceTerm.elapsed() < 30000, qPrintable(QString::number(sinceTerm.elapsed())));
    QCOMPARE(relay.exitStatus(), QProcess::NormalExit);
    QCOMPARE(relay.exitCode(), 0);
    output += relay.readAll();
    // Its journal (stdout) has the stream's line, finished whole, without an error.
    const QList<QByteArray> lines = output.split('\n');
    const auto streamLine = std::find_if(lines.cbegin(), lines.cend(), [](const QByteArray &l) {
        return l.contains("POST /v1/chat/completions model=\"h1-alpha\" host=h1 status=200");
    });
    QVERIFY2(streamLine != lines.cend(), output.constData());
    QVERIFY2(!streamLine->contains(" err="), streamLine->constData());
    QTRY_VERIFY2_WITH_TIMEOUT(processGone(engine), qPrintable(u"engine %1 outlived the relay"_s.arg(engine)), 15000);
}

void TestProcessFaults::sighupReloadsHeadlessAndRefusesABrokenFile()
{
    fake::FakeLlamaServer engine(routerOptions());
    QVERIFY(engine.listen());
    QTemporaryDir dir;
    const quint16 relayPort = portForLater();
    const QString path = dir.filePath(u"relay.json"_s);
    const QByteArray url = engine.baseUrl().toString().toUtf8();
    auto configWith = [&](const QByteArray &host) {
        return "{\n  \"listen\": \"127.0.0.1:" + QByteArray::number(relayPort) + "\",\n  \"hosts\": {\n    \"" + host
            + R"(": {"engines": {"main": {"url": ")" + url + "\"}}}\n  }\n}\n";
    };
    auto write = [&path](const QByteArray &text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    };
    write(configWith("h1"));
    HeadlessRelay headless;
    QVERIFY2(headless.start(path, dir), headless.output.constData());
    QProcess &relay = headless.process;
    QByteArray &output = headless.output;
    auto models = [relayPort] {
        RawHttpClient client(relayPort);
        if (!client.connectToServer())
            return QByteArray("no connection");
        client.send(RawHttpClient::get("/v1/models"));
        if (!QTest::qWaitFor([&client] { return client.completedResponses() == 1; }, 5000))
            return QByteArray("no answer");
        return client.responses().at(0).body;
    };
    QTRY_VERIFY_WITH_TIMEOUT(models().contains("\"h1-alpha\""), 10000);

    // Half written: refused with the file and line, once for the change it saw and once for the
    // SIGHUP; the relay goes on with the old config.
    write(configWith("h2").left(60));
    QTRY_VERIFY_WITH_TIMEOUT(output.count("config not reloaded") >= 1, 10000);
    QVERIFY2(output.contains(path.toUtf8() + ":"), output.constData());
    const qsizetype refusedBefore = output.count("config not reloaded");
    QCOMPARE(::kill(pid_t(relay.processId()), SIGHUP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(output.count("config not reloaded") > refusedBefore, 10000);
    QCOMPARE(relay.state(), QProcess::Running);
    QVERIFY(models().contains("\"h1-alpha\""));

    // Whole again: the change and the SIGHUP both apply it.
    write(configWith("h2"));
    QCOMPARE(::kill(pid_t(relay.processId()), SIGHUP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(output.contains("config reloaded from"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(models().contains("\"h2-alpha\""), 10000);
    QVERIFY(!models().contains("\"h1-alpha\""));
    QCOMPARE(relay.state(), QProcess::Running);
}

QTEST_GUILESS_MAIN(TestProcessFaults)

#include "tst_processfaults.moc"
