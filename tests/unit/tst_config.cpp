#include "config/checkconfig.h"
#include "config/config.h"
#include "config/configloader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

const QString File = u"test.json"_s;

QString describe(const QList<ConfigError> &errors)
{
    QStringList lines;
    for (const ConfigError &e : errors)
        lines.append(e.toString());
    return lines.join(u'\n');
}

// A valid host block other rows can reuse, so each broken row has exactly one problem.
const QByteArray Box = R"("box": { "driver": "static", "engines": { "main": { "url": "http://box.lan:8080" } } })";

} // namespace

class TestConfig : public QObject
{
    Q_OBJECT

private slots:
    void brokenConfig_data();
    void brokenConfig();
    void reportsEveryError();
    void syntaxErrorColumn();
    void goodConfig_data();
    void goodConfig();
    void keepsFileOrder();
    void readsValues();
    void readsDriverFields();
    void readsScheduling();
    void readsPromptCache();
    void agentConfig();
    void agentConfigErrors_data();
    void agentConfigErrors();
    void agentConfigNeedsTokenOnLan();
    void accessConfig();
    void checkConfigAgentFile();
    void warnings();
    void replicatedAliases();
    void errorToString_data();
    void errorToString();
    void fromFlags_data();
    void fromFlags();
    void listen_data();
    void listen();
    void exampleFilePasses();
    void agentExampleFilePasses();
    void checkConfigOk();
    void checkConfigErrors();
    void checkConfigWarnings();
    void checkConfigMissingFile();
    void readsPower();
};

