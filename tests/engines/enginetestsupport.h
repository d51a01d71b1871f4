#pragma once

// What the engine-driver tests share: where the binaries are, engines made of switchyard-fakellama
// or /bin/sh, a host around them, process checks, the agent's status and a child process whose
// stdout is read line by line.

#include "config/config.h"
#include "engines/enginefailure.h"

#include <QByteArray>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QString>
#include <QUrl>

#include <chrono>

namespace switchyard {
class UpstreamPool;
}

namespace switchyard::test {

constexpr int EngineTimeout = 20000;   // ms; a fakellama is up in well under a second

QString binDir();
QString fakeLlama();
QUrl localUrl(quint16 port);
EngineConfig fakeEngine(const QString &name, quint16 port, const QString &models = QStringLiteral("a"));
// An engine that runs script under /bin/sh; nothing ever answers at its URL.
EngineConfig shellEngine(const QString &name, const QString &script,
                         std::chrono::milliseconds startTimeout = std::chrono::seconds(10),
                         std::chrono::milliseconds stopTimeout = std::chrono::seconds(5));
HostConfig host(const QString &name, const QString &driver, const QList<EngineConfig> &engines);
bool alive(qint64 pid);
// SigIgn from /proc/PID/status: the shell has run its `trap '' TERM`.
bool ignoresSigterm(qint64 pid);
// A failure reads as its record (EngineFailure::toString), which the journal and the replies keep.
QString signalText(const QSignalSpy &spy, int index, int argument);
QJsonObject statusOf(UpstreamPool *pool, const QUrl &agent, const QByteArray &token, int *httpStatus = nullptr);
qint64 pidInStatus(const QJsonObject &status, const QString &engine);

// A running `switchyard agent` (or a test binary as a helper) whose stdout we read line by line.
class Child
{
public:
    QProcess process;
    QByteArray output;

    // Waits for a stdout line starting with prefix and returns the rest of it.
    QByteArray waitForLine(const QByteArray &prefix, int timeout = EngineTimeout);
    ~Child();
};

} // namespace switchyard::test
