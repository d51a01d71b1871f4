#pragma once

#include "config/config.h"
#include "engines/enginefailure.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>

#include <chrono>

namespace switchyard {

class HealthCheck;
class HealthPoller;
class UpstreamPool;

// One engine process and its state machine (llama-swap's): Stopped → Starting → Ready → Stopping →
// Stopped. Starting ends when /health answers 200 (ready), or in failed() once the process is gone
// (its exit code and last output, or "no /health within N s" after it was killed). Stopping sends
// SIGTERM to the process group, then SIGKILL after the stop timeout.
class EngineProcess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineProcess)

public:
    enum class State { Stopped, Starting, Ready, Stopping };
    Q_ENUM(State)

    EngineProcess(const EngineConfig &config, UpstreamPool *pool, QObject *parent = nullptr);
    // Kills the process group and waits for it (at most the stop timeout, then SIGKILL).
    ~EngineProcess() override;

    const EngineConfig &config() const { return m_config; }
    QString name() const { return m_config.name; }
    State state() const { return m_state; }
    qint64 pid() const { return m_pid; }               // 0 when no process runs
    quint64 startTime() const { return m_startTime; }  // /proc start time of pid()

    // From Stopped only. Ends in ready() or failed(); stop() meanwhile ends it in plain Stopped.
    void start();
    // From Starting or Ready. Ends in Stopped.
    void stop();
    // Synchronous stop for shutdown: SIGTERM, wait up to the stop timeout, SIGKILL, wait.
    void stopNow();

    static QString stateName(State state);
    // "120 s", "1.5 s": how timeouts read in messages (EngineFailure::seconds).
    static QString secondsText(std::chrono::milliseconds duration) { return EngineFailure::seconds(duration); }

Q_SIGNALS:
    void stateChanged(switchyard::EngineProcess::State state);
    void spawned(qint64 pid);
    void ready();
    // Emitted before the state changes to Stopped.
    void failed(const switchyard::EngineFailure &failure);
    void exited(const switchyard::EngineFailure &failure);   // died on its own while Ready

private:
    void spawn();
    void onStarted();
    void onErrorOccurred(QProcess::ProcessError error);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onHealthy();
    void onStartTimeout();
    void onStopTimeout();
    void beginStop();
    void readOutput(QProcess::ProcessChannel channel);
    void setState(State state);
    void settle(std::optional<EngineFailure> failure, bool wasReady);
    EngineFailure failure(EngineFailure::Kind kind) const;
    void releaseProcess();
    QString outputTail() const;

    EngineConfig m_config;
    UpstreamPool *m_pool;
    State m_state = State::Stopped;
    QPointer<QProcess> m_process;
    HealthCheck *m_precheck = nullptr;
    HealthPoller *m_poller = nullptr;
    QTimer m_startDeadline;
    QTimer m_stopDeadline;
    qint64 m_pid = 0;
    quint64 m_startTime = 0;
    std::optional<EngineFailure> m_pendingFailure;   // why Stopping was entered on our own (start timeout)
    QByteArray m_stderrTail;
    QByteArray m_stdoutTail;
    QByteArray m_partialLine[2];
};

} // namespace switchyard
