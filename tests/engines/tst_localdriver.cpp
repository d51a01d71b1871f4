// The local and static engine drivers and the supervisor, against real processes: switchyard-fakellama
// as the engine, /bin/sh for engines that fail or will not stop.

#include "enginetestsupport.h"
#include "engines/childprocess.h"
#include "engines/driverfactory.h"
#include "engines/enginefailure.h"
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
constexpr int Timeout = EngineTimeout;
}

namespace {

constexpr char HelperEnv[] = "SWITCHYARD_ENGINES_HELPER";   // JSON: {"state_dir", "engine": {...}}


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

class TestLocalDriver : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void staticDriver();
    void localDriverStartsSwitchesStops();
    void startFailure_data();
    void startFailure();
    void launchFailureIsAFact();
    void startTimeout();
    void foreignServerOnPort();
    void sigkillAfterStopTimeout();
    void noOrphansWhenSupervisorKilled();
    void straysOfEarlierRunAreStopped();
    void secondSupervisorIsRefused();

private:
    UpstreamPool m_pool;
};

void TestLocalDriver::initTestCase()
{
    QVERIFY2(QFile::exists(fakeLlama()), qPrintable(fakeLlama()));
    QVERIFY2(QFile::exists(binDir() + u"/switchyard"_s), qPrintable(binDir()));
}

void TestLocalDriver::staticDriver()
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