void TestConfig::brokenConfig_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");

    // Rows are written line by line, so the expected line is easy to count.
    QTest::newRow("syntax: missing comma")
        << QByteArray("{\n  \"listen\": \"127.0.0.1:1\"\n  \"hosts\": {}\n}")
        << QString() << 3 << u"JSON syntax error: unterminated object"_s;
    QTest::newRow("syntax: trailing comma")
        << QByteArray("{\n  \"hosts\": {" + Box + "},\n}")
        << QString() << 3 << u"JSON syntax error"_s;
    QTest::newRow("empty file") << QByteArray("  \n") << QString() << 0 << u"the file is empty"_s;
    QTest::newRow("not an object") << QByteArray("[1, 2]") << QString() << 1
                                   << u"expected an object, got an array"_s;

    QTest::newRow("hosts missing") << QByteArray("{\n  \"listen\": \"127.0.0.1:1\"\n}")
                                   << u"hosts"_s << 1 << u"required field missing"_s;
    QTest::newRow("hosts empty") << QByteArray("{\n  \"hosts\": {}\n}") << u"hosts"_s << 2
                                 << u"no hosts configured"_s;
    QTest::newRow("hosts only comments") << QByteArray("{\n  \"hosts\": { \"//\": \"later\" }\n}") << u"hosts"_s << 2
                                         << u"no hosts configured"_s;
    QTest::newRow("hosts array") << QByteArray("{\n  \"hosts\": []\n}") << u"hosts"_s << 2
                                 << u"expected an object, got an array"_s;
    QTest::newRow("unknown top field") << QByteArray("{\n  \"hosts\": {" + Box + "},\n  \"aliasses\": {}\n}")
                                       << u"aliasses"_s << 3 << u"unknown field (did you mean \"aliases\"?)"_s;
    QTest::newRow("host field at top") << QByteArray("{\n  \"hosts\": {" + Box + "},\n  \"engines\": {}\n}")
                                       << u"engines"_s << 3 << u"host fields go inside \"hosts\""_s;
    QTest::newRow("unrelated top field") << QByteArray("{\n  \"hosts\": {" + Box + "},\n  \"colour\": 1\n}")
                                         << u"colour"_s << 3 << u"known fields: listen, lan, hosts, aliases, waiting, limits"_s;

    QTest::newRow("host not object") << QByteArray("{\n  \"hosts\": {\n    \"box\": \"http://box.lan\"\n  }\n}")
                                     << u"hosts.box"_s << 3 << u"expected an object, got a string"_s;
    QTest::newRow("host name with dash")
        << QByteArray("{\n  \"hosts\": {\n    \"gpu-1\": { \"engines\": { \"main\": { \"url\": \"http://a:1\" } } }\n  }\n}")
        << u"hosts.gpu-1"_s << 3 << u"invalid host name \"gpu-1\""_s;
    QTest::newRow("host name empty")
        << QByteArray("{\n  \"hosts\": {\n    \"\": { \"engines\": { \"main\": { \"url\": \"http://a:1\" } } }\n  }\n}")
        << u"hosts.\"\""_s << 3 << u"invalid host name \"\""_s;
    QTest::newRow("duplicate host")
        << QByteArray("{\n  \"hosts\": {\n    " + Box + ",\n    " + Box + "\n  }\n}")
        << u"hosts.box"_s << 4 << u"duplicate key (first on line 3)"_s;
    QTest::newRow("engine field on host")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"url\": \"http://a:1\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.url"_s << 4 << u"engine fields go inside \"engines\""_s;
    QTest::newRow("driver typo")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"driver\": \"statc\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.driver"_s << 4 << u"unknown driver \"statc\" (did you mean \"static\"?)"_s;
    QTest::newRow("driver unknown")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"driver\": \"docker\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.driver"_s << 4 << u"expected static, local, agent or command"_s;
    QTest::newRow("driver not string")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"driver\": true,\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.driver"_s << 4 << u"expected a string, got true"_s;
    QTest::newRow("agent missing")
        << QByteArray("{\n  \"hosts\": {\n    \"3090\": {\n      \"driver\": \"agent\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"llama-server\"] } }\n    }\n  }\n}")
        << u"hosts.3090.agent"_s << 3 << u"required field missing"_s;
    QTest::newRow("agent bad url")
        << QByteArray("{\n  \"hosts\": {\n    \"3090\": {\n      \"driver\": \"agent\",\n      \"agent\": \"gpu-3090.lan:18767\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"llama-server\"] } }\n    }\n  }\n}")
        << u"hosts.3090.agent"_s << 5 << u"expected an http:// URL"_s;
    QTest::newRow("agent on static host")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"agent\": \"http://box.lan:18767\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.agent"_s << 4 << u"only used with driver \"agent\""_s;
    // prompt_cache (issue 19)
    const QByteArray cacheHost = "{\n  \"hosts\": {\n    \"ws\": {\n      \"driver\": \"local\",\n";
    const QByteArray cacheEngines = "      \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"x\"] } }\n    }\n  }\n}";
    QTest::newRow("prompt_cache on static host")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"prompt_cache\": { \"dir\": \"/c\" },\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.box.prompt_cache"_s << 4 << u"not used with driver \"static\""_s;
    QTest::newRow("prompt_cache without dir")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"max_size_mb\": 100 },\n" + cacheEngines)
        << u"hosts.ws.prompt_cache.dir"_s << 5 << u"required field missing"_s;
    QTest::newRow("prompt_cache relative dir")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"dir\": \"cache\" },\n" + cacheEngines)
        << u"hosts.ws.prompt_cache.dir"_s << 5 << u"absolute"_s;
    QTest::newRow("prompt_cache size zero")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"dir\": \"/c\", \"max_size_mb\": 0 },\n" + cacheEngines)
        << u"hosts.ws.prompt_cache.max_size_mb"_s << 5 << u"must be between 1 and"_s;
    QTest::newRow("prompt_cache budget negative")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"dir\": \"/c\", \"save_budget_s\": -1 },\n" + cacheEngines)
        << u"hosts.ws.prompt_cache.save_budget_s"_s << 5 << u"must be greater than 0"_s;
    QTest::newRow("prompt_cache field typo")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"dir\": \"/c\", \"max_size\": 5 },\n" + cacheEngines)
        << u"hosts.ws.prompt_cache.max_size"_s << 5 << u"max_size_mb"_s;
    QTest::newRow("prompt_cache not an object")
        << QByteArray(cacheHost + "      \"prompt_cache\": \"/c\",\n" + cacheEngines)
        << u"hosts.ws.prompt_cache"_s << 5 << u"expected an object"_s;
    QTest::newRow("prompt_cache dir and argv disagree")
        << QByteArray(cacheHost + "      \"prompt_cache\": { \"dir\": \"/c\" },\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\",\n"
                      "        \"argv\": [\"x\", \"--slot-save-path\", \"/elsewhere\"] } }\n    }\n  }\n}")
        << u"hosts.ws.engines.main.argv"_s << 7 << u"--slot-save-path \"/elsewhere\" is not prompt_cache.dir \"/c\""_s;
    // wake, idle stop and sleep (issue 20)
    const QByteArray boxHost = "{\n  \"hosts\": {\n    \"box\": {\n";
    const QByteArray boxEngines = "      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}";
    QTest::newRow("wake mac not a MAC")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22\", \"broadcast\": \"192.168.1.255\" },\n" + boxEngines)
        << u"hosts.box.wake.mac"_s << 4 << u"\"3c:7c:3f:1e:22\" is not a MAC address"_s;
    QTest::newRow("wake mac missing")
        << QByteArray(boxHost + "      \"wake\": { \"broadcast\": \"192.168.1.255\" },\n" + boxEngines)
        << u"hosts.box.wake.mac"_s << 4 << u"required field missing"_s;
    QTest::newRow("wake broadcast not IPv4")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\",\n        \"broadcast\": \"ff02::1\" },\n" + boxEngines)
        << u"hosts.box.wake.broadcast"_s << 5 << u"\"ff02::1\" is not an IPv4 address"_s;
    QTest::newRow("wake broadcast a name")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\", \"broadcast\": \"lan\" },\n" + boxEngines)
        << u"hosts.box.wake.broadcast"_s << 4 << u"is not an IPv4 address"_s;
    QTest::newRow("wake timeout zero")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\", \"timeout_s\": 0 },\n" + boxEngines)
        << u"hosts.box.wake.timeout_s"_s << 4 << u"must be greater than 0"_s;
    QTest::newRow("wake port out of range")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\", \"port\": 70000 },\n" + boxEngines)
        << u"hosts.box.wake.port"_s << 4 << u"must be a whole number from 1 to 65535"_s;
    QTest::newRow("wake field typo")
        << QByteArray(boxHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\", \"timeout\": 5 },\n" + boxEngines)
        << u"hosts.box.wake.timeout"_s << 4 << u"timeout_s"_s;
    QTest::newRow("wake on local host")
        << QByteArray(cacheHost + "      \"wake\": { \"mac\": \"3c:7c:3f:1e:22:0a\" },\n" + cacheEngines)
        << u"hosts.ws.wake"_s << 5 << u"not used with driver \"local\""_s;
    QTest::newRow("idle_stop_after_s on static host")
        << QByteArray(boxHost + "      \"idle_stop_after_s\": 600,\n" + boxEngines)
        << u"hosts.box.idle_stop_after_s"_s << 4 << u"not used with driver \"static\""_s;
    QTest::newRow("idle_stop_after_s negative")
        << QByteArray(cacheHost + "      \"idle_stop_after_s\": -5,\n" + cacheEngines)
        << u"hosts.ws.idle_stop_after_s"_s << 5 << u"must be greater than 0"_s;
    QTest::newRow("engine idle_stop_after_s zero")
        << QByteArray(cacheHost + "      \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"x\"],\n"
                      "        \"idle_stop_after_s\": 0 } }\n    }\n  }\n}")
        << u"hosts.ws.engines.main.idle_stop_after_s"_s << 6 << u"must be greater than 0"_s;
    QTest::newRow("sleep_command empty")
        << QByteArray(cacheHost + "      \"idle_stop_after_s\": 60, \"sleep_command\": [],\n" + cacheEngines)
        << u"hosts.ws.sleep_command"_s << 5 << u"must not be empty"_s;
    QTest::newRow("sleep_command a string")
        << QByteArray(cacheHost + "      \"idle_stop_after_s\": 60, \"sleep_command\": \"systemctl suspend\",\n" + cacheEngines)
        << u"hosts.ws.sleep_command"_s << 5 << u"expected an array"_s;
    QTest::newRow("sleep_command on static host")
        << QByteArray(boxHost + "      \"sleep_command\": [\"true\"],\n" + boxEngines)
        << u"hosts.box.sleep_command"_s << 4 << u"not used with driver \"static\""_s;
    QTest::newRow("token on local host")
        << QByteArray("{\n  \"hosts\": {\n    \"ws\": {\n      \"driver\": \"local\",\n      \"token\": \"t\",\n"
                      "      \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"x\"] } }\n    }\n  }\n}")
        << u"hosts.ws.token"_s << 5 << u"only used with driver \"agent\""_s;
    QTest::newRow("token empty")
        << QByteArray("{\n  \"hosts\": {\n    \"gpu\": {\n      \"driver\": \"agent\",\n      \"agent\": \"http://g:1\",\n"
                      "      \"token\": \" \",\n      \"engines\": { \"main\": { \"url\": \"http://a:1\" } }\n    }\n  }\n}")
        << u"hosts.gpu.token"_s << 6 << u"must not be empty"_s;
    QTest::newRow("engines missing") << QByteArray("{\n  \"hosts\": {\n    \"box\": { \"driver\": \"static\" }\n  }\n}")
                                     << u"hosts.box.engines"_s << 3 << u"required field missing"_s;
    QTest::newRow("engines empty") << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"engines\": {}\n    }\n  }\n}")
                                   << u"hosts.box.engines"_s << 4 << u"no engines configured"_s;
    QTest::newRow("engine name with space")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"engines\": {\n        \"my engine\": { \"url\": \"http://a:1\" }\n"
                      "      }\n    }\n  }\n}")
        << u"hosts.box.engines.my engine"_s << 5 << u"invalid engine name"_s;
    QTest::newRow("engine not object")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"engines\": {\n        \"main\": \"http://a:1\"\n"
                      "      }\n    }\n  }\n}")
        << u"hosts.box.engines.main"_s << 5 << u"expected an object, got a string"_s;

    // The one from the brief: a typo in an engine field.
    const QByteArray forkTypo = "{\n  \"hosts\": {\n    \"3090\": {\n      \"engines\": {\n"
                                "        \"mainline\": { \"url\": \"http://gpu-3090.lan:8080\" },\n"
                                "        \"fork\": {\n          \"ulr\": \"http://gpu-3090.lan:8081\"\n        }\n"
                                "      }\n    }\n  }\n}";
    QTest::newRow("url typo") << forkTypo << u"hosts.3090.engines.fork.ulr"_s << 7
                              << u"unknown field (did you mean \"url\"?)"_s;
    QTest::newRow("url typo also misses url") << forkTypo << u"hosts.3090.engines.fork.url"_s << 6
                                              << u"required field missing"_s;
    QTest::newRow("models typo")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"engines\": {\n"
                      "        \"main\": { \"url\": \"http://a:1\",\n          \"modles\": [] }\n      }\n    }\n  }\n}")
        << u"hosts.box.engines.main.modles"_s << 6 << u"did you mean \"models\"?"_s;
    QTest::newRow("field name case")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"engines\": {\n"
                      "        \"main\": { \"URL\": \"http://a:1\" }\n      }\n    }\n  }\n}")
        << u"hosts.box.engines.main.URL"_s << 5 << u"did you mean \"url\"?"_s;

    auto engineRow = [](const char *name, const QByteArray &engineBody, const QString &path, int line,
                        const QString &message, const QByteArray &driver = "static") {
        const QByteArray json = "{\n  \"hosts\": {\n    \"box\": {\n      \"driver\": \"" + driver + "\",\n"
                                "      \"engines\": {\n        \"main\": {\n" + engineBody + "\n        }\n"
                                "      }\n    }\n  }\n}";
        QTest::newRow(name) << json << path << line << message;
    };
    // The engine body starts on line 7.
    engineRow("url not string", R"(          "url": 8080)", u"hosts.box.engines.main.url"_s, 7,
              u"expected a string, got a number"_s);
    engineRow("url empty", R"(          "url": "")", u"hosts.box.engines.main.url"_s, 7, u"must not be empty"_s);
    engineRow("url without scheme", R"(          "url": "box.lan:8080")", u"hosts.box.engines.main.url"_s, 7,
              u"expected an http:// URL, got \"box.lan:8080\""_s);
    engineRow("url ftp", R"(          "url": "ftp://box.lan")", u"hosts.box.engines.main.url"_s, 7,
              u"expected an http:// URL"_s);
    engineRow("url https", R"(          "url": "https://box.lan:8443")", u"hosts.box.engines.main.url"_s, 7,
              u"https:// is not supported for engines and agents"_s);
    engineRow("url without host", R"(          "url": "http:///models")", u"hosts.box.engines.main.url"_s, 7,
              u"has no host"_s);
    engineRow("url with query", R"(          "url": "http://box.lan:8080/?x=1")", u"hosts.box.engines.main.url"_s, 7,
              u"must not have a query or fragment"_s);
    engineRow("url bad port", R"(          "url": "http://box.lan:99999")", u"hosts.box.engines.main.url"_s, 7,
              u"not a valid URL"_s);
    engineRow("models not array", "          \"url\": \"http://a:1\",\n          \"models\": \"flint\"",
              u"hosts.box.engines.main.models"_s, 8, u"expected an array, got a string"_s);
    engineRow("model not string", "          \"url\": \"http://a:1\",\n          \"models\": [\n            \"a\",\n            7\n          ]",
              u"hosts.box.engines.main.models[1]"_s, 10, u"expected a string, got a number"_s);
    engineRow("model empty", "          \"url\": \"http://a:1\",\n          \"models\": [\"\"]",
              u"hosts.box.engines.main.models[0]"_s, 8, u"must not be empty"_s);
    engineRow("argv on static", "          \"url\": \"http://a:1\",\n          \"argv\": [\"llama-server\"]",
              u"hosts.box.engines.main.argv"_s, 8, u"only used with drivers \"local\" and \"agent\""_s);
    engineRow("start on static", "          \"url\": \"http://a:1\",\n          \"start\": \"systemctl start x\"",
              u"hosts.box.engines.main.start"_s, 8, u"only used with driver \"command\""_s);
    engineRow("argv missing on local", "          \"url\": \"http://a:1\"", u"hosts.box.engines.main.argv"_s, 6,
              u"required field missing"_s, "local");
    engineRow("argv empty on agent", "          \"url\": \"http://a:1\",\n          \"argv\": []", u"hosts.box.engines.main.argv"_s, 8,
              u"must not be empty"_s, "agent");
    engineRow("start timeout zero", "          \"url\": \"http://a:1\",\n          \"argv\": [\"x\"],\n          \"start_timeout_s\": 0",
              u"hosts.box.engines.main.start_timeout_s"_s, 9, u"must be greater than 0"_s, "local");
    engineRow("stop timeout string", "          \"url\": \"http://a:1\",\n          \"argv\": [\"x\"],\n          \"stop_timeout_s\": \"10\"",
              u"hosts.box.engines.main.stop_timeout_s"_s, 9, u"expected a number, got a string"_s, "local");
    engineRow("start timeout on static", "          \"url\": \"http://a:1\",\n          \"start_timeout_s\": 60",
              u"hosts.box.engines.main.start_timeout_s"_s, 8, u"not used with driver \"static\""_s);
    engineRow("timeout typo", "          \"url\": \"http://a:1\",\n          \"argv\": [\"x\"],\n          \"start_timeout\": 60",
              u"hosts.box.engines.main.start_timeout"_s, 9, u"did you mean \"start_timeout_s\"?"_s, "local");
    engineRow("argv empty", "          \"url\": \"http://a:1\",\n          \"argv\": []", u"hosts.box.engines.main.argv"_s, 8,
              u"must not be empty"_s, "local");
    engineRow("argv program empty", "          \"url\": \"http://a:1\",\n          \"argv\": [\" \", \"--port\"]",
              u"hosts.box.engines.main.argv[0]"_s, 8, u"the program must not be empty"_s, "local");
    engineRow("argv item number", "          \"url\": \"http://a:1\",\n          \"argv\": [\"llama-server\", \"--port\", 8090]",
              u"hosts.box.engines.main.argv[2]"_s, 8, u"expected a string, got a number"_s, "local");
    engineRow("argv string", "          \"url\": \"http://a:1\",\n          \"argv\": \"llama-server --port 8090\"",
              u"hosts.box.engines.main.argv"_s, 8, u"expected an array, got a string"_s, "local");
    engineRow("start missing", "          \"url\": \"http://a:1\",\n          \"stop\": \"systemctl stop x\"",
              u"hosts.box.engines.main.start"_s, 6, u"required field missing"_s, "command");
    engineRow("stop empty", "          \"url\": \"http://a:1\",\n          \"start\": \"x\",\n          \"stop\": \"  \"",
              u"hosts.box.engines.main.stop"_s, 9, u"must not be empty"_s, "command");
    engineRow("start on local", "          \"url\": \"http://a:1\",\n          \"argv\": [\"x\"],\n          \"start\": \"x\"",
              u"hosts.box.engines.main.start"_s, 9, u"only used with driver \"command\""_s, "local");

    // "scheduling" (docs/HOSTS.md): the host on line 3, its scheduling from line 4 on.
    auto schedulingRow = [](const char *name, const QByteArray &fields, const QString &path, int line,
                            const QString &message, const char *driver = "local") {
        QTest::newRow(name) << QByteArray("{\n  \"hosts\": {\n    \"box\": { \"driver\": \"" + QByteArray(driver)
                                          + "\", \"engines\": { \"main\": { \"url\": \"http://a:1\", \"argv\": [\"x\"] } },\n"
                                          + "      \"scheduling\": " + fields + " }\n  }\n}")
                            << path << line << message;
    };
    schedulingRow("scheduling not an object", "\"batch\"", u"hosts.box.scheduling"_s, 4,
                  u"expected an object, got a string"_s);
    schedulingRow("scheduling unknown policy", "{ \"policy\": \"fifo\" }", u"hosts.box.scheduling.policy"_s, 4,
                  u"unknown policy \"fifo\" (expected batch or arrival)"_s);
    schedulingRow("scheduling policy typo", "{ \"policy\": \"batc\" }", u"hosts.box.scheduling.policy"_s, 4,
                  u"did you mean \"batch\"?"_s);
    schedulingRow("scheduling dwell negative", "{\n        \"dwell_s\": -1 }", u"hosts.box.scheduling.dwell_s"_s, 5,
                  u"must be 0 or more"_s);
    schedulingRow("scheduling dwell string", "{ \"dwell_s\": \"10\" }", u"hosts.box.scheduling.dwell_s"_s, 4,
                  u"expected a number, got a string"_s);
    schedulingRow("scheduling max wait zero", "{ \"max_wait_s\": 0 }", u"hosts.box.scheduling.max_wait_s"_s, 4,
                  u"must be greater than 0"_s);
    schedulingRow("scheduling field typo", "{ \"max_wait\": 30 }", u"hosts.box.scheduling.max_wait"_s, 4,
                  u"did you mean \"max_wait_s\"?"_s);
    schedulingRow("scheduling on a static host", "{ \"policy\": \"batch\" }", u"hosts.box.scheduling"_s, 4,
                  u"not used with driver \"static\""_s, "static");

    auto topRow = [](const char *name, const QByteArray &member, const QString &path, int line, const QString &message) {
        // hosts on line 2, the member under test from line 3 on
        QTest::newRow(name) << QByteArray("{\n  \"hosts\": {" + Box + "},\n" + member + "\n}") << path << line << message;
    };
    topRow("listen number", R"(  "listen": 18766)", u"listen"_s, 3, u"expected a string, got a number"_s);
    // Access control (docs/SECURITY.md).
    topRow("lan address without lan", R"(  "listen": "0.0.0.0:18766")", u"listen"_s, 3,
           u"is reachable from other machines: add \"lan\": true"_s);
    topRow("all interfaces without lan", R"(  "listen": ":18766")", u"listen"_s, 3, u"add \"lan\": true"_s);
    topRow("lan address with lan false", "  \"lan\": false,\n  \"listen\": \"192.168.1.5:18766\"", u"listen"_s, 4,
           u"add \"lan\": true"_s);
    topRow("lan not a bool", R"(  "lan": "yes")", u"lan"_s, 3, u"expected true or false, got a string"_s);
    QTest::newRow("host api key empty")
        << QByteArray("{\n  \"hosts\": {\n    \"box\": {\n      \"api_key\": \"\",\n      \"engines\": {\"main\": {\"url\": \"http://b:1\"}}\n    }\n  }\n}")
        << u"hosts.box.api_key"_s << 4 << u"must not be empty"_s;
    topRow("api keys empty", "  \"clients\": {\n    \"api_keys\": []\n  }", u"clients.api_keys"_s, 4,
           u"must not be empty"_s);
    topRow("api key not a string", "  \"clients\": {\n    \"api_keys\": [\"k1\",\n                 7]\n  }",
           u"clients.api_keys[1]"_s, 5, u"expected a string, got a number"_s);
    topRow("api key with space", "  \"clients\": {\n    \"api_keys\": [\"two words\"]\n  }", u"clients.api_keys[0]"_s,
           4, u"printable ASCII without spaces"_s);
    topRow("api key empty", "  \"clients\": {\n    \"api_keys\": [\"\"]\n  }", u"clients.api_keys[0]"_s, 4,
           u"must not be empty"_s);
    topRow("clients typo", "  \"clients\": {\n    \"api_key\": [\"k\"]\n  }", u"clients.api_key"_s, 4,
           u"did you mean \"api_keys\"?"_s);
    topRow("api keys file missing", "  \"clients\": {\n    \"api_keys_file\": \"/nonexistent/switchyard/keys\"\n  }",
           u"clients.api_keys_file"_s, 4, u"cannot read \"/nonexistent/switchyard/keys\""_s);
    topRow("api keys file is a device", "  \"clients\": {\n    \"api_keys_file\": \"/dev/zero\"\n  }",
           u"clients.api_keys_file"_s, 4, u"is not a regular file"_s);
    topRow("tls cert is a directory", "  \"tls\": {\n    \"cert\": \"/tmp\",\n    \"key\": \"/dev/zero\"\n  }",
           u"tls.cert"_s, 4, u"is not a regular file"_s);
    topRow("api keys file relative", "  \"clients\": {\n    \"api_keys_file\": \"keys.txt\"\n  }",
           u"clients.api_keys_file"_s, 4, u"must be an absolute path"_s);
    topRow("api keys env unset", "  \"clients\": {\n    \"api_keys_env\": \"SWITCHYARD_TEST_UNSET_VARIABLE\"\n  }",
           u"clients.api_keys_env"_s, 4, u"SWITCHYARD_TEST_UNSET_VARIABLE is not set"_s);
    // Named client keys (docs/CONFIG.md): {"name", one of key, key_file, key_env}.
    topRow("key name empty", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"\", \"key\": \"k1\"}]\n  }",
           u"clients.api_keys[0].name"_s, 4, u"must not be empty"_s);
    topRow("key name missing", "  \"clients\": {\n    \"api_keys\": [{\"key\": \"k1\"}]\n  }",
           u"clients.api_keys[0].name"_s, 4, u"required field missing"_s);
    topRow("key name with space", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"my laptop\", \"key\": \"k1\"}]\n  }",
           u"clients.api_keys[0].name"_s, 4, u"invalid key name \"my laptop\""_s);
    topRow("key names twice", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\", \"key\": \"k1\"},\n"
           "                 {\"name\": \"laptop\", \"key\": \"k2\"}]\n  }",
           u"clients.api_keys[1].name"_s, 5, u"the name \"laptop\" is already used by clients.api_keys[0].name"_s);
    topRow("key name taken by a plain key's", "  \"clients\": {\n    \"api_keys\": [\"k1\",\n"
           "                 {\"name\": \"key1\", \"key\": \"k2\"}]\n  }",
           u"clients.api_keys[1].name"_s, 5, u"the name \"key1\" is already used by clients.api_keys[0]"_s);
    topRow("keys twice", "  \"clients\": {\n    \"api_keys\": [\"k1\",\n                 \"k1\"]\n  }",
           u"clients.api_keys[1]"_s, 5, u"the same key as clients.api_keys[0]"_s);
    topRow("named keys twice", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"a\", \"key\": \"k1\"},\n"
           "                 {\"name\": \"b\",\n                  \"key\": \"k1\"}]\n  }",
           u"clients.api_keys[1].key"_s, 6, u"the same key as clients.api_keys[0].key"_s);
    topRow("named key without key", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\"}]\n  }",
           u"clients.api_keys[0]"_s, 4, u"needs one of key, key_file and key_env"_s);
    topRow("named key twice over", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\", \"key\": \"k1\", \"key_env\": \"HOME\"}]\n  }",
           u"clients.api_keys[0]"_s, 4, u"use one of key, key_file and key_env"_s);
    topRow("named key empty", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\", \"key\": \"\"}]\n  }",
           u"clients.api_keys[0].key"_s, 4, u"must not be empty"_s);
    topRow("named key with space", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\", \"key\": \"a b\"}]\n  }",
           u"clients.api_keys[0].key"_s, 4, u"printable ASCII without spaces"_s);
    topRow("named key typo", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"laptop\", \"kye\": \"k1\"}]\n  }",
           u"clients.api_keys[0].kye"_s, 4, u"did you mean \"key\"?"_s);
    topRow("named key env unset", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"ci\", \"key_env\": \"SWITCHYARD_TEST_UNSET_VARIABLE\"}]\n  }",
           u"clients.api_keys[0].key_env"_s, 4, u"SWITCHYARD_TEST_UNSET_VARIABLE is not set"_s);
    topRow("named key file relative", "  \"clients\": {\n    \"api_keys\": [{\"name\": \"ci\", \"key_file\": \"ci.key\"}]\n  }",
           u"clients.api_keys[0].key_file"_s, 4, u"must be an absolute path"_s);
    topRow("admin token empty", "  \"admin\": {\n    \"token\": \" \"\n  }", u"admin.token"_s, 4,
           u"printable ASCII"_s);
    topRow("admin two sources", "  \"admin\": {\n    \"token\": \"t\",\n    \"token_env\": \"HOME\"\n  }", u"admin"_s,
           3, u"use one of token, token_file and token_env"_s);
    topRow("admin token file missing", "  \"admin\": {\n    \"token_file\": \"/nonexistent/admin-token\"\n  }",
           u"admin.token_file"_s, 4, u"cannot read"_s);
    topRow("metrics two sources", "  \"metrics\": {\n    \"token\": \"t\",\n    \"token_env\": \"HOME\"\n  }", u"metrics"_s,
           3, u"use one of token, token_file and token_env"_s);
    topRow("metrics unknown field", "  \"metrics\": {\n    \"tokn\": \"t\"\n  }", u"metrics.tokn"_s, 4, u"token"_s);
    topRow("tls cert unreadable", "  \"tls\": {\n    \"cert\": \"/nonexistent/cert.pem\",\n    \"key\": \"/nonexistent/key.pem\"\n  }",
           u"tls.cert"_s, 4, u"cannot read \"/nonexistent/cert.pem\""_s);
    topRow("tls key unreadable", "  \"tls\": {\n    \"cert\": \"/nonexistent/cert.pem\",\n    \"key\": \"/nonexistent/key.pem\"\n  }",
           u"tls.key"_s, 5, u"cannot read \"/nonexistent/key.pem\""_s);
    topRow("tls key missing", "  \"tls\": {\n    \"cert\": \"/nonexistent/cert.pem\"\n  }", u"tls.key"_s, 3,
           u"required field missing"_s);
    topRow("tls cert not pem", "  \"tls\": {\n    \"cert\": \"/etc/hostname\",\n    \"key\": \"/etc/hostname\"\n  }",
           u"tls.cert"_s, 4, u"holds no PEM certificate"_s);
    topRow("tls key not pem", "  \"tls\": {\n    \"cert\": \"/etc/hostname\",\n    \"key\": \"/etc/hostname\"\n  }",
           u"tls.key"_s, 5, u"holds no unencrypted PEM private key"_s);
    topRow("state dir relative", R"(  "state_dir": "state")", u"state_dir"_s, 3, u"must be an absolute path"_s);
    topRow("state dir empty", R"(  "state_dir": "")", u"state_dir"_s, 3, u"must not be empty"_s);
    topRow("state dir number", R"(  "state_dir": 1)", u"state_dir"_s, 3, u"expected a string, got a number"_s);
    topRow("listen no port", R"(  "listen": "127.0.0.1")", u"listen"_s, 3, u"expected HOST:PORT"_s);
    topRow("listen port too big", R"(  "listen": "127.0.0.1:65536")", u"listen"_s, 3, u"invalid port \"65536\""_s);
    topRow("listen port text", R"(  "listen": "127.0.0.1:http")", u"listen"_s, 3, u"invalid port \"http\""_s);
    topRow("listen port empty", R"(  "listen": "127.0.0.1:")", u"listen"_s, 3, u"invalid port \"\""_s);
    topRow("listen ipv6 without brackets", R"(  "listen": "::1:18766")", u"listen"_s, 3, u"needs brackets"_s);
    topRow("listen host name", R"(  "listen": "relay.lan:18766")", u"listen"_s, 3, u"\"relay.lan\" is not an IP address"_s);
    topRow("listen ipv4 in brackets", R"(  "listen": "[127.0.0.1]:18766")", u"listen"_s, 3, u"brackets are for IPv6"_s);

    topRow("aliases array", R"(  "aliases": ["claude-*"])", u"aliases"_s, 3, u"expected an object, got an array"_s);
    topRow("alias target number", "  \"aliases\": {\n    \"claude-*\": 1\n  }", u"aliases.claude-*"_s, 4,
           u"expected a string, got a number"_s);
    topRow("alias target no host", "  \"aliases\": {\n    \"claude-*\": \"flint-40b\"\n  }", u"aliases.claude-*"_s, 4,
           u"target \"flint-40b\" is not a model of a configured host"_s);
    topRow("alias target host only", "  \"aliases\": {\n    \"claude-*\": \"box\"\n  }", u"aliases.claude-*"_s, 4,
           u"expected \"<host>-<model>\", e.g. \"box-MODEL\""_s);
    topRow("alias target empty key", "  \"aliases\": {\n    \"claude-*\": \"box-\"\n  }", u"aliases.claude-*"_s, 4,
           u"is not a model of a configured host"_s);
    topRow("alias target pattern", "  \"aliases\": {\n    \"claude-*\": \"box-*\"\n  }", u"aliases.claude-*"_s, 4,
           u"not a pattern"_s);
    topRow("alias pattern with space", "  \"aliases\": {\n    \"claude *\": \"box-flint\"\n  }", u"aliases.claude *"_s, 4,
           u"must not be empty or contain spaces"_s);
    // Replicated aliases: several targets, each checked where it is written.
    topRow("replicas empty", "  \"aliases\": {\n    \"coder\": []\n  }", u"aliases.coder"_s, 4,
           u"must not be empty"_s);
    topRow("replica not a string", "  \"aliases\": {\n    \"coder\": [\"box-flint\",\n              7]\n  }",
           u"aliases.coder[1]"_s, 5, u"expected a string, got a number"_s);
    topRow("replica host unknown", "  \"aliases\": {\n    \"coder\": [\"box-flint\",\n              \"a9-flint\"]\n  }",
           u"aliases.coder[1]"_s, 5, u"target \"a9-flint\" is not a model of a configured host"_s);
    topRow("replica listed twice", "  \"aliases\": {\n    \"coder\": [\"box-flint\",\n              \"box-flint\"]\n  }",
           u"aliases.coder[1]"_s, 5, u"\"box-flint\" is listed twice"_s);
    topRow("replica pattern", "  \"aliases\": {\n    \"coder\": [\"box-*\"]\n  }", u"aliases.coder[0]"_s, 4,
           u"not a pattern"_s);
    topRow("replicas object", "  \"aliases\": {\n    \"coder\": {\"box\": \"flint\"}\n  }", u"aliases.coder"_s, 4,
           u"expected a string, got an object"_s);
    topRow("alias pattern empty", "  \"aliases\": {\n    \"\": \"box-flint\"\n  }", u"aliases.\"\""_s, 4,
           u"must not be empty"_s);

    topRow("waiting zero", "  \"waiting\": {\n    \"early_200_after_s\": 0\n  }", u"waiting.early_200_after_s"_s, 4,
           u"must be greater than 0"_s);
    topRow("waiting negative", "  \"waiting\": {\n    \"comment_every_s\": -5\n  }", u"waiting.comment_every_s"_s, 4,
           u"must be greater than 0"_s);
    topRow("waiting string", "  \"waiting\": {\n    \"comment_every_s\": \"15\"\n  }", u"waiting.comment_every_s"_s, 4,
           u"expected a number, got a string"_s);
    topRow("waiting typo", "  \"waiting\": {\n    \"early_200_after\": 10\n  }", u"waiting.early_200_after"_s, 4,
           u"did you mean \"early_200_after_s\"?"_s);
    topRow("waiting tiny", "  \"waiting\": {\n    \"comment_every_s\": 0.0001\n  }", u"waiting.comment_every_s"_s, 4,
           u"must be at least 0.001"_s);
    topRow("limits body zero", "  \"limits\": {\n    \"max_body_mb\": 0\n  }", u"limits.max_body_mb"_s, 4,
           u"must be greater than 0"_s);
    topRow("limits body huge", "  \"limits\": {\n    \"max_body_mb\": 100000\n  }", u"limits.max_body_mb"_s, 4,
           u"must be at most 1024"_s);
    topRow("limits timeout huge", "  \"limits\": {\n    \"poll_interval_s\": 1e9\n  }", u"limits.poll_interval_s"_s, 4,
           u"must be at most 86400"_s);
    topRow("limits inactivity zero", "  \"limits\": {\n    \"upstream_inactivity_timeout_s\": 0\n  }",
           u"limits.upstream_inactivity_timeout_s"_s, 4, u"must be greater than 0"_s);
    topRow("limits inactivity string", "  \"limits\": {\n    \"upstream_inactivity_timeout_s\": \"60\"\n  }",
           u"limits.upstream_inactivity_timeout_s"_s, 4, u"expected a number, got a string"_s);
    topRow("limits null", "  \"limits\": {\n    \"header_timeout_s\": null\n  }", u"limits.header_timeout_s"_s, 4,
           u"expected a number, got null"_s);
    topRow("limits typo", "  \"limits\": {\n    \"poll_intervall_s\": 5\n  }", u"limits.poll_intervall_s"_s, 4,
           u"did you mean \"poll_interval_s\"?"_s);
    topRow("duplicate nested key", "  \"limits\": {\n    \"poll_interval_s\": 5,\n    \"poll_interval_s\": 6\n  }",
           u"limits.poll_interval_s"_s, 5, u"duplicate key (first on line 4)"_s);
}

