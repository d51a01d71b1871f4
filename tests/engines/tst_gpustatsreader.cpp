// The GPU figures from the tools on PATH to the relay: GpuStatsReader with fake nvidia-smi and
// rocm-smi scripts (good, garbage, hanging, absent), then the real `switchyard agent` with a fake
// nvidia-smi first on its PATH, its /agent/status, and the relay's /admin/hosts.
#include "app/relayservice.h"
#include "config/configloader.h"
#include "engines/agentrequest.h"
#include "engines/gpustatsreader.h"
#include "laterport.h"
#include "rawhttpclient.h"
#include "upstream/upstreampool.h"

#include <QDir>
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

constexpr int Timeout = 15000;

QString binDir()
{
    const QString dir = qEnvironmentVariable("SWITCHYARD_BIN_DIR");
    return dir.isEmpty() ? QCoreApplication::applicationDirPath() : dir;
}

// An executable shell script `name` in `dir`.
bool writeTool(const QString &dir, const QString &name, const QByteArray &body)
{
    QFile file(dir + u'/' + name);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write("#!/bin/sh\n" + body + '\n');
    file.close();
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// The fake answers only when asked as the agent asks; anything else is an error, so a wrong
// query shows as "no GPUs" in the test.
const QByteArray FakeNvidiaSmi =
    "[ \"$1\" = --query-gpu=memory.used,memory.total,utilization.gpu,temperature.gpu ] || exit 2\n"
    "[ \"$2\" = --format=csv,noheader,nounits ] || exit 2\n"
    "printf '20871, 24576, 37, 61\\n1, 12288, 0, 33\\n'";

// PATH for the test's own process, put back afterwards.
class PathOverride
{
public:
    explicit PathOverride(const QString &path)
        : m_old(qgetenv("PATH"))
    {
        qputenv("PATH", path.toLocal8Bit());
    }
    ~PathOverride() { qputenv("PATH", m_old); }

private:
    QByteArray m_old;
};

QList<GpuReading> readOnce(GpuStatsReader &reader)
{
    QSignalSpy finished(&reader, &GpuStatsReader::finished);
    reader.refresh();
    if (!finished.wait(Timeout))
        return {GpuReading{-1, u"timed out"_s, {}, {}, {}, {}}};
    return finished.first().at(0).value<QList<GpuReading>>();
}

} // namespace

class TestGpuStatsReader : public QObject
{
    Q_OBJECT

private slots:
    void noToolsNoGpus();
    void fakeNvidiaSmi();
    void fakeRocmSmi();
    void garbageAndFailures();
    void hangingToolIsCut();
    void agentAndRelayReportThem();
};

void TestGpuStatsReader::noToolsNoGpus()
{
    QTemporaryDir empty;
    const PathOverride path(empty.path());
    GpuStatsReader reader;
    QVERIFY(!reader.isFresh(1h));
    QCOMPARE(readOnce(reader), QList<GpuReading>());
    QVERIFY(reader.isFresh(1h));
    QVERIFY(!reader.isReading());
}

void TestGpuStatsReader::fakeNvidiaSmi()
{
    QTemporaryDir dir;
    QVERIFY(writeTool(dir.path(), u"nvidia-smi"_s, FakeNvidiaSmi));
    const PathOverride path(dir.path());
    GpuStatsReader reader;
    const QList<GpuReading> gpus = readOnce(reader);
    QCOMPARE(gpus.size(), 2);
    QCOMPARE(gpus.at(0), (GpuReading{0, u"nvidia"_s, 20871, 24576, 37, 61}));
    QCOMPARE(gpus.at(1), (GpuReading{1, u"nvidia"_s, 1, 12288, 0, 33}));
    QCOMPARE(reader.readings(), gpus);
}

void TestGpuStatsReader::fakeRocmSmi()
{
    QTemporaryDir dir;
    QVERIFY(writeTool(dir.path(), u"rocm-smi"_s,
                      "[ \"$*\" = '--showmeminfo vram --showuse --showtemp --json' ] || exit 2\n"
                      R"j(echo '{"card0": {"GPU use (%)": "5", "VRAM Total Memory (B)": "1073741824",)j"
                      R"j( "VRAM Total Used Memory (B)": "536870912", "Temperature (Sensor edge) (C)": "44.0"}}')j"));
    const PathOverride path(dir.path());
    GpuStatsReader reader;
    QCOMPARE(readOnce(reader), (QList<GpuReading>{GpuReading{0, u"amd"_s, 512, 1024, 5, 44}}));
}

