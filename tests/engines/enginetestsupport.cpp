#include "enginetestsupport.h"

#include "engines/agentrequest.h"
#include "engines/processinfo.h"
#include "upstream/upstreampool.h"
#include "laterport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <csignal>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace switchyard::test {

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

EngineConfig fakeEngine(const QString &name, quint16 port, const QString &models)
{
    EngineConfig e;
    e.name = name;
    e.url = localUrl(port);
    e.argv = {fakeLlama(), u"--port"_s, QString::number(port), u"--models"_s, models};
    e.startTimeout = 15s;
    e.stopTimeout = 5s;
    return e;
}

EngineConfig shellEngine(const QString &name, const QString &script, std::chrono::milliseconds startTimeout,
                         std::chrono::milliseconds stopTimeout)
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

QString signalText(const QSignalSpy &spy, int index, int argument)
{
    if (spy.size() <= index)
        return QString();
    const QVariant value = spy.at(index).at(argument);
    if (value.metaType() == QMetaType::fromType<EngineFailure>())
        return value.value<EngineFailure>().toString();
    return value.toString();
}

QJsonObject statusOf(UpstreamPool *pool, const QUrl &agent, const QByteArray &token, int *httpStatus)
{
    AgentRequest::Call call;
    call.agent = agent;
    call.token = token;
    call.path = "/agent/status";
    AgentRequest request(pool, call);
    QSignalSpy answered(&request, &AgentRequest::answered);
    request.start();
    if (!answered.wait(EngineTimeout))
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

QByteArray Child::waitForLine(const QByteArray &prefix, int timeout)
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

Child::~Child()
{
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5000);
    }
}

} // namespace switchyard::test
