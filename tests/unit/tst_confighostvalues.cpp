// What the config reader makes of a valid host: its driver's fields, scheduling, prompt caches
// (on by default for local hosts) and power (idle stop, sleep, wake).
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

class TestConfigHostValues : public QObject
{
    Q_OBJECT

private slots:
    void readsDriverFields();
    void readsScheduling();
    void readsPromptCache();
    void promptCacheOnByDefaultForLocalHosts();
    void promptCacheOfCommandHostsIsNamed();
    void readsPower();
};

void TestConfigHostValues::readsDriverFields()
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

void TestConfigHostValues::readsScheduling()
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

void TestConfigHostValues::readsPromptCache()
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

// Issue 31: a local host keeps prompt caches without a setting; false turns them off.
void TestConfigHostValues::promptCacheOnByDefaultForLocalHosts()
{
    const QByteArray json = R"({
  "hosts": {
    "ws": { "driver": "local",
            "engines": { "a": { "url": "http://127.0.0.1:1", "argv": ["x", "--port", "1"] },
                         "b": { "url": "http://127.0.0.1:2", "argv": ["y"] } } },
    "named": { "driver": "local",
               "engines": { "a": { "url": "http://127.0.0.1:3", "argv": ["x"] },
                            "b": { "url": "http://127.0.0.1:4", "argv": ["y", "--slot-save-path", "/srv/slots/"] } } },
    "split": { "driver": "local",
               "engines": { "a": { "url": "http://127.0.0.1:5", "argv": ["x", "--slot-save-path", "/one"] },
                            "b": { "url": "http://127.0.0.1:6", "argv": ["y", "--slot-save-path", "/two"] } } },
    "off": { "driver": "local", "prompt_cache": false,
             "engines": { "a": { "url": "http://127.0.0.1:7", "argv": ["x"] } } },
    "gpu": { "driver": "agent", "agent": "http://g:18767", "engines": { "main": { "url": "http://g:8080" } } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    // No setting: a folder of the relay's own, added to every engine.
    const HostConfig *ws = result.config->host(u"ws"_s);
    const QString folder = HostConfigReader::defaultSlotFolder(u"ws"_s);
    QVERIFY2(folder.endsWith(u"/switchyard/slots/ws"_s) && QDir::isAbsolutePath(folder), qPrintable(folder));
    QCOMPARE(ws->promptCache.dir, folder);
    QCOMPARE(ws->engines.at(0).argv, (QStringList{u"x"_s, u"--port"_s, u"1"_s, u"--slot-save-path"_s, folder}));
    QCOMPARE(ws->engines.at(1).argv, (QStringList{u"y"_s, u"--slot-save-path"_s, folder}));
    // An engine that names a folder already: all of them save there.
    const HostConfig *named = result.config->host(u"named"_s);
    QCOMPARE(named->promptCache.dir, u"/srv/slots"_s);
    QCOMPARE(named->engines.at(0).argv, (QStringList{u"x"_s, u"--slot-save-path"_s, u"/srv/slots"_s}));
    QCOMPARE(named->engines.at(1).argv, (QStringList{u"y"_s, u"--slot-save-path"_s, u"/srv/slots/"_s}));
    // Two folders: off, with a warning that names both and the way out; argv untouched.
    const HostConfig *split = result.config->host(u"split"_s);
    QVERIFY(!split->promptCache.enabled());
    QCOMPARE(split->engines.at(1).argv, (QStringList{u"y"_s, u"--slot-save-path"_s, u"/two"_s}));
    QCOMPARE(result.warnings.size(), 1);
    QCOMPARE(result.warnings.first().fieldPath, u"hosts.split.prompt_cache"_s);
    QVERIFY2(result.warnings.first().message.contains(u"different folders (/one, /two)"_s)
                 && result.warnings.first().message.contains(u"prompt_cache.dir"_s),
             qPrintable(result.warnings.first().message));
    // false: off, nothing added.
    const HostConfig *off = result.config->host(u"off"_s);
    QVERIFY(!off->promptCache.enabled());
    QCOMPARE(off->engines.at(0).argv, QStringList{u"x"_s});
    // Engines the relay does not start: off unless configured.
    QVERIFY(!result.config->host(u"gpu"_s)->promptCache.enabled());
}

// A command host's engines start through the user's commands: prompt caches stay off, and the
// config says how to turn them on, unless it says it does not want them.
void TestConfigHostValues::promptCacheOfCommandHostsIsNamed()
{
    const QByteArray json = R"({
  "hosts": {
    "cmd": { "driver": "command",
             "engines": { "a": { "url": "http://127.0.0.1:7", "start": "ssh box llama-server", "stop": "ssh box pkill llama" } } },
    "quiet": { "driver": "command", "prompt_cache": false,
               "engines": { "a": { "url": "http://127.0.0.1:8", "start": "ssh box llama-server", "stop": "ssh box pkill llama" } } }
  }
})";
    const ConfigResult result = ConfigLoader::parse(json, File);
    QVERIFY2(result.ok(), qPrintable(describe(result.errors)));
    QVERIFY(!result.config->host(u"cmd"_s)->promptCache.enabled());
    QVERIFY(!result.config->host(u"quiet"_s)->promptCache.enabled());
    QCOMPARE(result.warnings.size(), 1);
    QCOMPARE(result.warnings.first().fieldPath, u"hosts.cmd.prompt_cache"_s);
    QCOMPARE(result.warnings.first().line, 3);
    QVERIFY2(result.warnings.first().message.contains(u"add --slot-save-path DIR to each start command"_s)
                 && result.warnings.first().message.contains(u"prompt_cache.dir"_s),
             qPrintable(result.warnings.first().message));
}

void TestConfigHostValues::readsPower()
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

QTEST_GUILESS_MAIN(TestConfigHostValues)
#include "tst_confighostvalues.moc"
