#pragma once

#include "config/config.h"
#include "engines/enginefailure.h"
#include "engines/engineprocess.h"
#include "engines/enginestatefile.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

namespace switchyard {

class UpstreamPool;

// Runs one host's engine processes, one at a time: what the "local" driver does inside the relay
// and `switchyard agent` does on a GPU box. switchTo() stops whatever else runs, then starts the
// engine and waits for its /health. Every process it starts leads its own process group and dies
// with us (PR_SET_PDEATHSIG); a state file remembers them, so after a crash the next supervisor
// stops the ones left behind before it starts anything.
class EngineSupervisor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineSupervisor)

public:
    using State = EngineProcess::State;

    // stateFile: e.g. "<state dir>/agent.json". pool may be null (the supervisor then has its own).
    EngineSupervisor(const QList<EngineConfig> &engines, const QString &stateFile, UpstreamPool *pool,
                     QObject *parent = nullptr);
    // Stops every engine before it returns (SIGTERM, SIGKILL after each stop timeout).
    ~EngineSupervisor() override;

    // Takes the state file's lock and stops the engines an earlier run left behind. Call once,
    // before anything else. False with *failure (StateFileUnavailable) when the file cannot be
    // taken, e.g. another live supervisor uses it.
    bool open(EngineFailure *failure);
    bool isOpen() const { return m_open; }

    QStringList engineNames() const;
    bool hasEngine(const QString &engine) const { return find(engine) != nullptr; }
    const EngineConfig *engineConfig(const QString &engine) const;
    State state(const QString &engine) const;
    qint64 pid(const QString &engine) const;
    QString readyEngine() const;    // the engine that is Ready, or empty
    QString targetEngine() const { return m_target; }   // what switchTo() asked for, until it ends

    // Stop every other engine, then start this one. Ends in engineReady or engineFailedToStart
    // (also when a later switchTo or stop supersedes it).
    void switchTo(const QString &engine);
    // Ends in engineStopped.
    void stop(const QString &engine);
    // Ends in allStopped.
    void stopAll();
    // Synchronous, for shutdown; emits nothing.
    void stopAllNow();

    // $XDG_STATE_HOME/switchyard, or ~/.local/state/switchyard.
    static QString defaultStateDir();

Q_SIGNALS:
    void stateChanged(const QString &engine, switchyard::EngineProcess::State state);
    void engineReady(const QString &engine);
    void engineFailedToStart(const QString &engine, const switchyard::EngineFailure &failure);
    void engineStopped(const QString &engine);
    // A Ready engine died on its own. It is not restarted: the caller decides.
    void engineDied(const QString &engine, const switchyard::EngineFailure &failure);
    // The same two in their record's words (EngineFailure::toString), for AgentService, which
    // still sends words to the relay; they go when it hands on facts (issue 33).
    void engineStartFailed(const QString &engine, const QString &reason);
    void engineExited(const QString &engine, const QString &reason);
    void allStopped();

private:
    EngineProcess *find(const QString &engine) const;
    void onStateChanged(EngineProcess *process, State state);
    void onReady(EngineProcess *process);
    void onFailed(EngineProcess *process, const EngineFailure &failure);
    void onExited(EngineProcess *process, const EngineFailure &failure);
    void failPendingStart(const EngineFailure &failure);
    void failStart(const QString &engine, const EngineFailure &failure);
    void scheduleReconcile();
    void reconcile();
    void recordSpawn(EngineProcess *process);
    void forget(const QString &engine);
    void reapStrays();

    QList<EngineProcess *> m_processes;
    UpstreamPool *m_pool;
    EngineStateFile m_stateFile;
    QList<EngineStateFile::Entry> m_entries;
    bool m_open = false;
    QString m_target;             // the engine switchTo() is bringing up, or keeps up
    bool m_startPending = false;  // m_target has not been reported ready or failed yet
    QSet<QString> m_stopRequested;
    bool m_allStoppedPending = false;
    bool m_reconcileQueued = false;
};

} // namespace switchyard