void TestConfig::brokenConfig()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, path);
    QFETCH(int, line);
    QFETCH(QString, message);

    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(!result.ok(), "a broken config was accepted");
    QVERIFY(!result.config.has_value());
    const bool found = std::any_of(result.errors.cbegin(), result.errors.cend(), [&](const ConfigError &e) {
        return e.file == File && e.fieldPath == path && e.line == line && e.message.contains(message);
    });
    QVERIFY2(found, qPrintable(u"no error at %1 line %2 containing \"%3\"; got:\n%4"_s
                                   .arg(path).arg(line).arg(message, describe(result.errors))));
}

void TestConfig::reportsEveryError()
{
    const QByteArray json = R"({
  "listen": "127.0.0.1",
  "hosts": {
    "gpu-1": { "engines": { "main": { "url": "ftp://a" } } },
    "box": { "driver": "agent", "engines": { "main": { "ulr": "http://a:1" } } }
  },
  "waiting": { "early_200_after_s": 0 }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QStringList paths;
    for (const ConfigError &e : result.errors)
        paths.append(e.fieldPath);
    const QStringList expected = {u"listen"_s,
                                  u"hosts.gpu-1"_s,
                                  u"hosts.gpu-1.engines.main.url"_s,
                                  u"hosts.box.agent"_s,
                                  u"hosts.box.engines.main.ulr"_s,
                                  u"hosts.box.engines.main.url"_s,
                                  u"waiting.early_200_after_s"_s};
    QCOMPARE(paths, expected);
}

