// A host's sleep_command (`ssh box systemctl suspend`) runs to its end whatever happens to the
// relay meanwhile: its host object destroyed (a config reload replaces it), or the relay process
// ending on Ctrl-C at its terminal (SIGINT to the whole process group). While the host is still
// there, its exit code (or why it could not start) is its journal line.
#include "hosts/hostpower.h"
#include "laterport.h"
#include "rawhttpclient.h"
#include "store/historyevent.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

QString binary(const QString &name)
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u'/' + name;
}

// Writes `started`, waits until the test creates `go` (for a minute at most), then writes
// `done`: a sleep command the test interrupts at will, which says whether it was.
QStringList slowCommand(const QString &started, const QString &go, const QString &done)
{
    return {u"/bin/sh"_s, u"-c"_s,
            u"echo started > \"$0\"; i=0; while [ ! -e \"$1\" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; "
            u"echo done > \"$2\""_s,
            started, go, done};
}

bool touch(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly);
}

std::unique_ptr<HostPower> powerFor(const QStringList &sleepCommand)
{
    HostConfig host;
    host.name = u"box"_s;
    host.driver = u"local"_s;
    host.sleepCommand = sleepCommand;
    return std::make_unique<HostPower>(host, nullptr, nullptr);   // sleep() needs no driver or pool
}

HistoryEvent eventIn(const QSignalSpy &spy, int at)
{
    return spy.at(at).at(0).value<HistoryEvent>();
}

} // namespace

class TestSleepCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void exitCodeIsJournaled();
    void missingProgramIsJournaled();
    void outlivesItsHost();
    void outlivesTheRelayProcess();

private:
    QTemporaryDir m_dir;
};

void TestSleepCommand::exitCodeIsJournaled()
{
    auto power = powerFor({u"/bin/sh"_s, u"-c"_s, u"exit 3"_s});
    QSignalSpy events(power.get(), &HostPower::historyEvent);
    power->sleep();
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 10000);
    QCOMPARE(eventIn(events, 0).kind, HistoryEvent::Kind::SleepCommand);
    QCOMPARE(eventIn(events, 0).host, u"box"_s);
    QCOMPARE(eventIn(events, 0).detail, u"/bin/sh -c exit 3: exit code 3"_s);
}

void TestSleepCommand::missingProgramIsJournaled()
{
    const QString missing = m_dir.filePath(u"no-such-program"_s);
    auto power = powerFor({missing});
    QSignalSpy events(power.get(), &HostPower::historyEvent);
    power->sleep();
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 10000);
    QVERIFY2(eventIn(events, 0).detail.startsWith(missing + u": could not start: "_s),
             qPrintable(eventIn(events, 0).detail));
}

void TestSleepCommand::outlivesItsHost()
{
    const QString started = m_dir.filePath(u"host-started"_s);
    const QString go = m_dir.filePath(u"host-go"_s);
    const QString done = m_dir.filePath(u"host-done"_s);
    auto power = powerFor(slowCommand(started, go, done));
    QSignalSpy events(power.get(), &HostPower::historyEvent);
    power->sleep();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(started), 10000);
    QVERIFY(!QFile::exists(done));
    power.reset();   // as a config reload replaces the host, with the command half-way
    QVERIFY(touch(go));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(done), 15000);
    QCOMPARE(events.size(), 0);   // no one was left to hear its end; nothing crashed either
}

// The real `switchyard --headless`: a local host whose engine goes idle after a request, so its
// sleep command runs; then Ctrl-C at the relay's terminal (SIGINT to its process group). The
// relay exits; the command finishes.
void TestSleepCommand::outlivesTheRelayProcess()
{
    const quint16 enginePort = portForLater();
    const quint16 relayPort = portForLater();
    const QString started = m_dir.filePath(u"relay-started"_s);
    const QString go = m_dir.filePath(u"relay-go"_s);
    const QString done = m_dir.filePath(u"relay-done"_s);
    QJsonArray sleepCommand;
    for (const QString &arg : slowCommand(started, go, done))
        sleepCommand.append(arg);
    const QJsonArray argv{binary(u"switchyard-fakellama"_s), u"--port"_s, QString::number(enginePort),
                          u"--models"_s, u"alpha"_s, u"--loaded"_s, u"alpha"_s};
    const QJsonObject root{
        {"listen"_L1, u"127.0.0.1:%1"_s.arg(relayPort)},
        {"state_dir"_L1, m_dir.filePath(u"state"_s)},
        {"hosts"_L1, QJsonObject{{"h1"_L1, QJsonObject{
            {"driver"_L1, "local"_L1},
            {"idle_stop_after_s"_L1, 1},
            {"sleep_command"_L1, sleepCommand},
            {"engines"_L1, QJsonObject{{"e1"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                             {"models"_L1, QJsonArray{u"alpha"_s}},
                                                             {"argv"_L1, argv},
                                                             {"start_timeout_s"_L1, 20}}}}}}}}}};
    const QString configPath = m_dir.filePath(u"relay.json"_s);
    {
        QFile file(configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
    }

    QProcess relay;
    QByteArray output;
    relay.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"config"_s));
    relay.setProcessEnvironment(env);
    relay.setChildProcessModifier([] { ::setpgid(0, 0); });   // a process group, as a shell gives a job
    connect(&relay, &QProcess::readyRead, &relay, [&] { output += relay.readAll(); });
    const auto killRelay = qScopeGuard([&relay] {
        if (relay.state() != QProcess::NotRunning) {
            relay.kill();
            relay.waitForFinished(5000);
        }
    });
    relay.start(binary(u"switchyard"_s), {u"--headless"_s, u"--config"_s, configPath});
    QVERIFY2(relay.waitForStarted(5000), qPrintable(relay.errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(output.contains("listening on") || relay.state() != QProcess::Running, output.constData(), 15000);
    QVERIFY2(relay.state() == QProcess::Running, output.constData());

    RawHttpClient client(relayPort);
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post(
        "/v1/chat/completions", R"({"model":"h1-alpha","messages":[{"role":"user","content":"hi"}],"max_tokens":2})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 30000);
    QCOMPARE(client.responses().last().status, 200);
    // A second later the engine is stopped for idleness and the sleep command starts.
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(started), output.constData(), 15000);
    QVERIFY(!QFile::exists(done));

    QCOMPARE(::kill(-pid_t(relay.processId()), SIGINT), 0);
    QTRY_COMPARE_WITH_TIMEOUT(relay.state(), QProcess::NotRunning, 20000);
    QVERIFY(touch(go));
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(done), output.constData(), 15000);
}

QTEST_GUILESS_MAIN(TestSleepCommand)
#include "tst_sleepcommand.moc"
