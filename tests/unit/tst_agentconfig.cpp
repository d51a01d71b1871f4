// The agent's config file (`switchyard agent`): values, errors, the token a LAN listener needs.
#include "config/checkconfig.h"
#include "config/config.h"
#include "config/configloader.h"
#include "config/hostconfigreader.h"
#include "hosts/hostpower.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include "configtesthelpers.h"

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace configtest;

class TestAgentConfig : public QObject
{
    Q_OBJECT

private slots:
    void agentConfig();
    void agentConfigErrors_data();
    void agentConfigErrors();
    void agentConfigNeedsTokenOnLan();
    void idleStopAndSleepAreTheAgents();
};

void TestAgentConfig::agentConfig()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "//": "on the 3090 box",
  "listen": "0.0.0.0:18767",
  "token": "s3cret",
  "state_dir": "/var/lib/switchyard-agent",
  "engines": {
    "mainline": { "url": "http://127.0.0.1:8080", "argv": ["llama-server", "--port", "8080"] },
    "fork": { "url": "http://127.0.0.1:8081/", "argv": ["llama-fork", "--port", "8081"],
              "start_timeout_s": 90, "stop_timeout_s": 3 }
  }
})";
    QVERIFY(ConfigLoader::looksLikeAgentConfig(json));
    const AgentConfigResult result = ConfigLoader::parseAgent(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(describe(result.warnings)));
    const AgentConfig &c = *result.config;
    QCOMPARE(c.listenAddress, QHostAddress(QHostAddress::AnyIPv4));
    QCOMPARE(c.listenPort, quint16(18767));
    QCOMPARE(c.token, u"s3cret"_s);
    QCOMPARE(c.stateDir, u"/var/lib/switchyard-agent"_s);
    QCOMPARE(c.engines.size(), 2);
    QCOMPARE(c.engines.at(0).name, u"mainline"_s);   // file order
    QCOMPARE(c.engines.at(0).startTimeout, 120000ms);
    QCOMPARE(c.engines.at(1).url, QUrl(u"http://127.0.0.1:8081"_s));
    // The box's prompt caches are the agent's, kept by default in its state_dir (issue 33).
    QCOMPARE(c.engines.at(1).argv, (QStringList{u"llama-fork"_s, u"--port"_s, u"8081"_s, u"--slot-save-path"_s,
                                                u"/var/lib/switchyard-agent/slots"_s}));
    QCOMPARE(c.promptCache.dir, u"/var/lib/switchyard-agent/slots"_s);
    QCOMPARE(c.engines.at(1).startTimeout, 90000ms);
    QCOMPARE(c.engines.at(1).stopTimeout, 3000ms);
    QVERIFY(c.engine(u"fork"_s));
    QVERIFY(!c.engine(u"nope"_s));

    // Defaults: the agent's own port; a relay's file is not an agent's.
    const AgentConfigResult minimal = ConfigLoader::parseAgent(
        R"({"listen": "127.0.0.1:18767", "engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]}}})", File);
    QVERIFY2(minimal.ok(), qPrintable(describe(minimal.errors)));
    QCOMPARE(minimal.config->token, QString());
    // Without a state_dir, in the user's cache folder; "prompt_cache": false, none.
    QCOMPARE(minimal.config->promptCache.dir, HostConfigReader::defaultSlotFolder(u"agent"_s));
    const AgentConfigResult off = ConfigLoader::parseAgent(
        R"({"listen": "127.0.0.1:18767", "prompt_cache": false, "engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]}}})",
        File);
    QVERIFY2(off.ok(), qPrintable(describe(off.errors)));
    QVERIFY(!off.config->promptCache.enabled());
    QCOMPARE(off.config->engines.first().argv, QStringList{u"x"_s});
    QVERIFY(minimal.warnings.isEmpty());   // loopback without a token is fine
    const QByteArray relay = R"({"hosts": {}, "engines": {}})";
    QVERIFY(!ConfigLoader::looksLikeAgentConfig(relay));
}