void TestConfig::syntaxErrorColumn()
{
    // Columns count characters, not bytes: "ü" is two bytes in UTF-8. Qt reports the offset
    // just past the token it choked on (the 1 in column 18), so column 19, where bytes would say 20.
    const QByteArray json = "{\n  \"hosts\": { \"ü\" 1 }\n}";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QCOMPARE(result.errors.size(), 1);
    const ConfigError &e = result.errors.first();
    QCOMPARE(e.line, 2);
    QCOMPARE(e.column, 19);
    QVERIFY2(e.toString().startsWith(u"test.json:2:19: JSON syntax error: missing name separator"_s),
             qPrintable(e.toString()));
}

void TestConfig::goodConfig_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("hosts");
    QTest::addColumn<int>("engines");

    QTest::newRow("minimal") << QByteArray(R"({"hosts": {"box": {"engines": {"main": {"url": "http://box.lan:8080"}}}}})")
                             << 1 << 1;
    QTest::newRow("design example") << QByteArray(R"({
  "listen": "0.0.0.0:18766",
  "lan": true,
  "clients": { "api_keys": ["sk-team-key-1", "sk-team-key-2"] },
  "admin": { "token": "admin-token-123" },
  "metrics": { "token": "scraper-token-456" },
  "hosts": {
    "3090": {
      "driver": "agent",
      "agent": "http://gpu-3090.lan:18767",
      "engines": {
        "mainline": { "url": "http://gpu-3090.lan:8080", "argv": ["llama-server", "--port", "8080"] },
        "fork":     { "url": "http://gpu-3090.lan:8081", "models": ["flint-40b", "flint-40b-256k"],
                      "argv": ["llama-server-fork", "--port", "8081"] }
      }
    },
    "ws": {
      "driver": "local",
      "engines": {
        "alpha": { "url": "http://127.0.0.1:8090",
                   "argv": ["/opt/llama/bin/llama-server", "--port", "8090", "--models-dir", "/srv/models/a"] },
        "beta":  { "url": "http://127.0.0.1:8091",
                   "argv": ["/opt/llama/bin/llama-server", "--port", "8091", "--models-preset", "/srv/b.ini"] }
      }
    },
    "box": { "driver": "static", "engines": { "main": { "url": "http://box.lan:8080" } } }
  },
  "aliases": { "claude-*": "3090-flint-40b" },
  "waiting": { "early_200_after_s": 10, "comment_every_s": 15 }
})") << 3 << 5;
    QTest::newRow("agent without argv") << QByteArray(R"({"hosts": {"gpu": {"driver": "agent", "agent": "http://g:18767",
        "token": "t0k", "engines": {"a": {"url": "http://g:8080", "start_timeout_s": 300}, "b": {"url": "http://g:8081"}}}}})")
                                        << 1 << 2;
    QTest::newRow("command driver") << QByteArray(R"({"hosts": {"a9": {"driver": "command", "engines": {
        "mainline": {"url": "http://a9.lan:8443/llama/", "start": "systemctl --user start llama-mainline",
                     "stop": "systemctl --user stop llama-mainline"}}}}})") << 1 << 1;
    QTest::newRow("comments") << QByteArray(R"({"//": "top comment", "//hosts": "more",
        "hosts": {"//": "no host", "box": {"//": "x", "engines": {"//": 1, "main": {"//": [], "url": "http://b:1"}}}},
        "aliases": {"//": "none yet"}})") << 1 << 1;
    QTest::newRow("host name chars") << QByteArray(R"({"hosts": {"Box_2.lan": {"engines": {"main-1.x_y": {"url": "http://b:1"}}}}})")
                                     << 1 << 1;
    QTest::newRow("bom and crlf") << QByteArray("\xEF\xBB\xBF{\r\n\"hosts\": {\"box\": {\"engines\": {\"main\": {\"url\": \"http://b:1\"}}}}\r\n}\r\n")
                                  << 1 << 1;
    QTest::newRow("empty optional sections") << QByteArray(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1", "models": []}}}},
        "aliases": {}, "waiting": {}, "limits": {}})") << 1 << 1;
    QTest::newRow("host api key") << QByteArray(R"({"hosts": {"box": {"api_key": "llama-key", "engines": {"main": {"url": "http://b:1"}}}}})")
                                  << 1 << 1;
    QTest::newRow("lan on loopback, no keys") << QByteArray(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}},
        "listen": "127.0.0.1:18766", "lan": true})") << 1 << 1;
    QTest::newRow("ipv6 loopback without lan") << QByteArray(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}},
        "listen": "[::1]:18766", "clients": {"api_keys": ["k"]}})") << 1 << 1;
    QTest::newRow("alias to learnt model") << QByteArray(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}},
        "aliases": {"claude-*": "box-anything-at-all", "gpt-?": "box-x"}})") << 1 << 1;
}

