// Engine drivers and the supervisor, against real processes: switchyard-fakellama as the engine,
// /bin/sh for engines that fail or will not stop, and the real `switchyard agent`.

#include "config/config.h"
#include "engines/agentdriver.h"
#include "engines/agentrequest.h"
#include "engines/agentservice.h"
#include "engines/childprocess.h"
#include "engines/commanddriver.h"
#include "engines/driverfactory.h"
#include "engines/enginestatefile.h"
#include "engines/enginesupervisor.h"
#include "engines/localdriver.h"
#include "engines/processinfo.h"
#include "engines/staticdriver.h"
#include "upstream/upstreampool.h"
#include "laterport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int Timeout = 20000;   // ms; a fakellama is up in well under a second
constexpr char HelperEnv[] = "SWITCHYARD_ENGINES_HELPER";   // JSON: {"state_dir", "engine": {...}}

QString binDir()
{
    // ctest says where the binaries are; run by hand, they sit next to this test.
    const QString dir = qEnvironmentVariable("SWITCHYARD_BIN_DIR");
    return dir.isEmpty() ? QCoreApplication::applicationDirPath() : dir;
}

QString fakeLlama()
{
    return binDir() + u"/switchyard-fakellama"_s;
}

QUrl localUrl(quint16 port)
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(port));
}

EngineConfig fakeEngine(const QString &name, quint16 port, const QString &models = u"a"_s)
{
    EngineConfig e;
    e.name = name;
    e.url = localUrl(port);
    e.argv = {fakeLlama(), u"--port"_s, QString::number(port), u"--models"_s, models};
    e.startTimeout = 15s;
    e.stopTimeout = 5s;
    return e;
}

EngineConfig shellEngine(const QString &name, const QString &script, std::chrono::milliseconds startTimeout = 10s,
                         std::chrono::milliseconds stopTimeout = 5s)
{
    EngineConfig e;
    e.name = name;
    e.url = localUrl(portForLater());   // nothing ever answers there
    e.argv = {u"/bin/sh"_s, u"-c"_s, script};
    e.startTimeout = startTimeout;
    e.stopTimeout = stopTimeout;
    return e;
}

HostConfig host(const QString &name, const QString &driver, const QList<EngineConfig> &engines)
{
    HostConfig h;
    h.name = name;
    h.driver = driver;
    h.engines = engines;
    return h;
}

bool alive(qint64 pid)
{
    return pid > 0 && ProcessInfo::isAlive(pid);
}

// SigIgn from /proc/PID/status: the shell has run its `trap '' TERM`.
bool ignoresSigterm(qint64 pid)
{
    QFile file(u"/proc/%1/status"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("SigIgn:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGTERM - 1)) & 1;
    }
    return false;
}

// A failure reads as its record (EngineFailure::toString), which the journal and the replies keep.
QString signalText(const QSignalSpy &spy, int index, int argument)
{
    if (spy.size() <= index)
        return QString();
    const QVariant value = spy.at(index).at(argument);
    if (value.metaType() == QMetaType::fromType<EngineFailure>())
        return value.value<EngineFailure>().toString();
    return value.toString();
}

QJsonObject statusOf(UpstreamPool *pool, const QUrl &agent, const QByteArray &token, int *httpStatus = nullptr)
{
    AgentRequest::Call call;
    call.agent = agent;
    call.token = token;
    call.path = "/agent/status";
    AgentRequest request(pool, call);
    QSignalSpy answered(&request, &AgentRequest::answered);
    request.start();
    if (!answered.wait(Timeout))
        return {};
    if (httpStatus)
        *httpStatus = answered.first().at(0).toInt();
    return QJsonDocument::fromJson(answered.first().at(1).toByteArray()).object();
}

qint64 pidInStatus(const QJsonObject &status, const QString &engine)
{
    for (const QJsonValue &value : status.value("engines"_L1).toArray()) {
        const QJsonObject e = value.toObject();
        if (e.value("name"_L1).toString() == engine)
            return e.value("pid"_L1).toInteger();
    }
    return 0;
}

// A running `switchyard agent` (or this binary as a helper) whose stdout we read line by line.
class Child
{
public:
    QProcess process;
    QByteArray output;

    // Waits for a stdout line starting with prefix and returns the rest of it.
    QByteArray waitForLine(const QByteArray &prefix, int timeout = Timeout)
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeout) {
            output += process.readAllStandardOutput();
            for (const QByteArray &line : output.split('\n')) {
                const qsizetype at = line.indexOf(prefix);
                if (at >= 0 && output.contains(line + '\n'))
                    return line.mid(at + prefix.size()).trimmed();
            }
            if (process.state() == QProcess::NotRunning)
                return {};
            process.waitForReadyRead(100);
        }
        return {};
    }

    ~Child()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

