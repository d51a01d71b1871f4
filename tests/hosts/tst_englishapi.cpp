// A relay started under a German locale, with the German catalogue installed as the desktop
// installs it (QTranslator from :/i18n), still answers API clients in English: Claude Code and
// opencode read these words, and the relay's own refusals must not change with the user's
// language. Every refusal and failure a client or the admin API can meet runs here, over HTTP,
// and its text is compared with the English literal. The window's words are the ones that are
// translated (ui/shared/failurewords.cpp words the same facts through tr()).
#include "engines/agentservice.h"
#include "engines/enginesupervisor.h"
#include "engines/wakeonlan.h"
#include "hosts/sleepcommandrun.h"
#include "upstream/upstreampool.h"
#include "switchingfixture.h"

#include "rawhttpclient.h"

#include <QCoreApplication>
#include <QDir>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QFile>
#include <QLibraryInfo>
#include <QTranslator>
#include <QUdpSocket>

using namespace switchyard;
using namespace switchyard::test;

namespace {

QByteArray chat(const QByteArray &model)
{
    return R"({"model":")" + model + R"(","max_tokens":8,"messages":[{"role":"user","content":"hi"}]})";
}

// The words of an error reply, whatever the API's shape around them.
QString errorMessage(const RawHttpClient::Response &response)
{
    return QJsonDocument::fromJson(response.body).object().value("error"_L1).toObject().value("message"_L1).toString();
}

// One request on a fresh connection, answered.
std::optional<RawHttpClient::Response> ask(quint16 port, const QByteArray &raw)
{
    RawHttpClient client(port);
    if (!client.connectToServer())
        return std::nullopt;
    client.send(raw);
    if (!QTest::qWaitFor([&client] { return client.completedResponses() == 1; }, 15000))
        return std::nullopt;
    return client.responses().at(0);
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

class TestEnglishApi : public QObject
{
    Q_OBJECT

public:
    explicit TestEnglishApi(bool translated) : m_translated(translated) {}

private Q_SLOTS:
    void theUserSpeaksGerman();
    void refusalsAreEnglish_data();
    void refusalsAreEnglish();
    void hostRefusalsAreEnglish();
    void unreachableEngineIsEnglish();
    void failedLocalEngineIsEnglish_data();
    void failedLocalEngineIsEnglish();
    void unavailableStateFileIsEnglish_data();
    void unavailableStateFileIsEnglish();
    void agentErrorsAreEnglish_data();
    void agentErrorsAreEnglish();
    void adminErrorsAreEnglish_data();
    void adminErrorsAreEnglish();
    void wakeFailureIsEnglish();
    void sleepCommandFailureIsEnglish_data();
    void sleepCommandFailureIsEnglish();

private:
    // A relay with one local host "box" whose engine "broken" runs argv, its state in stateDir:
    // the 424 of a request for it and /admin/hosts's last_error both say `failure`.
    void expectLocalFailure(const QString &stateDir, const QStringList &argv, const QString &failure);

    bool m_translated;
    QTemporaryDir m_files;
};

void TestEnglishApi::theUserSpeaksGerman()
{
    QCOMPARE(QLocale().language(), QLocale::German);
    QVERIFY2(m_translated, "the German catalogue did not load from :/i18n");
    QCOMPARE(QCoreApplication::translate("switchyard::HistoryWriter", "Cannot switch the history database to WAL mode: %1"),
             u"Die Verlaufsdatenbank lässt sich nicht in den WAL-Modus schalten: %1"_s);
    // The window's words for the failures below are German: only the API's stay English.
    QCOMPARE(QCoreApplication::translate("FailureWords", "exited with code %1"), u"endete mit Code %1"_s);
    // And Qt's own words, which QProcess and QFile use for system errors.
    QCOMPARE(QCoreApplication::translate("QIODevice", "No such file or directory"),
             u"Die Datei oder das Verzeichnis konnte nicht gefunden werden"_s);
}

void TestEnglishApi::refusalsAreEnglish_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");   // the start of it, where the rest names the fixture's models

    QTest::newRow("unknown model") << RawHttpClient::post("/v1/messages", chat("nope")) << 404
                                   << u"model 'nope' not found; known models: "_s;
    QTest::newRow("body not an object") << RawHttpClient::post("/v1/chat/completions", "[1]") << 400
                                        << u"the request body is not a JSON object"_s;
    QTest::newRow("model missing") << RawHttpClient::post("/v1/chat/completions", "{}") << 400
                                   << u"model name is missing from the request"_s;
    QTest::newRow("model not a string") << RawHttpClient::post("/v1/chat/completions", R"({"model":1})") << 400
                                        << u"\"model\" must be a string"_s;
}

void TestEnglishApi::refusalsAreEnglish()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, message);
    SwitchingFixture f;
    QVERIFY(f.start());
    const std::optional<RawHttpClient::Response> answer = ask(f.port(), request);
    QVERIFY(answer);
    QCOMPARE(answer->status, status);
    QVERIFY2(errorMessage(*answer).startsWith(message), qPrintable(errorMessage(*answer)));
    QCOMPARE(answer->header("x-should-retry"), "false");
}

