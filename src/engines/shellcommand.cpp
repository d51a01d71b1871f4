#include "engines/shellcommand.h"

#include "engines/childprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <csignal>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 TailBytes = 8 * 1024;
constexpr int TailLines = 3;
constexpr int TerminateWaitMs = 2000;
} // namespace

ShellCommand::ShellCommand(const QString &command, const QString &logFile, QObject *parent)
    : QObject(parent)
    , m_command(command)
    , m_logFile(logFile)
{
}

ShellCommand::~ShellCommand()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        const qint64 group = m_process->processId();
        ChildProcess::signalGroup(group, SIGTERM, true);
        if (!m_process->waitForFinished(TerminateWaitMs)) {
            ChildProcess::signalGroup(group, SIGKILL, true);
            m_process->waitForFinished(TerminateWaitMs);
        }
    }
}

void ShellCommand::start()
{
    QDir().mkpath(QFileInfo(m_logFile).absolutePath());
    m_logStart = QFileInfo(m_logFile).size();
    m_process = new QProcess(this);
    ChildProcess::prepare(m_process);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_logFile, QIODevice::Append);
    m_process->setProgram(u"/bin/sh"_s);
    m_process->setArguments({u"-c"_s, m_command});
    connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        emit finished(exitCode, status == QProcess::CrashExit);
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit failedToStart();
    });
    m_process->start();
}

bool ShellCommand::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void ShellCommand::terminate()
{
    if (isRunning())
        ChildProcess::signalGroup(m_process->processId(), SIGTERM, true);
}

QString ShellCommand::outputTail() const
{
    QFile file(m_logFile);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    const qint64 from = std::max(m_logStart, file.size() - TailBytes);
    file.seek(from);
    const QList<QByteArray> raw = file.readAll().split('\n');
    QStringList lines;
    for (auto it = raw.crbegin(); it != raw.crend() && lines.size() < TailLines; ++it) {
        const QString line = QString::fromUtf8(it->trimmed());
        if (!line.isEmpty())
            lines.prepend(line.left(300));
    }
    return lines.join(u" | "_s);
}

} // namespace switchyard