void TestGpuStatsReader::garbageAndFailures()
{
    QTemporaryDir dir;
    // nvidia-smi whose driver is gone (prints text, exits 9); rocm-smi that prints garbage.
    QVERIFY(writeTool(dir.path(), u"nvidia-smi"_s,
                      "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9"));
    QVERIFY(writeTool(dir.path(), u"rocm-smi"_s, "echo 'this is not json'"));
    const PathOverride path(dir.path());
    GpuStatsReader reader;
    QCOMPARE(readOnce(reader), QList<GpuReading>());
    // A tool that exits 0 with garbage lines between good ones: the good ones count.
    QVERIFY(writeTool(dir.path(), u"nvidia-smi"_s, "printf 'garbage\\n5, 10, 15, 20\\n,,,\\n'"));
    QCOMPARE(readOnce(reader), (QList<GpuReading>{GpuReading{0, u"nvidia"_s, 5, 10, 15, 20}}));
}

void TestGpuStatsReader::hangingToolIsCut()
{
    QTemporaryDir dir;
    QVERIFY(writeTool(dir.path(), u"nvidia-smi"_s, "exec sleep 60"));
    QVERIFY(writeTool(dir.path(), u"rocm-smi"_s, R"j(echo '{"card0": {"GPU use (%)": "9"}}')j"));
    const PathOverride path(dir.path());
    GpuStatsReader reader(300ms);
    QElapsedTimer took;
    took.start();
    // The hanging tool gives nothing; the next one still runs.
    const QList<GpuReading> gpus = readOnce(reader);
    QCOMPARE(gpus, (QList<GpuReading>{GpuReading{0, u"amd"_s, {}, {}, 9, {}}}));
    QVERIFY2(took.elapsed() < 5000, qPrintable(u"took %1 ms"_s.arg(took.elapsed())));
}