// The helper for noOrphansWhenSupervisorKilled: a LocalDriver starts one engine, says its pid,
// then waits to be killed.
int runHelper(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QJsonObject spec = QJsonDocument::fromJson(qgetenv(HelperEnv)).object();
    const QJsonObject e = spec.value("engine"_L1).toObject();
    EngineConfig engine;
    engine.name = e.value("name"_L1).toString();
    engine.url = QUrl(e.value("url"_L1).toString());
    for (const QJsonValue &arg : e.value("argv"_L1).toArray())
        engine.argv.append(arg.toString());
    DriverContext context;
    context.stateDir = spec.value("state_dir"_L1).toString();
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(host(u"helper"_s, u"local"_s, {engine}), context);
    auto *local = qobject_cast<LocalDriver *>(driver.get());
    QObject::connect(driver.get(), &EngineDriver::engineStarted, &app, [local](const QString &name) {
        std::printf("engine pid %lld\n", static_cast<long long>(local->supervisor()->pid(name)));
        std::fflush(stdout);
    });
    QObject::connect(driver.get(), &EngineDriver::engineStartFailed, &app, [](const QString &, const EngineFailure &failure) {
        std::printf("failed %s\n", qPrintable(failure.toString()));
        std::fflush(stdout);
        QCoreApplication::exit(1);
    });
    driver->startEngine(engine.name);
    return app.exec();
}

} // namespace

class TestEngines : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void staticDriver();
    void localDriverStartsSwitchesStops();
    void startFailure_data();
    void startFailure();
    void startTimeout();
    void foreignServerOnPort();
    void sigkillAfterStopTimeout();
    void noOrphansWhenSupervisorKilled();
    void straysOfEarlierRunAreStopped();
    void secondSupervisorIsRefused();
    void agentEndToEnd();
    void agentTokenCompare();
    void commandDriver();
    void commandDriverStartFails();

private:
    UpstreamPool m_pool;
};

void TestEngines::initTestCase()
{
    QVERIFY2(QFile::exists(fakeLlama()), qPrintable(fakeLlama()));
    QVERIFY2(QFile::exists(binDir() + u"/switchyard"_s), qPrintable(binDir()));
}

