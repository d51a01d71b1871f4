// `switchyard check-config` and the example files under resources/, which must always pass.
#include "config/checkconfig.h"
#include "config/hostconfigreader.h"
#include "config/config.h"
#include "config/configloader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include "configtesthelpers.h"

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace configtest;

class TestCheckConfig : public QObject
{
    Q_OBJECT

private slots:
    void checkConfigAgentFile();
    void exampleFilePasses();
    void agentExampleFilePasses();
    void checkConfigOk();
    void checkConfigErrors();
    void checkConfigWarnings();
    void checkConfigMissingFile();
};

void TestCheckConfig::exampleFilePasses()
{
    const QString path = QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/switchyard.example.json");
    const ConfigResult result = ConfigLoader::load(path);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(describe(result.warnings)));
    const Config &c = *result.config;
    QStringList hosts;
    for (const HostConfig &h : c.hosts)
        hosts.append(h.name + u':' + h.driver);
    QCOMPARE(hosts, (QStringList{u"3090:agent"_s, u"ws:local"_s, u"box:static"_s}));
    const HostConfig *gpu = c.host(u"3090"_s);
    QVERIFY(gpu);
    QCOMPARE(gpu->engines.size(), 2);
    QCOMPARE(gpu->engines.at(0).name, u"mainline"_s);
    QCOMPARE(gpu->engines.at(1).name, u"fork"_s);
    QVERIFY(!c.aliases.isEmpty());
    QVERIFY(c.aliases.first().pattern.startsWith(u"claude-"_s));
}

// The agent example is installed next to the relay's and pairs with its host 3090: the same
// engine names and token, so the two files work together as they are.
void TestCheckConfig::agentExampleFilePasses()
{
    const AgentConfigResult agent = ConfigLoader::loadAgent(
        QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/switchyard-agent.example.json"));
    QVERIFY2(agent.ok(), qPrintable(describe(agent.errors)));
    QVERIFY2(agent.warnings.isEmpty(), qPrintable(describe(agent.warnings)));
    const ConfigResult relay = ConfigLoader::load(QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/switchyard.example.json"));
    QVERIFY2(relay.ok(), qPrintable(describe(relay.errors)));
    const HostConfig *gpu = relay.config->host(u"3090"_s);
    QVERIFY(gpu);
    QStringList agentEngines;
    for (const EngineConfig &e : agent.config->engines)
        agentEngines.append(e.name);
    QStringList hostEngines;
    for (const EngineConfig &e : gpu->engines)
        hostEngines.append(e.name);
    QCOMPARE(agentEngines, hostEngines);
    QVERIFY(!agent.config->token.isEmpty());
    QCOMPARE(gpu->token, agent.config->token);
    QCOMPARE(int(agent.config->listenPort), gpu->agent.port());
}

void TestCheckConfig::checkConfigOk()
{
    const QString path = QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/switchyard.example.json");
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 0);
    // The hosts that switch say how they order their requests.
    const SchedulingConfig defaults;
    const QString batched = u"requests batched by engine (dwell %1 s, max wait %2 s, side calls %3 s)"_s
                                .arg(defaults.dwell.count() / 1000.0).arg(defaults.maxWait.count() / 1000.0)
                                .arg(defaults.sideCallMaxWait.count() / 1000.0);
    // The local host keeps prompt caches by default, and says where.
    QCOMPARE(outText, path + u": ok (3 hosts, 5 engines)\n"_s
                          + u"  host 3090: "_s + batched + u"\n"_s
                          + u"  host ws: "_s + batched + u"\n"_s
                          + u"  host ws: prompt caches kept in %1 (at most 10240 MB)\n"_s.arg(HostConfigReader::defaultSlotFolder(u"ws"_s)));
    QCOMPARE(errText, QString());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString one = dir.filePath(u"one.json"_s);
    QFile file(one);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}}})");
    file.close();
    outText.clear();
    QCOMPARE(runCheckConfig(one, out, err), 0);
    QCOMPARE(outText, one + u": ok (1 host, 1 engine)\n"_s);
}

void TestCheckConfig::checkConfigErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"bad.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\n  \"listen\": \"127.0.0.1\",\n  \"hosts\": {\n    \"box\": { \"engines\": { \"main\": { \"ulr\": \"http://b:1\" } } }\n  }\n}\n");
    file.close();

    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 1);
    QCOMPARE(outText, QString());
    const QStringList lines = errText.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines, (QStringList{
        path + u":2: listen: expected HOST:PORT, e.g. \"127.0.0.1:18766\", \"0.0.0.0:18766\" or \"[::1]:18766\""_s,
        path + u":4: hosts.box.engines.main.ulr: unknown field (did you mean \"url\"?)"_s,
        path + u":4: hosts.box.engines.main.url: required field missing"_s,
    }));
}

void TestCheckConfig::checkConfigWarnings()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"warn.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\n  \"hosts\": { \"box\": { \"engines\": { \"main\": { \"url\": \"http://b:1\", \"models\": [\"m\"] } } } },\n"
               "  \"aliases\": { \"claude-*\": \"box-other\" }\n}\n");
    file.close();

    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 0);   // warnings do not fail the check
    QCOMPARE(outText, path + u": ok (1 host, 1 engine)\n"_s);
    QCOMPARE(errText, path + u":3: aliases.claude-*: warning: no engine of host box lists model \"other\"\n"_s);
}

void TestCheckConfig::checkConfigMissingFile()
{
    const QString path = u"/nonexistent/switchyard.json"_s;
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 1);
    QVERIFY2(errText.startsWith(path + u": cannot read the config file: "_s), qPrintable(errText));
    QCOMPARE(errText.count(u'\n'), 1);
}

void TestCheckConfig::checkConfigAgentFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"agent.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"token": "t", "engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]},
                                             "b": {"url": "http://127.0.0.1:2", "argv": ["y"]}}})");
    file.close();
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 0);
    QCOMPARE(outText, path + u": ok (agent, 2 engines)\n"_s);
    QCOMPARE(errText, QString());

    const QString bad = dir.filePath(u"bad-agent.json"_s);
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write("{\n  \"token\": \"t\",\n  \"engines\": {\"a\": {\"url\": \"http://127.0.0.1:1\"}}\n}\n");
    badFile.close();
    outText.clear();
    QCOMPARE(runCheckConfig(bad, out, err), 1);
    QCOMPARE(errText, bad + u":3: engines.a.argv: required field missing\n"_s);
}

QTEST_GUILESS_MAIN(TestCheckConfig)

#include "tst_checkconfig.moc"