void TestConfig::goodConfig()
{
    QFETCH(QByteArray, json);
    QFETCH(int, hosts);
    QFETCH(int, engines);

    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(describe(result.warnings)));
    QCOMPARE(result.config->hosts.size(), hosts);
    int engineCount = 0;
    for (const HostConfig &h : result.config->hosts)
        engineCount += int(h.engines.size());
    QCOMPARE(engineCount, engines);
}

void TestConfig::keepsFileOrder()
{
    // QJsonObject would sort these; the first engine is the host's default, so order matters.
    const QByteArray json = R"({"hosts": {
        "zeta": {"engines": {"zz": {"url": "http://z:1"}, "aa": {"url": "http://z:2"}, "mm": {"url": "http://z:3"}}},
        "3090": {"engines": {"main": {"url": "http://a:1"}}},
        "alpha": {"engines": {"main": {"url": "http://a:1"}}}},
      "aliases": {"z*": "zeta-x", "a*": "alpha-y", "*": "3090-z"}})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QStringList hosts;
    for (const HostConfig &h : result.config->hosts)
        hosts.append(h.name);
    QCOMPARE(hosts, (QStringList{u"zeta"_s, u"3090"_s, u"alpha"_s}));
    QStringList engines;
    for (const EngineConfig &e : result.config->hosts.first().engines)
        engines.append(e.name);
    QCOMPARE(engines, (QStringList{u"zz"_s, u"aa"_s, u"mm"_s}));
    QStringList patterns;
    for (const AliasRule &a : result.config->aliases)
        patterns.append(a.pattern);
    QCOMPARE(patterns, (QStringList{u"z*"_s, u"a*"_s, u"*"_s}));
}