void TestAgentConfig::agentConfigErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");

    const QByteArray engine = R"("a": {"url": "http://127.0.0.1:1", "argv": ["x"]})";
    QTest::newRow("no engines") << QByteArray("{\n  \"token\": \"t\"\n}") << u"engines"_s << 1
                                << u"required field missing"_s;
    QTest::newRow("empty engines") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {}\n}") << u"engines"_s << 3
                                   << u"no engines configured"_s;
    QTest::newRow("argv missing") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {\n    \"a\": {\"url\": \"http://x:1\"}\n  }\n}")
                                  << u"engines.a.argv"_s << 4 << u"required field missing"_s;
    QTest::newRow("url missing") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {\n    \"a\": {\"argv\": [\"x\"]}\n  }\n}")
                                 << u"engines.a.url"_s << 4 << u"required field missing"_s;
    QTest::newRow("models here") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {\n    \"a\": {\"url\": \"http://x:1\", \"argv\": [\"x\"],\n"
                                               "          \"models\": [\"m\"]}\n  }\n}")
                                 << u"engines.a.models"_s << 5 << u"unknown field"_s;
    QTest::newRow("hosts here") << QByteArray("{\n  \"token\": \"t\",\n  \"hosts\": {},\n  \"engines\": {" + engine + "}\n}")
                                << u"hosts"_s << 3 << u"this is an agent's file"_s;
    QTest::newRow("token empty") << QByteArray("{\n  \"token\": \"\",\n  \"engines\": {" + engine + "}\n}")
                                 << u"token"_s << 2 << u"must not be empty"_s;
    QTest::newRow("listen bad") << QByteArray("{\n  \"listen\": \"gpu.lan:1\",\n  \"engines\": {" + engine + "}\n}")
                                << u"listen"_s << 2 << u"is not an IP address"_s;
    QTest::newRow("timeout negative") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {\n    \"a\": {\"url\": \"http://x:1\", \"argv\": [\"x\"],\n"
                                                    "          \"stop_timeout_s\": -1}\n  }\n}")
                                      << u"engines.a.stop_timeout_s"_s << 5 << u"must be greater than 0"_s;
    QTest::newRow("state dir relative") << QByteArray("{\n  \"token\": \"t\",\n  \"state_dir\": \"s\",\n  \"engines\": {" + engine + "}\n}")
                                        << u"state_dir"_s << 3 << u"must be an absolute path"_s;
    QTest::newRow("bad engine name") << QByteArray("{\n  \"token\": \"t\",\n  \"engines\": {\n    \"a b\": {\"url\": \"http://x:1\", \"argv\": [\"x\"]}\n  }\n}")
                                     << u"engines.a b"_s << 4 << u"invalid engine name"_s;
    QTest::newRow("syntax") << QByteArray("{\n  \"engines\": {,}\n}") << QString() << 2 << u"JSON syntax error"_s;
    QTest::newRow("idle stop zero") << QByteArray("{\n  \"token\": \"t\",\n  \"idle_stop_after_s\": 0,\n  \"engines\": {" + engine + "}\n}")
                                    << u"idle_stop_after_s"_s << 3 << u"must be greater than 0"_s;
    QTest::newRow("sleep command empty") << QByteArray("{\n  \"token\": \"t\",\n  \"idle_stop_after_s\": 60,\n"
                                                       "  \"sleep_command\": [],\n  \"engines\": {" + engine + "}\n}")
                                         << u"sleep_command"_s << 4 << u"must not be empty"_s;
}

void TestAgentConfig::agentConfigErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(int, line);
    QFETCH(QString, message);

    const AgentConfigResult result = ConfigLoader::parseAgent(json, File);
    QVERIFY2(!result.ok(), "a broken agent config was accepted");
    const bool found = std::any_of(result.errors.cbegin(), result.errors.cend(), [&](const ConfigError &e) {
        return e.file == File && e.fieldPath == path && e.line == line && e.message.contains(message);
    });
    QVERIFY2(found, qPrintable(u"no error at %1 line %2 containing \"%3\"; got:\n%4"_s
                                   .arg(path).arg(line).arg(message, describe(result.errors))));
}

