#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>

namespace switchyard {

// One `/bin/sh -c COMMAND` of a "command" host, set up like every engine process (own process
// group, dies with us). Its output is appended to a log file rather than a pipe: a command that
// leaves a server running in the background (`llama-server ... &`) must not get SIGPIPE once the
// shell has exited.
class ShellCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShellCommand)

public:
    ShellCommand(const QString &command, const QString &logFile, QObject *parent = nullptr);
    // A command still running is stopped with its process group (SIGTERM, SIGKILL after 2 s).
    ~ShellCommand() override;

    void start();
    bool isRunning() const;
    void terminate();
    // The last lines it wrote since start(), " | "-joined.
    QString outputTail() const;

Q_SIGNALS:
    void finished(int exitCode, bool crashed);
    // /bin/sh itself did not run: the system's reason.
    void failedToStart();   // /bin/sh did not run (what is wrong: EngineFailure::cannotLaunch)

private:
    QString m_command;
    QString m_logFile;
    qint64 m_logStart = 0;
    QPointer<QProcess> m_process;
};

} // namespace switchyard