void TestLocalDriver::localDriverStartsSwitchesStops()
{
    QTemporaryDir state;
    const HostConfig ws = host(u"ws"_s, u"local"_s, {fakeEngine(u"alpha"_s, portForLater()), fakeEngine(u"beta"_s, portForLater())});
    DriverContext context;
    context.stateDir = state.path();
    context.pool = &m_pool;
    const std::unique_ptr<EngineDriver> driver = createEngineDriver(ws, context);
    auto *local = qobject_cast<LocalDriver *>(driver.get());
    QVERIFY(local);
    QVERIFY2(!local->openFailure(), qPrintable(local->openFailure() ? local->openFailure()->toString() : QString()));
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

// What is wrong with a program that did not launch is found by looking at it, travels to a relay
// as a fact, and an older agent's system error still reads.
void TestLocalDriver::launchFailureIsAFact()
{
    using Launch = EngineFailure::Launch;
    const auto launchOf = [](const QString &program) { return EngineFailure::cannotLaunch(program, EngineFailure::Runner::Process).launch; };
    QCOMPARE(launchOf(u"/nonexistent/llama-server"_s), Launch::NotFound);
    QCOMPARE(launchOf(u"switchyard-no-such-program-in-path"_s), Launch::NotFound);
    QCOMPARE(launchOf(u"sh"_s), Launch::Unknown);   // found in PATH and executable: the system said no
    QTemporaryDir dir;
    QFile plain(dir.filePath(u"engine"_s));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.close();
    QVERIFY(plain.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(launchOf(plain.fileName()), Launch::NotExecutable);
    QCOMPARE(launchOf(dir.path()), Launch::NotExecutable);

    const EngineFailure sent = EngineFailure::cannotLaunch(u"/nonexistent/llama-server"_s, EngineFailure::Runner::Process);
    const EngineFailure heard = EngineFailure::fromJson(sent.toJson());
    QCOMPARE(heard.launch, Launch::NotFound);
    QCOMPARE(heard.toString(), u"cannot start /nonexistent/llama-server: no such file"_s);
    QCOMPARE(heard.toString(), sent.toString());

    const QJsonObject older{{"kind"_L1, "cannot_launch"_L1}, {"program"_L1, "/opt/llama"_L1}, {"system_error"_L1, "execvp: Permission denied"_L1}};
    QCOMPARE(EngineFailure::fromJson(older).toString(), u"cannot start /opt/llama: execvp: Permission denied"_s);
}

void TestLocalDriver::startFailure_data()
{
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<QStringList>("reasonParts");
    QTest::newRow("no such binary") << QStringList{u"/nonexistent/switchyard-no-such-engine"_s, u"--port"_s, u"1"_s}
                                    << QStringList{u"cannot start /nonexistent/switchyard-no-such-engine"_s,
                                                   u"no such file"_s};
    QTest::newRow("exits 1") << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo starting; echo boom >&2; exit 1"_s}
                             << QStringList{u"exited with code 1: boom"_s};
    QTest::newRow("killed") << QStringList{u"/bin/sh"_s, u"-c"_s, u"kill -KILL $$"_s}
                            << QStringList{u"killed by signal 9"_s};
    QTest::newRow("stdout only") << QStringList{u"/bin/sh"_s, u"-c"_s, u"echo one; echo two; echo three; echo four; exit 3"_s}
                                 << QStringList{u"exited with code 3: two | three | four"_s};
}

void TestLocalDriver::startFailure()
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

void TestLocalDriver::startTimeout()
{
    QTemporaryDir state;
    // Runs, but never answers /health.
    EngineSupervisor supervisor({shellEngine(u"mute"_s, u"echo loading model >&2; exec sleep 60"_s, 700ms, 2s)},
                                state.filePath(u"t.json"_s), &m_pool);
    EngineFailure failure;
    QVERIFY2(supervisor.open(&failure), qPrintable(failure.toString()));
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

void TestLocalDriver::foreignServerOnPort()
{
    // Something already answers on the engine's port: say so instead of taking its /health for ours.
    QTemporaryDir state;
    const quint16 port = portForLater();
    QProcess other;
    other.start(fakeLlama(), {u"--port"_s, QString::number(port), u"--models"_s, u"x"_s});
    QVERIFY(other.waitForStarted(Timeout));
    QTRY_VERIFY_WITH_TIMEOUT(other.canReadLine(), Timeout);

    EngineSupervisor supervisor({fakeEngine(u"alpha"_s, port)}, state.filePath(u"f.json"_s), &m_pool);
    EngineFailure failure;
    QVERIFY2(supervisor.open(&failure), qPrintable(failure.toString()));
    QSignalSpy failed(&supervisor, &EngineSupervisor::engineStartFailed);
    supervisor.switchTo(u"alpha"_s);
    QVERIFY(failed.wait(Timeout));
    QVERIFY2(signalText(failed, 0, 1).contains(u"already answers /health"_s), qPrintable(signalText(failed, 0, 1)));
    QCOMPARE(supervisor.pid(u"alpha"_s), 0);

    other.terminate();
    QVERIFY(other.waitForFinished(Timeout));
}

void TestLocalDriver::sigkillAfterStopTimeout()
{
    QTemporaryDir state;
    const EngineConfig stubborn = shellEngine(u"stubborn"_s, u"trap '' TERM; exec sleep 60"_s, 60s, 1s);
    EngineSupervisor supervisor({stubborn}, state.filePath(u"k.json"_s), &m_pool);
    EngineFailure failure;
    QVERIFY2(supervisor.open(&failure), qPrintable(failure.toString()));
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

void TestLocalDriver::noOrphansWhenSupervisorKilled()
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
    EngineFailure failure;
    QVERIFY2(next.open(&failure), qPrintable(failure.toString()));
    QVERIFY(EngineStateFile(stateFile).read().isEmpty());
}

void TestLocalDriver::straysOfEarlierRunAreStopped()
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

void TestLocalDriver::secondSupervisorIsRefused()
{
    // Two live supervisors on one state file would reap each other's engines.
    QTemporaryDir state;
    const QString stateFile = state.filePath(u"agent.json"_s);
    EngineSupervisor first({fakeEngine(u"alpha"_s, portForLater())}, stateFile, &m_pool);
    EngineFailure failure;
    QVERIFY2(first.open(&failure), qPrintable(failure.toString()));
    EngineSupervisor second({fakeEngine(u"alpha"_s, portForLater())}, stateFile, &m_pool);
    QVERIFY(!second.open(&failure));
    QCOMPARE(failure.kind, EngineFailure::Kind::StateFileUnavailable);
    QCOMPARE(failure.stateFile, EngineFailure::StateFile::HeldByOther);
    QCOMPARE(failure.holderPid, QCoreApplication::applicationPid());
    QCOMPARE(failure.toString(), u"another supervisor (%1, pid %2) uses the state file %3"_s
                                     .arg(failure.holder).arg(QCoreApplication::applicationPid()).arg(stateFile));
    QSignalSpy failed(&second, &EngineSupervisor::engineStartFailed);
    second.switchTo(u"alpha"_s);
    QVERIFY(failed.wait(Timeout));
}

int main(int argc, char **argv)
{
    // noOrphansWhenSupervisorKilled runs this binary as its child: no tests there, just a driver.
    if (qEnvironmentVariableIsSet(HelperEnv))
        return runHelper(argc, argv);
    QCoreApplication app(argc, argv);
    TestLocalDriver test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_localdriver.moc"