void TestEnglishApi::hostRefusalsAreEnglish()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    HostController *c = f.relay->hostController(u"h1"_s);
    bool granted = false;
    c->takeLease(u"bench"_s, 10min, [&granted](const std::optional<HostRefusal> &refused) { granted = !refused; });
    QTRY_VERIFY_WITH_TIMEOUT(granted, 5000);

    const std::optional<RawHttpClient::Response> leased = ask(f.port(), RawHttpClient::post("/v1/messages", chat("h1-alpha")));
    QVERIFY(leased);
    QCOMPARE(leased->status, 423);
    QCOMPARE(errorMessage(*leased), u"host h1 is leased by bench until %1"_s.arg(c->leaseUntil().toString(Qt::ISODate)));

    // A switch on command through the admin API meets the lease too.
    const std::optional<RawHttpClient::Response> switchLeased
        = ask(f.port(), RawHttpClient::post("/admin/hosts/h1/engine", R"({"engine":"b"})"));
    QVERIFY(switchLeased);
    QCOMPARE(switchLeased->status, 423);
    QCOMPARE(errorMessage(*switchLeased), errorMessage(*leased));
}

void TestEnglishApi::unreachableEngineIsEnglish()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    f.engineA->close();   // the engine is gone behind the relay's back
    const std::optional<RawHttpClient::Response> down = ask(f.port(), RawHttpClient::post("/v1/messages", chat("h1-alpha")));
    QVERIFY(down);
    QCOMPARE(down->status, 424);
    QVERIFY2(errorMessage(*down).startsWith(u"host h1 is down: "_s), qPrintable(errorMessage(*down)));

    // A switch to an engine that never comes up: the host's refusal names the driver's reason.
    f.driver->failing = {u"b"_s};
    const std::optional<RawHttpClient::Response> failed = ask(f.port(), RawHttpClient::post("/v1/messages", chat("h1-beta")));
    QVERIFY(failed);
    QCOMPARE(failed->status, 424);
    QCOMPARE(errorMessage(*failed), u"switching host h1 to engine b failed: exited with code 1: no such model file"_s);
}

// The report of issue 34: a local engine whose program exits 1 gave "endete mit Code 1".
void TestEnglishApi::failedLocalEngineIsEnglish_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QString>("failure");   // what /admin/hosts says; the 424 says it after "failed: "

    QTest::newRow("exits 1") << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo no such model file >&2; exit 1"_s}
                             << u"exited with code 1: no such model file"_s;
    // QProcess words a failed exec through Qt's own catalogue, German here ("Die Datei oder das
    // Verzeichnis konnte nicht gefunden werden" reached the client).
    QTest::newRow("no such program") << QStringList{u"/nonexistent/llama-server"_s}
                                     << u"cannot start /nonexistent/llama-server: no such file"_s;
    const QString plainFile = m_files.filePath(u"llama-server.txt"_s);
    QFile file(plainFile);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("not a program\n") > 0);
    file.close();
    QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    QTest::newRow("not executable") << QStringList{plainFile} << u"cannot start %1: it is not executable"_s.arg(plainFile);
}

void TestEnglishApi::failedLocalEngineIsEnglish()
{
    QFETCH(QStringList, argv);
    QFETCH(QString, failure);
    QTemporaryDir state;
    QVERIFY(state.isValid());
    expectLocalFailure(state.path(), argv, failure);
}

// The supervisor's state file cannot be taken: its failure carried QFile's and QLockFile's words
// (Qt's catalogue, German here) until it carried facts.
void TestEnglishApi::unavailableStateFileIsEnglish_data()
{
    QTest::addColumn<QString>("stateDir");
    QTest::addColumn<QString>("failure");

    const QString plainFile = m_files.filePath(u"not-a-folder"_s);
    QFile file(plainFile);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("a file\n") > 0);
    file.close();
    const QString underFile = plainFile + u"/state"_s;
    QTest::newRow("no folder") << underFile
                               << u"cannot create the folder of the state file %1/local-box.json"_s.arg(underFile);

    const QString heldDir = m_files.filePath(u"held"_s);
    QTest::newRow("held by another supervisor")
        << heldDir << u"another supervisor (%1, pid %2) uses the state file %3/local-box.json"_s
                          .arg(QCoreApplication::applicationName())
                          .arg(QCoreApplication::applicationPid())
                          .arg(heldDir);

    // The state file's name is taken by a folder: the lock is fine, the file cannot be written.
    const QString folderDir = m_files.filePath(u"folder"_s);
    QVERIFY(QDir().mkpath(folderDir + u"/local-box.json"_s));
    QTest::newRow("not writable") << folderDir
                                  << u"cannot write the state file %1/local-box.json: writing it failed"_s.arg(folderDir);
}