void TestAgentConfig::agentConfigNeedsTokenOnLan()
{
    // Open to the LAN with no token, anyone there could stop the box's engine: an error, so an
    // agent never takes orders from anyone but a relay that knows its token.
    const AgentConfigResult result = ConfigLoader::parseAgent(
        "{\n  \"listen\": \"0.0.0.0:18767\",\n  \"engines\": {\"a\": {\"url\": \"http://127.0.0.1:1\", \"argv\": [\"x\"]}}\n}", File);
    QVERIFY(!result.ok());
    QCOMPARE(result.errors.size(), 1);
    QCOMPARE(result.errors.first().fieldPath, u"token"_s);
    QCOMPARE(result.errors.first().line, 2);
    QVERIFY(result.errors.first().message.contains(u"required when listening on 0.0.0.0:18767"_s));
    // Without "listen" the agent listens on every interface, so the same applies.
    const AgentConfigResult everywhere =
        ConfigLoader::parseAgent(R"({"engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]}}})", File);
    QCOMPARE(everywhere.errors.size(), 1);
    QCOMPARE(everywhere.errors.first().fieldPath, u"token"_s);
}

// A shared box stops for idleness only by its agent's decision (issue 33): the agent's file takes
// the box's and each engine's limit and the sleep command; a relay's file that sets them for an
// agent host hears that they are the agent's.
void TestAgentConfig::idleStopAndSleepAreTheAgents()
{
    const AgentConfigResult agent = ConfigLoader::parseAgent(
        R"({"listen": "127.0.0.1:18767", "idle_stop_after_s": 1800, "sleep_command": ["sudo", "systemctl", "suspend"],
            "engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]},
                        "b": {"url": "http://127.0.0.1:2", "argv": ["y"], "idle_stop_after_s": 600}}})",
        File);
    QVERIFY2(agent.ok(), qPrintable(describe(agent.errors)));
    QVERIFY(agent.warnings.isEmpty());
    const HostConfig box = agent.config->asLocalHost(u"gpu-3090"_s);
    const HostStateMachine::Power power = HostPower::policy(box);
    QCOMPARE(power.idleStopAfter.value(u"a"_s), std::chrono::milliseconds(1800000));
    QCOMPARE(power.idleStopAfter.value(u"b"_s), std::chrono::milliseconds(600000));
    QVERIFY(power.sleeps);
    QVERIFY(!power.canWake);   // waking is the relays' (their "wake")
    QCOMPARE(box.sleepCommand, (QStringList{u"sudo"_s, u"systemctl"_s, u"suspend"_s}));

    const ConfigResult relay = ConfigLoader::parse(
        "{\n  \"hosts\": {\n    \"box\": {\"driver\": \"agent\", \"agent\": \"http://127.0.0.1:18767\",\n"
        "      \"idle_stop_after_s\": 1800,\n"
        "      \"engines\": {\"a\": {\"url\": \"http://127.0.0.1:1\", \"idle_stop_after_s\": 600}}}\n  }\n}",
        File);
    QVERIFY2(relay.ok(), qPrintable(describe(relay.errors)));
    QStringList warned;
    for (const ConfigError &w : relay.warnings) {
        if (w.message.contains(u"decided by the box's agent"_s))
            warned.append(u"%1:%2"_s.arg(w.fieldPath).arg(w.line));
    }
    QCOMPARE(warned, (QStringList{u"hosts.box.idle_stop_after_s:4"_s, u"hosts.box.engines.a.idle_stop_after_s:5"_s}));
}

QTEST_GUILESS_MAIN(TestAgentConfig)

#include "tst_agentconfig.moc"
