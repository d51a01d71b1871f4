// What the config reader makes of a valid file: values and their order, client access, replicated
// aliases, the command line's flags and listen addresses. A host's own fields: tst_confighostvalues.
#include "config/checkconfig.h"
#include "config/config.h"
#include "config/configloader.h"
#include "config/hostconfigreader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include "configtesthelpers.h"

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace configtest;

class TestConfigValues : public QObject
{
    Q_OBJECT

private slots:
    void goodConfig_data();
    void goodConfig();
    void keepsFileOrder();
    void readsValues();
    void accessConfig();
    void replicatedAliases();
    void fromFlags_data();
    void fromFlags();
    void listen_data();
    void listen();
};

void TestConfigValues::goodConfig_data()
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
    QTest::newRow("command driver") << QByteArray(R"({"hosts": {"a9": {"driver": "command", "prompt_cache": false, "engines": {
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

void TestConfigValues::goodConfig()
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

void TestConfigValues::keepsFileOrder()
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

void TestConfigValues::readsValues()
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

void TestConfigValues::accessConfig()
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

void TestConfigValues::replicatedAliases()
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

void TestConfigValues::fromFlags_data()
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

void TestConfigValues::fromFlags()
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

void TestConfigValues::listen_data()
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

void TestConfigValues::listen()
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

QTEST_GUILESS_MAIN(TestConfigValues)
#include "tst_configvalues.moc"