void TestEnglishApi::unavailableStateFileIsEnglish()
{
    QFETCH(QString, stateDir);
    QFETCH(QString, failure);
    // A second supervisor in this process holds the state file (only the "held" row finds it).
    UpstreamPool pool;
    EngineSupervisor holder({}, stateDir + u"/local-box.json"_s, &pool);
    if (QTest::currentDataTag() == QByteArrayView("held by another supervisor")) {
        EngineFailure why;
        QVERIFY2(holder.open(&why), qPrintable(why.toString()));
    }
    expectLocalFailure(stateDir, {u"/bin/true"_s}, failure);
}

void TestEnglishApi::expectLocalFailure(const QString &stateDir, const QStringList &argv, const QString &failure)
{
    const quint16 enginePort = freePort();
    ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"box=http://127.0.0.1:%1"_s.arg(enginePort)});
    QVERIFY(result.ok());
    Config config = *result.config;
    config.stateDir = stateDir;
    HostConfig &host = config.hosts.first();
    host.driver = u"local"_s;
    EngineConfig &engine = host.engines.first();
    engine.name = u"broken"_s;
    engine.models = {u"m"_s};
    engine.argv = argv;
    RelayService relay(config, RelayService::standardDrivers(config));
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));

    const std::optional<RawHttpClient::Response> failed = ask(relay.endpoint().port(), RawHttpClient::post("/v1/messages", chat("box-m")));
    QVERIFY(failed);
    QCOMPARE(failed->status, 424);
    QCOMPARE(errorMessage(*failed), u"switching host box to engine broken failed: "_s + failure);

    // The admin API's view of the host says the same, in English.
    const std::optional<RawHttpClient::Response> hosts = ask(relay.endpoint().port(), RawHttpClient::get("/admin/hosts"));
    QVERIFY(hosts);
    QCOMPARE(hosts->status, 200);
    const QJsonObject box = QJsonDocument::fromJson(hosts->body).array().at(0).toObject();
    QCOMPARE(box.value("last_error"_L1).toString(), failure);
}

void TestEnglishApi::adminErrorsAreEnglish_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");

    QTest::newRow("no endpoint") << RawHttpClient::get("/admin/nope") << 404 << u"no admin endpoint GET /admin/nope"_s;
    QTest::newRow("no host") << RawHttpClient::post("/admin/hosts/h9/engine", R"({"engine":"a"})") << 404
                             << u"no host h9 with a controller"_s;
    QTest::newRow("no owner") << RawHttpClient::post("/admin/hosts/h1/lease", "{}") << 400
                              << u"\"owner\" is required: who holds the GPU"_s;
    QTest::newRow("ttl") << RawHttpClient::post("/admin/hosts/h1/lease", R"({"owner":"x","ttl_s":0})") << 400
                         << u"\"ttl_s\" must be between 1 and 604800"_s;
    QTest::newRow("no engine") << RawHttpClient::post("/admin/hosts/h1/engine", "{}") << 400
                               << u"\"engine\" is required: one of a, b"_s;
    QTest::newRow("unknown engine") << RawHttpClient::post("/admin/hosts/h1/engine", R"({"engine":"nope"})") << 400
                                    << u"host h1 has no engine \"nope\" (its engines: a, b)"_s;
    QTest::newRow("request state") << RawHttpClient::get("/admin/requests?state=x") << 400
                                   << u"\"state\" is active or done, not x"_s;
    QTest::newRow("no history") << RawHttpClient::get("/admin/events") << 424 << u"no history store is open"_s;
}

void TestEnglishApi::adminErrorsAreEnglish()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, message);
    SwitchingFixture f;
    QVERIFY(f.start());
    const std::optional<RawHttpClient::Response> answer = ask(f.port(), request);
    QVERIFY(answer);
    QCOMPARE(answer->status, status);
    QCOMPARE(errorMessage(*answer), message);
}