void TestGpuStatsReader::agentAndRelayReportThem()
{
    QTemporaryDir dir;
    const QString tools = dir.filePath(u"bin"_s);
    QVERIFY(QDir().mkpath(tools));
    QVERIFY(writeTool(tools, u"nvidia-smi"_s, FakeNvidiaSmi));
    const QString noTools = dir.filePath(u"empty"_s);
    QVERIFY(QDir().mkpath(noTools));

    const quint16 enginePort = portForLater();
    const QJsonObject config{{"listen"_L1, u"127.0.0.1:0"_s},
                             {"state_dir"_L1, dir.filePath(u"state"_s)},
                             {"engines"_L1, QJsonObject{{"alpha"_L1, QJsonObject{
                                  {"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                  {"argv"_L1, QJsonArray{binDir() + u"/switchyard-fakellama"_s, u"--port"_s,
                                                         QString::number(enginePort), u"--models"_s, u"a"_s}}}}}}};
    const QString configPath = dir.filePath(u"agent.json"_s);
    {
        QFile file(configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(config).toJson());
    }
    // Starts `switchyard agent` with PATH = `path` and returns where it listens.
    auto startAgent = [&](QProcess &agent, const QString &path) -> QUrl {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"PATH"_s, path);
        agent.setProcessEnvironment(env);
        agent.setProcessChannelMode(QProcess::MergedChannels);
        agent.start(binDir() + u"/switchyard"_s, {u"agent"_s, u"--config"_s, configPath});
        QByteArray output;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < Timeout && agent.state() != QProcess::NotRunning) {
            agent.waitForReadyRead(100);
            output += agent.readAll();
            const qsizetype at = output.indexOf("listening on ");
            const qsizetype end = at >= 0 ? output.indexOf('\n', at) : -1;
            if (end > 0) {
                const QByteArray rest = output.mid(at + 13, end - at - 13).trimmed();
                return QUrl(QString::fromLatin1(rest.left(rest.indexOf(' '))));
            }
        }
        qWarning() << "agent output:" << output;
        return {};
    };
    auto stopAgent = [](QProcess &agent) {
        agent.terminate();
        if (!agent.waitForFinished(Timeout))
            agent.kill();
    };

    // With the tool: /agent/status carries both GPUs.
    QProcess agent;
    const QUrl url = startAgent(agent, tools + u':' + qEnvironmentVariable("PATH"));
    QVERIFY(url.port() > 0);
    UpstreamPool pool;
    auto status = [&](const QUrl &at) {
        AgentRequest::Call call;
        call.agent = at;
        call.path = "/agent/status";
        AgentRequest request(&pool, call);
        QSignalSpy answered(&request, &AgentRequest::answered);
        request.start();
        if (!answered.wait(Timeout))
            return QJsonObject();
        return QJsonDocument::fromJson(answered.first().at(1).toByteArray()).object();
    };
    const QJsonArray gpus = status(url).value("gpus"_L1).toArray();
    QCOMPARE(gpus.size(), 2);
    QCOMPARE(gpus.at(0).toObject().value("memory_used_mib"_L1).toInt(), 20871);
    QCOMPARE(gpus.at(0).toObject().value("memory_total_mib"_L1).toInt(), 24576);
    QCOMPARE(gpus.at(0).toObject().value("utilization_percent"_L1).toInt(), 37);
    QCOMPARE(gpus.at(0).toObject().value("temperature_c"_L1).toInt(), 61);
    QCOMPARE(gpus.at(1).toObject().value("memory_total_mib"_L1).toInt(), 12288);

    // The relay probes the agent at start and carries them in /admin/hosts.
    const QJsonObject relayConfig{
        {"listen"_L1, u"127.0.0.1:0"_s},
        {"state_dir"_L1, dir.filePath(u"relay-state"_s)},
        {"hosts"_L1, QJsonObject{{"gpu"_L1, QJsonObject{
             {"driver"_L1, u"agent"_s},
             {"agent"_L1, url.toString()},
             {"engines"_L1, QJsonObject{{"alpha"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)}}}}}}}}}};
    const ConfigResult parsed = ConfigLoader::parse(QJsonDocument(relayConfig).toJson(), u"relay.json"_s);
    QVERIFY2(parsed.ok(), parsed.errors.isEmpty() ? "" : qPrintable(parsed.errors.first().toString()));
    RelayService relay(*parsed.config, RelayService::standardDrivers(*parsed.config));
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));
    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    QJsonArray hostGpus;
    int answered = 0;
    QElapsedTimer clock;
    clock.start();
    while (hostGpus.isEmpty() && clock.elapsed() < Timeout) {
        client.send(RawHttpClient::get("/admin/hosts"));
        ++answered;
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), answered, Timeout);
        QCOMPARE(client.responses().last().status, 200);
        const QJsonObject host = QJsonDocument::fromJson(client.responses().last().body).array().at(0).toObject();
        QCOMPARE(host.value("host"_L1).toString(), u"gpu"_s);
        QVERIFY(host.value("gpus"_L1).isArray());
        hostGpus = host.value("gpus"_L1).toArray();
        if (hostGpus.isEmpty())
            QTest::qWait(100);   // the probe is on its way; poll again
    }
    QCOMPARE(hostGpus.size(), 2);
    QCOMPARE(hostGpus.at(0).toObject().value("temperature_c"_L1).toInt(), 61);
    QCOMPARE(hostGpus.at(1).toObject().value("memory_used_mib"_L1).toInt(), 1);
    stopAgent(agent);

    // Without the tool: no GPU, and the status is answered as before (no error).
    QProcess bare;
    const QUrl bareUrl = startAgent(bare, noTools);
    QVERIFY(bareUrl.port() > 0);
    const QJsonObject bareStatus = status(bareUrl);
    QCOMPARE(bareStatus.value("state"_L1).toString(), u"stopped"_s);
    QVERIFY(bareStatus.value("gpus"_L1).isArray());
    QVERIFY(bareStatus.value("gpus"_L1).toArray().isEmpty());
    QVERIFY(!bareStatus.contains("error"_L1));
    stopAgent(bare);
}

QTEST_GUILESS_MAIN(TestGpuStatsReader)
#include "tst_gpustatsreader.moc"
