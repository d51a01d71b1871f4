// The config reader's errors: broken files with the path, line and message of each problem, every
// error at once, syntax columns, how an error reads, and the warnings.
#include "config/checkconfig.h"
#include "config/config.h"
#include "config/configloader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include "configtesthelpers.h"

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace configtest;

class TestConfigErrors : public QObject
{
    Q_OBJECT

private slots:
    void brokenConfig_data();
    void brokenConfig();
    void reportsEveryError();
    void syntaxErrorColumn();
    void warnings();
    void errorToString_data();
    void errorToString();
};

void TestConfigErrors::brokenConfig_data()
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

void TestConfigErrors::brokenConfig()
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

void TestConfigErrors::reportsEveryError()
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

void TestConfigErrors::syntaxErrorColumn()
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

void TestConfigErrors::warnings()
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

void TestConfigErrors::errorToString_data()
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

void TestConfigErrors::errorToString()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const ConfigError e{file, line, path, u"boom"_s, column};
    QCOMPARE(e.toString(), expected);
}

QTEST_GUILESS_MAIN(TestConfigErrors)

#include "tst_configerrors.moc"