void TestConfig::readsValues()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "listen": "[::1]:18800",
  "hosts": {
    "3090": {
      "driver": "agent",
      "agent": "http://gpu-3090.lan:18767/",
      "engines": {
        "fork": { "url": "http://gpu-3090.lan:8081/", "models": ["flint-40b", "fl\u00efnt \"q\""],
                  "argv": ["llama-server", "--port", "8081"] }
      }
    }
  },
  "aliases": { "claude-*": "3090-flint-40b" },
  "waiting": { "early_200_after_s": 2.5, "comment_every_s": 5 },
  "limits": { "max_body_mb": 32, "client_idle_timeout_s": 120, "header_timeout_s": 7,
              "upstream_connect_timeout_s": 3, "poll_interval_s": 0.5,
              "upstream_inactivity_timeout_s": 45 }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const Config &c = *result.config;
    QCOMPARE(c.listenAddress, QHostAddress(QHostAddress::LocalHostIPv6));
    QCOMPARE(c.listenPort, quint16(18800));
    QCOMPARE(c.hosts.size(), 1);
    const HostConfig &h = c.hosts.first();
    QCOMPARE(h.name, u"3090"_s);
    QCOMPARE(h.driver, u"agent"_s);
    QCOMPARE(h.agent, QUrl(u"http://gpu-3090.lan:18767"_s));
    const EngineConfig &e = h.engines.first();
    QCOMPARE(e.name, u"fork"_s);
    QCOMPARE(e.url, QUrl(u"http://gpu-3090.lan:8081"_s));   // trailing slash dropped
    QCOMPARE(e.models, (QStringList{u"flint-40b"_s, u"fl\u00efnt \"q\""_s}));
    QCOMPARE(e.argv, (QStringList{u"llama-server"_s, u"--port"_s, u"8081"_s}));
    QCOMPARE(c.aliases.size(), 1);
    QCOMPARE(c.aliases.first().pattern, u"claude-*"_s);
    QCOMPARE(c.aliases.first().target, u"3090-flint-40b"_s);
    QCOMPARE(c.waiting.early200After, 2500ms);
    QCOMPARE(c.waiting.commentEvery, 5000ms);
    QCOMPARE(c.limits.maxBodyBytes, qint64(32) * 1024 * 1024);
    QCOMPARE(c.limits.clientIdleTimeout, 120000ms);
    QCOMPARE(c.limits.headerTimeout, 7000ms);
    QCOMPARE(c.limits.upstreamConnectTimeout, 3000ms);
    QCOMPARE(c.limits.pollInterval, 500ms);
    QCOMPARE(c.limits.upstreamInactivityTimeout, 45000ms);

    // Defaults when a section is absent.
    const ConfigResult minimal = ConfigLoader::parse(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}}})", File);
    QVERIFY(minimal.ok());
    const Config defaults;
    QCOMPARE(minimal.config->listenAddress, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(minimal.config->listenPort, quint16(18766));
    QCOMPARE(minimal.config->hosts.first().driver, u"static"_s);
    QCOMPARE(minimal.config->waiting.early200After, defaults.waiting.early200After);
    QCOMPARE(minimal.config->limits.maxBodyBytes, defaults.limits.maxBodyBytes);
    QCOMPARE(minimal.config->limits.upstreamInactivityTimeout, 600000ms);
}

void TestConfig::warnings()
{
    // Legal but probably not meant: loaded, with a warning that says where.
    const QByteArray json = R"({
  "hosts": {
    "3090": {
      "engines": {
        "mainline": { "url": "http://a:1", "models": ["flint-40b"] },
        "fork": { "url": "http://a:2", "models": ["other",
                                                  "flint-40b", "other"] }
      }
    }
  },
  "aliases": { "claude-*": "3090-nope" },
  "waiting": { "early_200_after_s": 400 }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QStringList got;
    for (const ConfigError &w : result.warnings)
        got.append(u"%1@%2"_s.arg(w.fieldPath).arg(w.line));
    QCOMPARE(got, (QStringList{u"hosts.3090.engines.fork.models[2]@7"_s, u"hosts.3090.engines.fork.models[1]@7"_s,
                               u"aliases.claude-*@11"_s, u"waiting.early_200_after_s@12"_s}));
    QVERIFY(result.warnings.at(0).message.contains(u"listed twice"_s));
    QVERIFY(result.warnings.at(1).message.contains(u"also listed by engine mainline, which comes first"_s));
    QVERIFY(result.warnings.at(2).message.contains(u"no engine of host 3090 lists model \"nope\""_s));
    QVERIFY(result.warnings.at(3).message.contains(u"300 s"_s));
    // The first engine still lists the model; the second keeps its own copy.
    QCOMPARE(result.config->hosts.first().engines.at(1).models, (QStringList{u"other"_s, u"flint-40b"_s}));
}

void TestConfig::replicatedAliases()
{
    const QByteArray json = R"({
  "hosts": {
    "3090": { "engines": { "main": { "url": "http://a:1" } } },
    "a9": { "engines": { "main": { "url": "http://b:1" } } }
  },
  "aliases": {
    "coder": ["3090-flint-40b", "a9-flint-40b"],
    "mixed": ["3090-flint-40b",
              "a9-qwen-7b"],
    "one": ["a9-flint-40b"],
    "claude-*": "3090-flint-40b"
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const QList<AliasRule> &a = result.config->aliases;
    QCOMPARE(a.size(), 4);
    QCOMPARE(a.at(0).pattern, u"coder"_s);
    QCOMPARE(a.at(0).target, u"3090-flint-40b"_s);
    QCOMPARE(a.at(0).targets, (QStringList{u"3090-flint-40b"_s, u"a9-flint-40b"_s}));
    QVERIFY(a.at(0).isReplicated());
    QVERIFY(!a.at(2).isReplicated());   // one target: a plain alias written as a list
    QCOMPARE(a.at(3).targets, QStringList{u"3090-flint-40b"_s});   // the single-string form
    QVERIFY(!a.at(3).isReplicated());
    // Replicas that serve different models: legal, but said where.
    QCOMPARE(result.warnings.size(), 1);
    QCOMPARE(result.warnings.first().fieldPath, u"aliases.mixed"_s);
    QCOMPARE(result.warnings.first().line, 8);
    QVERIFY2(result.warnings.first().message.contains(u"the replicas serve different models (3090-flint-40b, a9-qwen-7b)"_s),
             qPrintable(result.warnings.first().message));
}

void TestConfig::errorToString_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");

    QTest::newRow("everything") << u"sy.json"_s << 12 << 0 << u"hosts.3090.engines.fork.url"_s
                                << u"sy.json:12: hosts.3090.engines.fork.url: boom"_s;
    QTest::newRow("column") << u"sy.json"_s << 3 << 7 << QString() << u"sy.json:3:7: boom"_s;
    QTest::newRow("no line") << u"sy.json"_s << 0 << 0 << u"hosts"_s << u"sy.json: hosts: boom"_s;
    QTest::newRow("no file") << QString() << 0 << 0 << u"--upstream"_s << u"--upstream: boom"_s;
    QTest::newRow("line without file") << QString() << 4 << 0 << u"listen"_s << u"line 4: listen: boom"_s;
    QTest::newRow("message only") << QString() << 0 << 0 << QString() << u"boom"_s;
}

void TestConfig::errorToString()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const ConfigError e{file, line, path, u"boom"_s, column};
    QCOMPARE(e.toString(), expected);
}

void TestConfig::fromFlags_data()
{
    QTest::addColumn<QString>("listen");
    QTest::addColumn<QStringList>("upstreams");
    QTest::addColumn<QString>("error");   // empty: must succeed

    QTest::newRow("one") << u"127.0.0.1:18766"_s << QStringList{u"box=http://box.lan:8080"_s} << QString();
    QTest::newRow("two, default listen") << QString()
                                         << QStringList{u"box=http://box.lan:8080"_s, u"3090=http://gpu-3090.lan:8081/"_s}
                                         << QString();
    QTest::newRow("none") << QString() << QStringList() << u"--upstream: no upstreams"_s;
    QTest::newRow("no equals") << QString() << QStringList{u"http://box.lan:8080"_s}
                               << u"--upstream: expected NAME=URL, got \"http://box.lan:8080\""_s;
    QTest::newRow("bad name") << QString() << QStringList{u"gpu-1=http://a:1"_s} << u"--upstream: invalid host name \"gpu-1\""_s;
    QTest::newRow("empty name") << QString() << QStringList{u"=http://a:1"_s} << u"--upstream: invalid host name \"\""_s;
    QTest::newRow("bad url") << QString() << QStringList{u"box=box.lan:8080"_s}
                             << u"--upstream: box: expected an http:// URL"_s;
    QTest::newRow("twice") << QString() << QStringList{u"box=http://a:1"_s, u"box=http://a:2"_s}
                           << u"--upstream: host \"box\" is given twice"_s;
    QTest::newRow("bad listen") << u"127.0.0.1"_s << QStringList{u"box=http://a:1"_s} << u"--listen: expected HOST:PORT"_s;
}