// A wake-on-LAN packet the system would not send: the WakeSent event's detail (in the history and
// /admin/events) said the socket's errorString(), Qt's catalogue's German here.
void TestEnglishApi::wakeFailureIsEnglish()
{
    const QByteArray mac = *WakeOnLan::parseMac(u"3c:7c:3f:1e:22:0a"_s);
    QString error;
    // Port 0: Linux refuses the datagram (EINVAL).
    QVERIFY(!WakeOnLan::send(mac, QHostAddress::LocalHost, 0, &error));
    QCOMPARE(error, u"the system would not send it"_s);
    // What the socket itself says of it is German: the test would see it.
    QUdpSocket socket;
    QCOMPARE(socket.writeDatagram(WakeOnLan::magicPacket(mac), QHostAddress::LocalHost, 0), -1);
    QVERIFY2(socket.errorString() != u"Unable to send a datagram"_s, qPrintable(socket.errorString()));
}

// A sleep_command that cannot start: the SleepCommand event's detail said QProcess's
// errorString() ("execve: Die Datei oder das Verzeichnis konnte nicht gefunden werden").
void TestEnglishApi::sleepCommandFailureIsEnglish_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("why");
    QTest::newRow("no such program") << u"/nonexistent/suspend-now"_s << u"no such file"_s;
    const QString plainFile = m_files.filePath(u"suspend.txt"_s);
    QFile file(plainFile);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("not a program\n") > 0);
    file.close();
    QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    QTest::newRow("not executable") << plainFile << u"it is not executable"_s;
}

void TestEnglishApi::sleepCommandFailureIsEnglish()
{
    QFETCH(QString, program);
    QFETCH(QString, why);
    QObject listener;
    QString detail;
    SleepCommandRun::start(u"box"_s, {program, u"now"_s}, &listener, [&detail](const QString &d) { detail = d; });
    QTRY_VERIFY_WITH_TIMEOUT(!detail.isEmpty(), 10000);
    QCOMPARE(detail, u"%1 now: could not start: %2"_s.arg(program, why));
}

// The GPU box's agent answers relays (and, through them, API clients): its errors are English on
// a German box too (issue 34: they went through tr()).
void TestEnglishApi::agentErrorsAreEnglish_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    const QByteArray token = "Authorization: Bearer box-token\r\n";
    QTest::newRow("no such path") << RawHttpClient::get("/agent/nothing", token) << 404 << u"no such path: /agent/nothing"_s;
    QTest::newRow("wrong token") << RawHttpClient::get("/agent/status", "Authorization: Bearer wrong\r\n") << 401
                                 << u"missing or wrong token"_s;
    QTest::newRow("wrong method") << RawHttpClient::post("/agent/status", "{}", token) << 405 << u"use GET"_s;
    QTest::newRow("not an object") << RawHttpClient::post("/agent/switch", "[]", token) << 400
                                   << u"expected a JSON object like {\"engine\":\"NAME\"}"_s;
    QTest::newRow("no engine") << RawHttpClient::post("/agent/switch", "{}", token) << 400 << u"\"engine\" is missing"_s;
    QTest::newRow("unknown engine") << RawHttpClient::post("/agent/switch", R"({"engine":"gamma"})", token) << 404
                                    << u"no engine called gamma on this agent (engines: main)"_s;
}

void TestEnglishApi::agentErrorsAreEnglish()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, message);
    QTemporaryDir state;
    QVERIFY(state.isValid());
    AgentConfig config;
    config.listenAddress = QHostAddress::LocalHost;
    config.listenPort = 0;
    config.token = u"box-token"_s;
    config.stateDir = state.path();
    EngineConfig engine;
    engine.name = u"main"_s;
    engine.url = QUrl(u"http://127.0.0.1:%1"_s.arg(freePort()));
    engine.argv = {u"/bin/false"_s};
    config.engines = {engine};
    AgentService agent(config);
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    const std::optional<RawHttpClient::Response> answer = ask(quint16(agent.endpoint().port()), request);
    QVERIFY(answer);
    QCOMPARE(answer->status, status);
    QCOMPARE(errorMessage(*answer), message);
}

int main(int argc, char **argv)
{
    // Before the application exists, as a user's session would have it.
    qputenv("LC_ALL", "de_DE.UTF-8");
    qputenv("LANG", "de_DE.UTF-8");
    qputenv("LANGUAGE", "de");
    QCoreApplication app(argc, argv);
    QTranslator translator;
    const bool translated = translator.load(QLocale(), u"switchyard"_s, u"_"_s, u":/i18n"_s)
        && QCoreApplication::installTranslator(&translator);
    // Qt's own catalogue too, as the executable loads it (src/app/launch.cpp): it words
    // QProcess's and QFile's errors.
    QTranslator qtTranslator;
    const bool qtTranslated = qtTranslator.load(QLocale(), u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath))
        && QCoreApplication::installTranslator(&qtTranslator);
    if (!qtTranslated)
        qWarning("Qt's German catalogue (qtbase_de.qm, package qt6-translations-l10n) did not load");
    TestEnglishApi test(translated);
    return QTest::qExec(&test, argc, argv);
}

#include "tst_englishapi.moc"
