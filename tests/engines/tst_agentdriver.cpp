// The agent driver against the real `switchyard agent`, whose engines are switchyard-fakellama.

#include "enginetestsupport.h"
#include "engines/agentdriver.h"
#include "engines/agentrequest.h"
#include "engines/agentservice.h"
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

class TestAgentDriver : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void agentEndToEnd();
    void agentTokenCompare();

private:
    UpstreamPool m_pool;
};

void TestAgentDriver::initTestCase()
{
    QVERIFY2(QFile::exists(fakeLlama()), qPrintable(fakeLlama()));
    QVERIFY2(QFile::exists(binDir() + u"/switchyard"_s), qPrintable(binDir()));
}

void TestAgentDriver::agentEndToEnd()
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

void TestAgentDriver::agentTokenCompare()
{
    QVERIFY(AgentService::tokenMatches("abc", "abc"));
    QVERIFY(!AgentService::tokenMatches("abd", "abc"));
    QVERIFY(!AgentService::tokenMatches("abc ", "abc"));
    QVERIFY(!AgentService::tokenMatches("", "abc"));
}

QTEST_GUILESS_MAIN(TestAgentDriver)

#include "tst_agentdriver.moc"