void TestConfig::fromFlags()
{
    QFETCH(QString, listen);
    QFETCH(QStringList, upstreams);
    QFETCH(QString, error);

    const ConfigResult result = ConfigLoader::fromFlags(listen, upstreams);
    if (!error.isEmpty()) {
        QVERIFY(!result.ok());
        QVERIFY2(std::any_of(result.errors.cbegin(), result.errors.cend(),
                             [&](const ConfigError &e) { return e.toString().startsWith(error); }),
                 qPrintable(describe(result.errors)));
        return;
    }
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const Config &c = *result.config;
    QCOMPARE(c.listenPort, quint16(18766));
    QCOMPARE(c.listenAddress, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(c.hosts.size(), upstreams.size());
    for (qsizetype i = 0; i < upstreams.size(); ++i) {
        const HostConfig &h = c.hosts.at(i);
        QCOMPARE(h.name, upstreams.at(i).section(u'=', 0, 0));
        QCOMPARE(h.driver, u"static"_s);
        QCOMPARE(h.engines.size(), 1);
        QCOMPARE(h.engines.first().name, u"main"_s);
        QVERIFY(h.engines.first().url.isValid());
        QVERIFY(!h.engines.first().url.path().endsWith(u'/'));
    }
}

void TestConfig::listen_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QHostAddress>("address");
    QTest::addColumn<int>("port");

    QTest::newRow("ipv4") << u"192.0.2.1:80"_s << QHostAddress(u"192.0.2.1"_s) << 80;
    QTest::newRow("all ipv4") << u"0.0.0.0:18766"_s << QHostAddress(QHostAddress::AnyIPv4) << 18766;
    QTest::newRow("ipv6 loopback") << u"[::1]:18766"_s << QHostAddress(QHostAddress::LocalHostIPv6) << 18766;
    QTest::newRow("ipv6 any") << u"[::]:1"_s << QHostAddress(QHostAddress::AnyIPv6) << 1;
    QTest::newRow("port only") << u":18766"_s << QHostAddress(QHostAddress::Any) << 18766;
    QTest::newRow("localhost") << u"localhost:9"_s << QHostAddress(QHostAddress::LocalHost) << 9;
    QTest::newRow("free port") << u"127.0.0.1:0"_s << QHostAddress(QHostAddress::LocalHost) << 0;
    QTest::newRow("max port") << u"127.0.0.1:65535"_s << QHostAddress(QHostAddress::LocalHost) << 65535;
}

void TestConfig::listen()
{
    QFETCH(QString, text);
    QFETCH(QHostAddress, address);
    QFETCH(int, port);
    QHostAddress gotAddress;
    quint16 gotPort = 1;
    QString why;
    QVERIFY2(ConfigLoader::parseListen(text, &gotAddress, &gotPort, &why), qPrintable(why));
    QCOMPARE(gotAddress, address);
    QCOMPARE(int(gotPort), port);
}

void TestConfig::exampleFilePasses()
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
void TestConfig::agentExampleFilePasses()
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

