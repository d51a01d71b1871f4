#pragma once

#include "config/config.h"
#include "engines/enginedriver.h"
#include "engines/healthcheck.h"

#include <QHash>
#include <QList>
#include <QPointer>

#include <functional>
#include <optional>

namespace switchyard {

class ShellCommand;
class UpstreamPool;

// driver "command": each engine has a "start" and a "stop" shell line (ssh, systemctl, docker...).
// Start stops whichever other engine answers /health (or was started last), runs the start line
// and waits for the engine's /health; a start line may stay in the foreground or return at once.
// Stop runs the stop line and waits until /health no longer answers. Probe asks every engine's
// /health. Output of both lines goes to "<stateDir>/command-<host>-<engine>.log". Starts and
// stops run one after another, in the order they were asked for.
class CommandDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandDriver)

public:
    CommandDriver(const HostConfig &host, const QString &stateDir, UpstreamPool *pool, QObject *parent = nullptr);
    // Start lines still running in the foreground are stopped with their process group.
    ~CommandDriver() override;

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }

    QString logFile(const QString &engine) const;

private:
    using Results = QHash<QString, HealthCheck::Result>;
    using Done = std::function<void()>;

    const EngineConfig *engine(const QString &name) const;
    void enqueue(std::function<void(Done)> operation);
    void runNext();
    void checkAll(std::function<void(const Results &, const QString &detail)> done);
    QString pick(const Results &results) const;
    void doStart(const QString &name, Done done);
    void runStart(const EngineConfig &engine, Done done);
    // Ends with no failure once the engine is gone.
    using StopDone = std::function<void(const std::optional<EngineFailure> &failure)>;
    void stopEach(QStringList names, StopDone done);
    void runStop(const EngineConfig &engine, StopDone done);

    HostConfig m_host;
    QString m_stateDir;
    UpstreamPool *m_pool;
    QString m_running;
    QList<std::function<void(Done)>> m_queue;
    bool m_busy = false;
    QHash<QString, QPointer<ShellCommand>> m_startCommands;   // by engine, while in the foreground
};

} // namespace switchyard
