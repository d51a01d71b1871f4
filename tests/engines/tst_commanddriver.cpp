// The command driver: start and stop commands run by /bin/sh, engines of switchyard-fakellama.

#include "enginetestsupport.h"
#include "engines/commanddriver.h"
#include "engines/driverfactory.h"
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


using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int Timeout = EngineTimeout;
}

class TestCommandDriver : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void commandDriver();
    void commandDriverStartFails();

private:
    UpstreamPool m_pool;
};

void TestCommandDriver::initTestCase()
{
    QVERIFY2(QFile::exists(fakeLlama()), qPrintable(fakeLlama()));
    QVERIFY2(QFile::exists(binDir() + u"/switchyard"_s), qPrintable(binDir()));
}

void TestCommandDriver::commandDriver()
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

void TestCommandDriver::commandDriverStartFails()
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

QTEST_GUILESS_MAIN(TestCommandDriver)

#include "tst_commanddriver.moc"