void TestConfig::checkConfigOk()
{
    const QString path = QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/switchyard.example.json");
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(runCheckConfig(path, out, err), 0);
    // The hosts that switch say how they order their requests.
    QCOMPARE(outText, path + u": ok (3 hosts, 5 engines)\n"_s
                          + u"  host 3090: requests batched by engine (dwell %1 s, max wait %2 s)\n"_s
                                .arg(SchedulingConfig().dwell.count() / 1000.0).arg(SchedulingConfig().maxWait.count() / 1000.0)
                          + u"  host ws: requests batched by engine (dwell %1 s, max wait %2 s)\n"_s
                                .arg(SchedulingConfig().dwell.count() / 1000.0).arg(SchedulingConfig().maxWait.count() / 1000.0));
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

void TestConfig::checkConfigErrors()
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

void TestConfig::checkConfigWarnings()
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

void TestConfig::checkConfigMissingFile()
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

void TestConfig::readsPromptCache()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "hosts": {
    "ws": { "driver": "local", "prompt_cache": { "dir": "/var/cache/sy", "max_size_mb": 2048, "save_budget_s": 2.5 },
            "engines": { "a": { "url": "http://127.0.0.1:1", "argv": ["x", "--port", "1"] },
                         "b": { "url": "http://127.0.0.1:2", "argv": ["y", "--slot-save-path", "/var/cache/sy/"] } } },
    "gpu": { "driver": "agent", "agent": "http://g:18767", "prompt_cache": { "dir": "~/slots" },
             "engines": { "main": { "url": "http://g:8080" } } },
    "box": { "engines": { "main": { "url": "http://b:1" } } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const HostConfig *ws = result.config->host(u"ws"_s);
    QCOMPARE(ws->promptCache.dir, u"/var/cache/sy"_s);
    QCOMPARE(ws->promptCache.maxBytes, qint64(2048) * 1024 * 1024);
    QCOMPARE(ws->promptCache.saveBudget, 2500ms);
    // The local driver's engines get the flag added, or keep their own when it names the folder.
    QCOMPARE(ws->engines.at(0).argv, (QStringList{u"x"_s, u"--port"_s, u"1"_s, u"--slot-save-path"_s, u"/var/cache/sy"_s}));
    QCOMPARE(ws->engines.at(1).argv, (QStringList{u"y"_s, u"--slot-save-path"_s, u"/var/cache/sy/"_s}));
    // Defaults; an agent's engines start with the flag themselves, their argv is left alone.
    const HostConfig *gpu = result.config->host(u"gpu"_s);
    QCOMPARE(gpu->promptCache.dir, QDir::homePath() + u"/slots"_s);
    QCOMPARE(gpu->promptCache.maxBytes, qint64(10240) * 1024 * 1024);
    QCOMPARE(gpu->promptCache.saveBudget, 10000ms);
    QVERIFY(gpu->engines.first().argv.isEmpty());
    QVERIFY(!result.config->host(u"box"_s)->promptCache.enabled());
}

void TestConfig::readsPower()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "hosts": {
    "3090": { "driver": "agent", "agent": "http://g:18767", "idle_stop_after_s": 600,
              "sleep_command": ["ssh", "3090", "systemctl", "suspend"],
              "wake": { "mac": "3C-7C-3F-1E-22-0A", "broadcast": "192.168.1.255", "port": 7, "timeout_s": 90 },
              "engines": { "main": { "url": "http://g:8080" },
                           "fork": { "url": "http://g:8081", "idle_stop_after_s": 30 } } },
    "box": { "wake": { "mac": "3c:7c:3f:1e:22:0b" }, "engines": { "main": { "url": "http://b:1" } } },
    "ws": { "driver": "local", "sleep_command": ["true"], "engines": { "main": { "url": "http://127.0.0.1:1", "argv": ["x"] } } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const HostConfig *gpu = result.config->host(u"3090"_s);
    QCOMPARE(gpu->wake.mac, QByteArray::fromHex("3c7c3f1e220a"));
    QCOMPARE(gpu->wake.broadcast, QHostAddress(u"192.168.1.255"_s));
    QCOMPARE(gpu->wake.port, quint16(7));
    QCOMPARE(gpu->wake.timeout, 90000ms);
    QCOMPARE(gpu->idleStopAfter, std::optional<std::chrono::milliseconds>(600000ms));
    QCOMPARE(gpu->sleepCommand, (QStringList{u"ssh"_s, u"3090"_s, u"systemctl"_s, u"suspend"_s}));
    QVERIFY(!gpu->engines.at(0).idleStopAfter);
    QCOMPARE(gpu->engines.at(1).idleStopAfter, std::optional<std::chrono::milliseconds>(30000ms));
    // Defaults: the broadcast to all, port 9, two minutes.
    const HostConfig *box = result.config->host(u"box"_s);
    QVERIFY(box->wake.enabled());
    QCOMPARE(box->wake.broadcast, QHostAddress(QHostAddress::Broadcast));
    QCOMPARE(box->wake.port, quint16(9));
    QCOMPARE(box->wake.timeout, 120000ms);
    QVERIFY(!box->idleStopAfter);
    // A sleep command with no idle stop to follow never runs: a warning, with where.
    bool warned = false;
    for (const ConfigError &w : result.warnings)
        warned = warned || (w.fieldPath == "hosts.ws.sleep_command"_L1 && w.line == 9 && w.message.contains("never run"_L1));
    QVERIFY2(warned, qPrintable(describe(result.warnings)));
}

void TestConfig::readsDriverFields()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "state_dir": "/var/lib/switchyard",
  "hosts": {
    "gpu": { "driver": "agent", "agent": "http://g:18767", "token": "s3cret",
             "engines": { "main": { "url": "http://g:8080", "start_timeout_s": 300, "stop_timeout_s": 2.5 } } },
    "ws": { "driver": "local", "engines": { "a": { "url": "http://127.0.0.1:1", "argv": ["x"] } } },
    "a9": { "driver": "command", "engines": { "a": { "url": "http://a9:1", "start": "s", "stop": "t", "stop_timeout_s": 30 } } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const Config &c = *result.config;
    QCOMPARE(c.stateDir, u"/var/lib/switchyard"_s);
    const HostConfig *gpu = c.host(u"gpu"_s);
    QCOMPARE(gpu->token, u"s3cret"_s);
    QVERIFY(gpu->engines.first().argv.isEmpty());
    QCOMPARE(gpu->engines.first().startTimeout, 300000ms);
    QCOMPARE(gpu->engines.first().stopTimeout, 2500ms);
    // Defaults.
    QCOMPARE(c.host(u"ws"_s)->engines.first().startTimeout, 120000ms);
    QCOMPARE(c.host(u"ws"_s)->engines.first().stopTimeout, 10000ms);
    QCOMPARE(c.host(u"ws"_s)->token, QString());
    QCOMPARE(c.host(u"a9"_s)->engines.first().stopTimeout, 30000ms);

    // "~/" is the home folder; without the field the driver picks its default.
    const ConfigResult home = ConfigLoader::parse(R"({"state_dir": "~/sy", "hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}}})", File);
    QVERIFY2(home.ok(), qPrintable(describe(home.errors)));
    QCOMPARE(home.config->stateDir, QDir::homePath() + u"/sy"_s);
    const ConfigResult none = ConfigLoader::parse(R"({"hosts": {"box": {"engines": {"main": {"url": "http://b:1"}}}}})", File);
    QCOMPARE(none.config->stateDir, QString());
}

void TestConfig::readsScheduling()
{
    using namespace std::chrono_literals;
    const QByteArray json = R"({
  "hosts": {
    "ws": { "driver": "local", "engines": { "a": { "url": "http://127.0.0.1:1", "argv": ["x"] } } },
    "gpu": { "driver": "local", "engines": { "a": { "url": "http://127.0.0.1:2", "argv": ["x"] } },
             "scheduling": { "policy": "batch", "dwell_s": 0, "max_wait_s": 90.5 } },
    "old": { "driver": "local", "engines": { "a": { "url": "http://127.0.0.1:3", "argv": ["x"] } },
             "scheduling": { "policy": "arrival",
                             "max_wait_s": 30 } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    const Config &c = *result.config;
    const SchedulingConfig defaults;
    QCOMPARE(c.host(u"ws"_s)->scheduling.policy, SchedulingConfig::Policy::Batch);
    QCOMPARE(c.host(u"ws"_s)->scheduling.dwell, defaults.dwell);
    QCOMPARE(c.host(u"ws"_s)->scheduling.maxWait, defaults.maxWait);
    QCOMPARE(c.host(u"gpu"_s)->scheduling.dwell, 0ms);
    QCOMPARE(c.host(u"gpu"_s)->scheduling.maxWait, 90500ms);
    QCOMPARE(c.host(u"old"_s)->scheduling.policy, SchedulingConfig::Policy::Arrival);
    // A bound the arrival policy never uses is legal, but said.
    QCOMPARE(result.warnings.size(), 1);
    QCOMPARE(result.warnings.first().fieldPath, u"hosts.old.scheduling.max_wait_s"_s);
    QCOMPARE(result.warnings.first().line, 8);
    QVERIFY(result.warnings.first().message.contains(u"not used with policy \"arrival\""_s));
}

void TestConfig::agentConfig()
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
    QCOMPARE(c.engines.at(1).argv, (QStringList{u"llama-fork"_s, u"--port"_s, u"8081"_s}));
    QCOMPARE(c.engines.at(1).startTimeout, 90000ms);
    QCOMPARE(c.engines.at(1).stopTimeout, 3000ms);
    QVERIFY(c.engine(u"fork"_s));
    QVERIFY(!c.engine(u"nope"_s));

    // Defaults: the agent's own port; a relay's file is not an agent's.
    const AgentConfigResult minimal = ConfigLoader::parseAgent(
        R"({"listen": "127.0.0.1:18767", "engines": {"a": {"url": "http://127.0.0.1:1", "argv": ["x"]}}})", File);
    QVERIFY2(minimal.ok(), qPrintable(describe(minimal.errors)));
    QCOMPARE(minimal.config->token, QString());
    QVERIFY(minimal.warnings.isEmpty());   // loopback without a token is fine
    const QByteArray relay = R"({"hosts": {}, "engines": {}})";
    QVERIFY(!ConfigLoader::looksLikeAgentConfig(relay));
}

void TestConfig::agentConfigErrors_data()
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
}

void TestConfig::agentConfigErrors()
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

void TestConfig::agentConfigNeedsTokenOnLan()
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

void TestConfig::accessConfig()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString keysFile = dir.filePath(u"keys"_s);
    QFile keys(keysFile);
    QVERIFY(keys.open(QIODevice::WriteOnly));
    keys.write("# one key per line\n  key-from-file-1  \n\nkey-from-file-2\r\n");
    keys.close();
    const QString laptopKeyFile = dir.filePath(u"laptop-key"_s);
    QFile laptopKey(laptopKeyFile);
    QVERIFY(laptopKey.open(QIODevice::WriteOnly));
    laptopKey.write("sk-laptop-from-file\n");
    laptopKey.close();
    qputenv("SWITCHYARD_TEST_CI_KEY", "sk-ci-from-env");
    const QString tokenFile = dir.filePath(u"admin-token"_s);
    QFile token(tokenFile);
    QVERIFY(token.open(QIODevice::WriteOnly));
    token.write("admin-from-file\n");
    token.close();
    qputenv("SWITCHYARD_TEST_KEYS", "env-key-1, env-key-2\tenv-key-3");

    const QByteArray json = R"({
  "listen": "0.0.0.0:18766",
  "lan": true,
  "hosts": {)" + Box + R"(},
  "clients": { "api_keys": ["sk-inline", {"name": "desk", "key": "sk-desk"},
                            {"name": "laptop", "key_file": ")" + laptopKeyFile.toUtf8() + R"("},
                            {"name": "ci.runner-2", "key_env": "SWITCHYARD_TEST_CI_KEY"}],
               "api_keys_file": ")" + keysFile.toUtf8() + R"(",
               "api_keys_env": "SWITCHYARD_TEST_KEYS" },
  "admin": { "token_file": ")" + tokenFile.toUtf8() + R"(" },
  "metrics": { "token_env": "SWITCHYARD_TEST_METRICS_TOKEN" }
})";
    qputenv("SWITCHYARD_TEST_METRICS_TOKEN", "scraper-from-env");
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(describe(result.warnings)));
    const AccessConfig &a = result.config->access;
    QVERIFY(a.lan);
    QStringList names;
    QStringList values;
    for (const ClientApiKey &k : a.clientKeys) {
        names.append(k.name);
        values.append(k.key);
    }
    // A plain key is named by its place: keyN in api_keys, fileN and envN among those found there.
    QCOMPARE(names, (QStringList{u"key1"_s, u"desk"_s, u"laptop"_s, u"ci.runner-2"_s, u"file1"_s, u"file2"_s,
                                 u"env1"_s, u"env2"_s, u"env3"_s}));
    QCOMPARE(values, (QStringList{u"sk-inline"_s, u"sk-desk"_s, u"sk-laptop-from-file"_s, u"sk-ci-from-env"_s,
                                  u"key-from-file-1"_s, u"key-from-file-2"_s, u"env-key-1"_s, u"env-key-2"_s,
                                  u"env-key-3"_s}));
    QVERIFY(result.config->secrets().contains(u"sk-laptop-from-file"_s));
    QVERIFY(result.config->secrets().contains(u"sk-ci-from-env"_s));
    QCOMPARE(a.adminToken, u"admin-from-file"_s);
    QCOMPARE(a.metricsToken, u"scraper-from-env"_s);
    QVERIFY(!a.tls());
    QVERIFY(result.config->secrets().contains(u"admin-from-file"_s));
    QVERIFY(result.config->secrets().contains(u"scraper-from-env"_s));
    QVERIFY(result.config->secrets().contains(u"env-key-2"_s));

    // No secret is ever quoted in an error message.
    keys.open(QIODevice::WriteOnly);
    keys.write("good-key\nbad key with spaces\n");
    keys.close();
    const ConfigResult bad = ConfigLoader::parse(R"({"hosts": {)" + Box + R"(},
  "clients": {"api_keys_file": ")" + keysFile.toUtf8() + R"("}})", File);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.errors.size(), 1);
    QCOMPARE(bad.errors.first().fieldPath, u"clients.api_keys_file"_s);
    QVERIFY2(bad.errors.first().message.contains(u"line 2 of the file"_s), qPrintable(describe(bad.errors)));
    QVERIFY(!bad.errors.first().message.contains(u"bad key"_s));

    // The same key in the list and in the file: which name would it get? An error, at the file's
    // line, that never quotes the key.
    keys.open(QIODevice::WriteOnly);
    keys.write("# keys\nsk-twice\n");
    keys.close();
    const ConfigResult twice = ConfigLoader::parse(R"({"hosts": {)" + Box + R"(},
  "clients": {"api_keys": ["sk-twice"], "api_keys_file": ")" + keysFile.toUtf8() + R"("}})", File);
    QVERIFY(!twice.ok());
    QCOMPARE(twice.errors.size(), 1);
    QCOMPARE(twice.errors.first().fieldPath, u"clients.api_keys_file"_s);
    QVERIFY2(twice.errors.first().message.contains(u"line 2 of the file: the same key as clients.api_keys[0]"_s),
             qPrintable(describe(twice.errors)));
    QVERIFY(!twice.errors.first().message.contains(u"sk-twice"_s));

    // Open to the LAN without client keys: legal, with a warning on "lan".
    const ConfigResult open = ConfigLoader::parse("{\n  \"hosts\": {" + Box + "},\n  \"listen\": \"0.0.0.0:1\",\n  \"lan\": true\n}", File);
    QVERIFY2(open.ok(), qPrintable(describe(open.errors)));
    QCOMPARE(open.warnings.size(), 1);
    QCOMPARE(open.warnings.first().fieldPath, u"lan"_s);
    QCOMPARE(open.warnings.first().line, 4);
    QVERIFY(open.warnings.first().message.contains(u"anyone on the LAN"_s));

    // --listen on the command line is explicit enough.
    const ConfigResult flags = ConfigLoader::fromFlags(u"0.0.0.0:18766"_s, {u"box=http://b:1"_s});
    QVERIFY2(flags.ok(), qPrintable(describe(flags.errors)));
    QVERIFY(flags.config->access.lan);
}

void TestConfig::checkConfigAgentFile()
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

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