void TestEngines::staticDriver()
{
    const std::unique_ptr<EngineDriver> driver =
        createEngineDriver(host(u"box"_s, u"static"_s, {fakeEngine(u"main"_s, 1)}), DriverContext{});
    QVERIFY(qobject_cast<StaticDriver *>(driver.get()));
    QCOMPARE(driver->runningEngine(), u"main"_s);
    QVERIFY(!driver->canSwitch());

    QSignalSpy started(driver.get(), &EngineDriver::engineStarted);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QSignalSpy status(driver.get(), &EngineDriver::statusKnown);
    driver->startEngine(u"main"_s);
    QCOMPARE(started.size(), 0);   // queued, never inside the call
    QVERIFY(started.wait(Timeout));
    QCOMPARE(signalText(started, 0, 0), u"main"_s);

    driver->startEngine(u"other"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY2(signalText(failed, 0, 1).contains(u"static"_s), qPrintable(signalText(failed, 0, 1)));

    driver->probe();
    QVERIFY(status.wait(Timeout));
    QCOMPARE(signalText(status, 0, 0), u"main"_s);
}

void TestEngines::localDriverStartsSwitchesStops()
{
    QTemporaryDir state;
    const HostConfig ws = host(u"ws"_s, u"local"_s, {fakeEngine(u"alpha"_s, portForLater()), fakeEngine(u"beta"_s, portForLater())});
    DriverContext context;
    context.stateDir = state.path();
    context.pool = &m_pool;
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(ws, context);
    auto *local = qobject_cast<LocalDriver *>(driver.get());
    QVERIFY(local);
    QVERIFY2(local->openError().isEmpty(), qPrintable(local->openError()));
    QVERIFY(driver->canSwitch());
    QSignalSpy started(driver.get(), &EngineDriver::engineStarted);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QSignalSpy stopped(driver.get(), &EngineDriver::engineStopped);
    QSignalSpy status(driver.get(), &EngineDriver::statusKnown);

    driver->startEngine(u"alpha"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 0, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(signalText(started, 0, 0), u"alpha"_s);
    QCOMPARE(driver->runningEngine(), u"alpha"_s);
    const qint64 alphaPid = local->supervisor()->pid(u"alpha"_s);
    QVERIFY(alive(alphaPid));

    // The state file knows it, with the start time that tells it from a reused pid.
    const QList<EngineStateFile::Entry> entries =
        EngineStateFile(state.filePath(LocalDriver::stateFileName(u"ws"_s))).read();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries.first().engine, u"alpha"_s);
    QCOMPARE(entries.first().pid, alphaPid);
    QCOMPARE(entries.first().startTime, ProcessInfo::read(alphaPid)->startTime);
    QCOMPARE(entries.first().argv, ws.engines.first().argv);
    // Its own process group, and it dies with us.
    QCOMPARE(ProcessInfo::read(alphaPid)->processGroup, alphaPid);

    // Starting what already runs answers at once.
    driver->startEngine(u"alpha"_s);
    QTRY_COMPARE_WITH_TIMEOUT(started.size(), 2, Timeout);

    driver->startEngine(u"beta"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 2, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(signalText(started, 2, 0), u"beta"_s);
    QVERIFY(!alive(alphaPid));   // stopped before beta started
    QVERIFY(stopped.isEmpty());  // that stop was part of the start, not a call of its own
    const qint64 betaPid = local->supervisor()->pid(u"beta"_s);
    QVERIFY(alive(betaPid));

    driver->probe();
    QVERIFY(status.wait(Timeout));
    QCOMPARE(signalText(status, 0, 0), u"beta"_s);

    driver->stopEngine(u"beta"_s);
    QVERIFY(stopped.wait(Timeout));
    QCOMPARE(signalText(stopped, 0, 0), u"beta"_s);
    QVERIFY(!alive(betaPid));
    QCOMPARE(driver->runningEngine(), QString());
    QVERIFY(EngineStateFile(state.filePath(LocalDriver::stateFileName(u"ws"_s))).read().isEmpty());

    // Stopping what does not run still ends in engineStopped.
    driver->stopEngine(u"alpha"_s);
    QVERIFY(stopped.wait(Timeout));
    QCOMPARE(signalText(stopped, 1, 0), u"alpha"_s);
}

void TestEngines::startFailure_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QStringList>("reasonParts");
    QTest::newRow("no such binary") << QStringList{u"/nonexistent/switchyard-no-such-engine"_s, u"--port"_s, u"1"_s}
                                    << QStringList{u"cannot start /nonexistent/switchyard-no-such-engine"_s,
                                                   u"No such file"_s};
    QTest::newRow("exits 1") << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo starting; echo boom >&2; exit 1"_s}
                             << QStringList{u"exited with code 1: boom"_s};
    QTest::newRow("killed") << QStringList{u"/bin/sh"_s, u"-c"_s, u"kill -KILL $$"_s}
                            << QStringList{u"killed by signal 9"_s};
    QTest::newRow("stdout only") << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo one; echo two; echo three; echo four; exit 3"_s}
                                 << QStringList{u"exited with code 3: two | three | four"_s};
}

void TestEngines::startFailure()
{
    QFETCH(QStringList, argv);
    QFETCH(QStringList, reasonParts);
    QTemporaryDir state;
    EngineConfig engine = shellEngine(u"broken"_s, QString(), 10s);
    engine.argv = argv;
    DriverContext context;
    context.stateDir = state.path();
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(host(u"ws"_s, u"local"_s, {engine}), context);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QSignalSpy started(driver.get(), &EngineDriver::engineStarted);
    QElapsedTimer timer;
    timer.start();
    driver->startEngine(u"broken"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY2(timer.elapsed() < 5000, "a failing argv must fail at once, not at the start timeout");
    QCOMPARE(started.size(), 0);
    QCOMPARE(signalText(failed, 0, 0), u"broken"_s);
    const QString reason = signalText(failed, 0, 1);
    for (const QString &part : reasonParts)
        QVERIFY2(reason.contains(part), qPrintable(reason));
    QCOMPARE(driver->runningEngine(), QString());
}

void TestEngines::startTimeout()
{
    QTemporaryDir state;
    // Runs, but never answers /health.
    EngineSupervisor supervisor({shellEngine(u"mute"_s, u"echo loading model >&2; exec sleep 60"_s, 700ms, 2s)},
                                state.filePath(u"t.json"_s), &m_pool);
    QString error;
    QVERIFY2(supervisor.open(&error), qPrintable(error));
    QSignalSpy failed(&supervisor, &EngineSupervisor::engineStartFailed);
    QElapsedTimer timer;
    timer.start();
    supervisor.switchTo(u"mute"_s);
    QTRY_VERIFY_WITH_TIMEOUT(supervisor.pid(u"mute"_s) > 0, Timeout);
    const qint64 pid = supervisor.pid(u"mute"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY(timer.elapsed() >= 600);
    const QString reason = signalText(failed, 0, 1);
    QVERIFY2(reason.startsWith(u"no /health within 0.7 s"_s), qPrintable(reason));
    QVERIFY2(reason.contains(u"loading model"_s), qPrintable(reason));
    // The failure is told once the process is gone.
    QVERIFY(!alive(pid));
    QCOMPARE(supervisor.state(u"mute"_s), EngineSupervisor::State::Stopped);
}

void TestEngines::foreignServerOnPort()
{
    // Something already answers on the engine's port: say so instead of taking its /health for ours.
    QTemporaryDir state;
    const quint16 port = portForLater();
    QProcess other;
    other.start(fakeLlama(), {u"--port"_s, QString::number(port), u"--models"_s, u"x"_s});
    QVERIFY(other.waitForStarted(Timeout));
    QTRY_VERIFY_WITH_TIMEOUT(other.canReadLine(), Timeout);

    EngineSupervisor supervisor({fakeEngine(u"alpha"_s, port)}, state.filePath(u"f.json"_s), &m_pool);
    QString error;
    QVERIFY2(supervisor.open(&error), qPrintable(error));
    QSignalSpy failed(&supervisor, &EngineSupervisor::engineStartFailed);
    supervisor.switchTo(u"alpha"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY2(signalText(failed, 0, 1).contains(u"already answers /health"_s), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(supervisor.pid(u"alpha"_s), 0);

    other.terminate();
    QVERIFY(other.waitForFinished(Timeout));
}

void TestEngines::sigkillAfterStopTimeout()
{
    QTemporaryDir state;
    const EngineConfig stubborn = shellEngine(u"stubborn"_s, u"trap '' TERM; exec sleep 60"_s, 60s, 1s);
    EngineSupervisor supervisor({stubborn}, state.filePath(u"k.json"_s), &m_pool);
    QString error;
    QVERIFY2(supervisor.open(&error), qPrintable(error));
    QSignalSpy failed(&supervisor, &EngineSupervisor::engineStartFailed);
    QSignalSpy stopped(&supervisor, &EngineSupervisor::engineStopped);

    supervisor.switchTo(u"stubborn"_s);
    QTRY_VERIFY_WITH_TIMEOUT(supervisor.pid(u"stubborn"_s) > 0, Timeout);
    const qint64 pid = supervisor.pid(u"stubborn"_s);
    QTRY_VERIFY_WITH_TIMEOUT(ignoresSigterm(pid), Timeout);   // the trap is in place

    QElapsedTimer timer;
    timer.start();
    supervisor.stop(u"stubborn"_s);
    QVERIFY(stopped.wait(Timeout));
    QVERIFY2(timer.elapsed() >= 900, qPrintable(QString::number(timer.elapsed())));   // SIGTERM was ignored...
    QVERIFY(!alive(pid));                                                              // ...SIGKILL was not
    // The start it cut short ends too, exactly once.
    QCOMPARE(failed.size(), 1);
    QVERIFY2(signalText(failed, 0, 1).contains(u"stopped before it was ready"_s), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(stopped.size(), 1);
}

void TestEngines::noOrphansWhenSupervisorKilled()
{
    QTemporaryDir state;
    const EngineConfig engine = fakeEngine(u"alpha"_s, portForLater());
    const QJsonObject spec{{"state_dir"_L1, state.path()},
                           {"engine"_L1, QJsonObject{{"name"_L1, engine.name},
                                                     {"url"_L1, engine.url.toString()},
                                                     {"argv"_L1, QJsonArray::fromStringList(engine.argv)}}}};
    Child helper;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(HelperEnv), QString::fromUtf8(QJsonDocument(spec).toJson(QJsonDocument::Compact)));
    helper.process.setProcessEnvironment(env);
    helper.process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    helper.process.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(helper.process.waitForStarted(Timeout));
    const qint64 enginePid = helper.waitForLine("engine pid ").toLongLong();
    QVERIFY2(enginePid > 0, helper.output.constData());
    QVERIFY(alive(enginePid));

    // The relay (here: the helper) dies without a chance to clean up.
    helper.process.kill();
    QVERIFY(helper.process.waitForFinished(Timeout));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(enginePid), Timeout);   // PR_SET_PDEATHSIG took it along

    // The state file still names it, so a new supervisor can check; nothing is left to stop, and
    // the dead helper's lock does not keep the new one out.
    const QString stateFile = state.filePath(LocalDriver::stateFileName(u"helper"_s));
    QCOMPARE(EngineStateFile(stateFile).read().size(), 1);
    EngineSupervisor next({engine}, stateFile, &m_pool);
    QString error;
    QVERIFY2(next.open(&error), qPrintable(error));
    QVERIFY(EngineStateFile(stateFile).read().isEmpty());
}

void TestEngines::straysOfEarlierRunAreStopped()
{
    QTemporaryDir state;
    const QString stateFile = state.filePath(LocalDriver::stateFileName(u"ws"_s));

    // An engine an earlier run left behind: a group leader with a child of its own.
    QProcess stray;
    ChildProcess::prepare(&stray);
    stray.start(u"/bin/sh"_s, {u"-c"_s, u"sleep 60 & echo $!; wait"_s});
    QVERIFY(stray.waitForStarted(Timeout));
    QTRY_VERIFY_WITH_TIMEOUT(stray.canReadLine(), Timeout);
    const qint64 strayPid = stray.processId();
    const qint64 strayChild = stray.readLine().trimmed().toLongLong();
    QVERIFY(alive(strayChild));
    QCOMPARE(ProcessInfo::read(strayChild)->processGroup, strayPid);

    // A process on a pid the file names, but started at another time: not ours, left alone.
    QProcess bystander;
    ChildProcess::prepare(&bystander);
    bystander.start(u"/bin/sleep"_s, {u"60"_s});
    QVERIFY(bystander.waitForStarted(Timeout));
    const qint64 bystanderPid = bystander.processId();

    EngineStateFile file(stateFile);
    QVERIFY(file.write({{u"alpha"_s, strayPid, ProcessInfo::read(strayPid)->startTime, {u"/bin/sh"_s, u"-c"_s, u"..."_s}},
                        {u"beta"_s, bystanderPid, ProcessInfo::read(bystanderPid)->startTime + 1, {u"/bin/sleep"_s}}}));

    DriverContext context;
    context.stateDir = state.path();
    const std::unique_ptr<EngineDriver> driver =
        createEngineDriver(host(u"ws"_s, u"local"_s, {fakeEngine(u"alpha"_s, portForLater())}), context);
    // Gone by the time the driver exists: nothing may start while they hold the port and VRAM.
    QVERIFY(!alive(strayPid));
    QVERIFY(!alive(strayChild));
    QVERIFY(alive(bystanderPid));
    QVERIFY(EngineStateFile(stateFile).read().isEmpty());
    QVERIFY(stray.waitForFinished(Timeout));
    QCOMPARE(stray.exitStatus(), QProcess::CrashExit);

    bystander.kill();
    QVERIFY(bystander.waitForFinished(Timeout));
}

void TestEngines::secondSupervisorIsRefused()
{
    // Two live supervisors on one state file would reap each other's engines.
    QTemporaryDir state;
    const QString stateFile = state.filePath(u"agent.json"_s);
    EngineSupervisor first({fakeEngine(u"alpha"_s, portForLater())}, stateFile, &m_pool);
    QString error;
    QVERIFY2(first.open(&error), qPrintable(error));
    EngineSupervisor second({fakeEngine(u"alpha"_s, portForLater())}, stateFile, &m_pool);
    QVERIFY(!second.open(&error));
    QVERIFY2(error.contains(u"another supervisor"_s), qPrintable(error));
    QSignalSpy failed(&second, &EngineSupervisor::engineStartFailed);
    second.switchTo(u"alpha"_s);
    QVERIFY(failed.wait(Timeout));
}

void TestEngines::agentEndToEnd()
{
    QTemporaryDir dir;
    const EngineConfig alpha = fakeEngine(u"alpha"_s, portForLater(), u"a1,a2"_s);
    const EngineConfig beta = fakeEngine(u"beta"_s, portForLater(), u"b1"_s);
    const QByteArray token = "s3cret-token-for-tests";
    auto engineJson = [](const EngineConfig &e) {
        return QJsonObject{{"url"_L1, e.url.toString()},
                           {"argv"_L1, QJsonArray::fromStringList(e.argv)},
                           {"start_timeout_s"_L1, 15},
                           {"stop_timeout_s"_L1, 5}};
    };
    const QJsonObject config{{"listen"_L1, u"127.0.0.1:0"_s},
                             {"token"_L1, QString::fromLatin1(token)},
                             {"state_dir"_L1, dir.filePath(u"state"_s)},
                             {"engines"_L1, QJsonObject{{"alpha"_L1, engineJson(alpha)}, {"beta"_L1, engineJson(beta)}}}};
    const QString configPath = dir.filePath(u"agent.json"_s);
    {
        QFile file(configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(config).toJson());
    }

    auto startAgent = [&](Child &agent) -> QUrl {
        agent.process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        agent.process.start(binDir() + u"/switchyard"_s, {u"agent"_s, u"--config"_s, configPath});
        if (!agent.process.waitForStarted(Timeout))
            return {};
        const QByteArray rest = agent.waitForLine("listening on ");
        return QUrl(QString::fromLatin1(rest.left(rest.indexOf(' '))));
    };

    Child agent;
    const QUrl url = startAgent(agent);
    QVERIFY2(url.port() > 0, agent.output.constData());

    HostConfig gpu = host(u"gpu"_s, u"agent"_s, {alpha, beta});
    gpu.agent = url;
    gpu.token = QString::fromLatin1(token);
    DriverContext context;
    context.pool = &m_pool;
    context.connectTimeout = 2s;
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(gpu, context);
    QVERIFY(qobject_cast<AgentDriver *>(driver.get()));
    QSignalSpy started(driver.get(), &EngineDriver::engineStarted);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QSignalSpy stopped(driver.get(), &EngineDriver::engineStopped);
    QSignalSpy status(driver.get(), &EngineDriver::statusKnown);
    QSignalSpy unreachable(driver.get(), &EngineDriver::unreachable);

    driver->probe();
    QVERIFY(status.wait(Timeout));
    QCOMPARE(signalText(status, 0, 0), QString());   // the agent starts nothing by itself

    driver->startEngine(u"alpha"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 0, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(driver->runningEngine(), u"alpha"_s);
    QJsonObject st = statusOf(&m_pool, url, token);
    QCOMPARE(st.value("engine"_L1).toString(), u"alpha"_s);
    QCOMPARE(st.value("state"_L1).toString(), u"ready"_s);
    const qint64 alphaPid = pidInStatus(st, u"alpha"_s);
    QVERIFY(alive(alphaPid));

    driver->startEngine(u"beta"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 1, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(signalText(started, 1, 0), u"beta"_s);
    QVERIFY(!alive(alphaPid));
    // A protocol-2 agent's event stream reports the box as well: the newest report counts.
    status.clear();
    driver->probe();
    QVERIFY(status.wait(Timeout));
    QTRY_COMPARE_WITH_TIMEOUT(signalText(status, int(status.size()) - 1, 0), u"beta"_s, Timeout);
    const qint64 betaPid = pidInStatus(statusOf(&m_pool, url, token), u"beta"_s);
    QVERIFY(alive(betaPid));

    // An engine the agent does not have.
    driver->startEngine(u"gamma"_s);
    QVERIFY(failed.wait(Timeout));
    // The agent's arbiter refuses it, worded by the relay's English catalogue.
    QVERIFY2(signalText(failed, 0, 1).contains(u"has no engine \"gamma\""_s), qPrintable(signalText(failed, 0, 1)));

    driver->stopEngine(u"beta"_s);
    QVERIFY(stopped.wait(Timeout));
    QVERIFY(!alive(betaPid));
    QCOMPARE(driver->runningEngine(), QString());

    // Wrong or missing token: 401, and the driver says the host cannot be used.
    int httpStatus = 0;
    statusOf(&m_pool, url, "wrong-token", &httpStatus);
    QCOMPARE(httpStatus, 401);
    statusOf(&m_pool, url, QByteArray(), &httpStatus);
    QCOMPARE(httpStatus, 401);
    HostConfig wrong = gpu;
    wrong.token = u"wrong-token"_s;
    const std::unique_ptr<EngineDriver> intruder = createEngineDriver(wrong, context);
    QSignalSpy refused(intruder.get(), &EngineDriver::unreachable);
    intruder->probe();
    QVERIFY(refused.wait(Timeout));
    QVERIFY2(signalText(refused, 0, 0).contains(u"401"_s), qPrintable(signalText(refused, 0, 0)));
    QSignalSpy intruderFailed(intruder.get(), &EngineDriver::engineStartFailed);
    intruder->startEngine(u"alpha"_s);
    QVERIFY(intruderFailed.wait(Timeout));
    QVERIFY(pidInStatus(statusOf(&m_pool, url, token), u"alpha"_s) == 0);

    // SIGKILL the agent while an engine runs: the engine goes with it.
    driver->startEngine(u"alpha"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 3, Timeout);
    QCOMPARE(signalText(started, 2, 0), u"alpha"_s);
    const qint64 secondAlpha = pidInStatus(statusOf(&m_pool, url, token), u"alpha"_s);
    QVERIFY(alive(secondAlpha));
    agent.process.kill();
    QVERIFY(agent.process.waitForFinished(Timeout));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(secondAlpha), Timeout);
    driver->probe();
    QVERIFY(unreachable.wait(Timeout));

    // A new agent on the same state dir starts cleanly; SIGTERM stops its engine and exits 0.
    Child again;
    const QUrl url2 = startAgent(again);
    QVERIFY2(url2.port() > 0, again.output.constData());
    gpu.agent = url2;
    const std::unique_ptr<EngineDriver> driver2 = createEngineDriver(gpu, context);
    QSignalSpy started2(driver2.get(), &EngineDriver::engineStarted);
    driver2->startEngine(u"beta"_s);
    QVERIFY(started2.wait(Timeout));
    const qint64 thirdPid = pidInStatus(statusOf(&m_pool, url2, token), u"beta"_s);
    QVERIFY(alive(thirdPid));
    again.process.terminate();
    QVERIFY(again.process.waitForFinished(Timeout));
    QCOMPARE(again.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(again.process.exitCode(), 0);
    QVERIFY(!alive(thirdPid));
    again.output += again.process.readAllStandardOutput();
    QVERIFY2(again.output.contains("engine beta: up after"), again.output.constData());
    QVERIFY2(again.output.contains("engine beta: stopped"), again.output.constData());
    QVERIFY2(!again.output.contains(token), "the token must never be printed");
}

void TestEngines::agentTokenCompare()
{
    QVERIFY(AgentService::tokenMatches("abc", "abc"));
    QVERIFY(!AgentService::tokenMatches("abd", "abc"));
    QVERIFY(!AgentService::tokenMatches("abc ", "abc"));
    QVERIFY(!AgentService::tokenMatches("", "abc"));
}

void TestEngines::commandDriver()
{
    QTemporaryDir dir;
    auto engine = [&](const QString &name, quint16 port) {
        const QString pidFile = dir.filePath(name + u".pid"_s);
        EngineConfig e;
        e.name = name;
        e.url = localUrl(port);
        // A start line that returns at once and leaves the server in the background.
        e.startCommand = u"'%1' --port %2 --models %3 & echo $! > '%4'"_s.arg(fakeLlama()).arg(port).arg(name, pidFile);
        e.stopCommand = u"kill $(cat '%1')"_s.arg(pidFile);
        e.startTimeout = 15s;
        e.stopTimeout = 5s;
        return e;
    };
    auto pidOf = [&](const QString &name) {
        QFile file(dir.filePath(name + u".pid"_s));
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
    };
    DriverContext context;
    context.stateDir = dir.path();
    context.pool = &m_pool;
    const HostConfig box = host(u"box"_s, u"command"_s, {engine(u"alpha"_s, portForLater()), engine(u"beta"_s, portForLater())});
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(box, context);
    QVERIFY(qobject_cast<CommandDriver *>(driver.get()));
    QSignalSpy started(driver.get(), &EngineDriver::engineStarted);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QSignalSpy stopped(driver.get(), &EngineDriver::engineStopped);
    QSignalSpy status(driver.get(), &EngineDriver::statusKnown);

    driver->probe();
    QVERIFY(status.wait(Timeout));
    QCOMPARE(signalText(status, 0, 0), QString());

    driver->startEngine(u"alpha"_s);
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 0, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    const qint64 alphaPid = pidOf(u"alpha"_s);
    QVERIFY(alive(alphaPid));

    driver->startEngine(u"beta"_s);   // stops alpha first
    QTRY_VERIFY_WITH_TIMEOUT(started.size() + failed.size() > 1, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(signalText(started, 1, 0), u"beta"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(alphaPid), Timeout);
    const qint64 betaPid = pidOf(u"beta"_s);
    QVERIFY(alive(betaPid));

    driver->probe();
    QVERIFY(status.wait(Timeout));
    QCOMPARE(signalText(status, 1, 0), u"beta"_s);

    driver->stopEngine(u"beta"_s);
    QVERIFY(stopped.wait(Timeout));
    QCOMPARE(signalText(stopped, 0, 0), u"beta"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(betaPid), Timeout);
    QCOMPARE(driver->runningEngine(), QString());
}

void TestEngines::commandDriverStartFails()
{
    QTemporaryDir dir;
    EngineConfig e;
    e.name = u"alpha"_s;
    e.url = localUrl(portForLater());
    e.startCommand = u"echo 'cannot reach gpu box' >&2; exit 3"_s;
    e.stopCommand = u"true"_s;
    e.startTimeout = 10s;
    DriverContext context;
    context.stateDir = dir.path();
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(host(u"box"_s, u"command"_s, {e}), context);
    QSignalSpy failed(driver.get(), &EngineDriver::engineStartFailed);
    QElapsedTimer timer;
    timer.start();
    driver->startEngine(u"alpha"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY(timer.elapsed() < 5000);
    const QString reason = signalText(failed, 0, 1);
    QVERIFY2(reason.contains(u"exited with code 3"_s) && reason.contains(u"cannot reach gpu box"_s), qPrintable(reason));
}

int main(int argc, char **argv)
{
    // noOrphansWhenSupervisorKilled runs this binary as its child: no tests there, just a driver.
    if (qEnvironmentVariableIsSet(HelperEnv))
        return runHelper(argc, argv);
    QCoreApplication app(argc, argv);
    TestEngines test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_engines.moc"
