#pragma once

#include "config/config.h"
#include "engines/enginedriver.h"

#include <QHash>

#include <optional>

namespace switchyard {

class EngineSupervisor;
class UpstreamPool;

// driver "local": the relay starts and stops the engine processes itself, through an
// EngineSupervisor whose state file is "<stateDir>/local-<host>.json". When a Ready engine dies
// on its own, statusKnown(QString()) says so without being asked.
class LocalDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalDriver)

public:
    // Opens the supervisor at once, so strays of an earlier run are gone before the first start.
    LocalDriver(const HostConfig &host, const QString &stateDir, UpstreamPool *pool, QObject *parent = nullptr);
    // Over a supervisor someone else owns and has opened (the agent's own, for its arbiter).
    LocalDriver(QString host, EngineSupervisor *supervisor, QObject *parent = nullptr);
    ~LocalDriver() override;

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override;
    QStringList engineNames() const override;
    bool canSwitch() const override { return true; }

    EngineSupervisor *supervisor() const { return m_supervisor; }
    // Why the supervisor could not open (its state file is locked by another live process); every
    // start then fails with it.
    const std::optional<EngineFailure> &openFailure() const { return m_openFailure; }

    static QString stateFileName(const QString &host);

private:
    void watchSupervisor();

    QString m_host;
    EngineSupervisor *m_supervisor;
    std::optional<EngineFailure> m_openFailure;
    // Calls not answered yet, by engine: each call ends in exactly one signal.
    QHash<QString, int> m_pendingStarts;
    QHash<QString, int> m_pendingStops;
};

} // namespace switchyard
