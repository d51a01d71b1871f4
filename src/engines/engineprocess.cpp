#include "engines/engineprocess.h"

#include "engines/childprocess.h"
#include "engines/enginelogging.h"
#include "engines/healthcheck.h"
#include "engines/healthpoller.h"
#include "engines/processinfo.h"

#include <csignal>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype TailBytes = 8 * 1024;
constexpr int TailLines = 3;
constexpr qsizetype TailLineChars = 300;
// Long enough for a loopback connect, short enough not to hold up a start.
constexpr std::chrono::milliseconds PrecheckTimeout{std::chrono::seconds(1)};
// After SIGKILL a process is gone at once unless it sits in the kernel (D state).
constexpr int KillWaitMs = 5000;

void keepTail(QByteArray &tail, const QByteArray &data)
{
    tail += data;
    if (tail.size() > TailBytes)
        tail.remove(0, tail.size() - TailBytes);
}

} // namespace

EngineProcess::EngineProcess(const EngineConfig &config, UpstreamPool *pool, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_pool(pool)
    , m_poller(new HealthPoller(pool, config.url, this))
{
    connect(m_poller, &HealthPoller::reached, this, &EngineProcess::onHealthy);
    m_startDeadline.setSingleShot(true);
    connect(&m_startDeadline, &QTimer::timeout, this, &EngineProcess::onStartTimeout);
    m_stopDeadline.setSingleShot(true);
    connect(&m_stopDeadline, &QTimer::timeout, this, &EngineProcess::onStopTimeout);
}

EngineProcess::~EngineProcess()
{
    stopNow();
}

QString EngineProcess::stateName(State state)
{
    switch (state) {
    case State::Stopped: return u"stopped"_s;
    case State::Starting: return u"starting"_s;
    case State::Ready: return u"ready"_s;
    case State::Stopping: return u"stopping"_s;
    }
    return QString();
}

EngineFailure EngineProcess::failure(EngineFailure::Kind kind) const
{
    EngineFailure failure = EngineFailure::of(kind);
    failure.engine = m_config.name;
    return failure;
}

void EngineProcess::start()
{
    if (m_state != State::Stopped)
        return;
    m_pendingFailure.reset();
    m_stderrTail.clear();
    m_stdoutTail.clear();
    m_partialLine[0].clear();
    m_partialLine[1].clear();
    setState(State::Starting);
    m_startDeadline.start(m_config.startTimeout);

    // A server we did not start on our port would answer /health for us and hide that our engine
    // never came up (typically a llama-server someone started by hand).
    m_precheck = new HealthCheck(m_pool, m_config.url, PrecheckTimeout, this);
    connect(m_precheck, &HealthCheck::done, this, [this](HealthCheck::Result result, const QString &) {
        m_precheck->deleteLater();
        m_precheck = nullptr;
        if (m_state != State::Starting)
            return;
        if (result == HealthCheck::Result::Healthy) {
            EngineFailure taken = failure(EngineFailure::Kind::ForeignServer);
            taken.url = m_config.url;
            settle(taken, false);
            return;
        }
        spawn();
    });
    m_precheck->start();
}

void EngineProcess::spawn()
{
    if (m_config.argv.isEmpty()) {
        settle(failure(EngineFailure::Kind::NothingToStart), false);
        return;
    }
    m_process = new QProcess(this);
    ChildProcess::prepare(m_process);
    m_process->setProgram(m_config.argv.first());
    m_process->setArguments(m_config.argv.mid(1));
    connect(m_process, &QProcess::started, this, &EngineProcess::onStarted);
    connect(m_process, &QProcess::errorOccurred, this, &EngineProcess::onErrorOccurred);
    connect(m_process, &QProcess::finished, this, &EngineProcess::onFinished);
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { readOutput(QProcess::StandardError); });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { readOutput(QProcess::StandardOutput); });
    qCDebug(lcEngines) << "engine" << m_config.name << "starting:" << m_config.argv;
    m_process->start();
}

void EngineProcess::onStarted()
{
    m_pid = m_process->processId();
    if (const std::optional<ProcessInfo::Stat> stat = ProcessInfo::read(m_pid))
        m_startTime = stat->startTime;
    emit spawned(m_pid);
    // Every start is a switch someone waits for (the supervisor starts only what it switches to).
    if (m_state == State::Starting)
        m_poller->start(HealthPoller::Goal::Healthy, HealthPoller::SwitchInterval);
}

void EngineProcess::onErrorOccurred(QProcess::ProcessError error)
{
    // Only a failed exec ends without finished(); every other error is followed by it.
    if (error != QProcess::FailedToStart || !m_process)
        return;
    EngineFailure reason = failure(EngineFailure::Kind::CannotLaunch);
    const EngineFailure launch = EngineFailure::cannotLaunch(m_config.argv.first(), EngineFailure::Runner::Process);
    reason.program = launch.program;
    reason.launch = launch.launch;
    releaseProcess();
    settle(m_state == State::Starting ? std::optional<EngineFailure>(reason) : m_pendingFailure, false);
}

void EngineProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    const qint64 group = m_process ? m_process->processId() : m_pid;
    readOutput(QProcess::StandardError);
    readOutput(QProcess::StandardOutput);
    // Whatever the engine spawned and left behind (a router's model servers) goes with it.
    ChildProcess::signalGroup(group, SIGKILL);
    releaseProcess();

    EngineFailure reason = failure(EngineFailure::Kind::Ended);
    reason.exit = EngineFailure::Exit{exitCode, status == QProcess::CrashExit};
    reason.outputTail = outputTail();

    switch (m_state) {
    case State::Starting:
        settle(reason, false);
        return;
    case State::Ready:
        settle(reason, true);
        return;
    case State::Stopping:
        settle(m_pendingFailure, false);
        return;
    case State::Stopped:
        return;
    }
}

void EngineProcess::onHealthy()
{
    if (m_state != State::Starting)
        return;
    m_startDeadline.stop();
    setState(State::Ready);
    emit ready();
}

void EngineProcess::onStartTimeout()
{
    if (m_state != State::Starting)
        return;
    EngineFailure reason = failure(EngineFailure::Kind::NoHealth);
    reason.timeout = m_config.startTimeout;
    reason.lastTry = m_poller->lastDetail();
    reason.outputTail = outputTail();
    if (!m_process) {
        // Still checking the port: nothing was started.
        delete m_precheck;
        m_precheck = nullptr;
        settle(reason, false);
        return;
    }
    m_pendingFailure = reason;
    beginStop();
}

void EngineProcess::stop()
{
    switch (m_state) {
    case State::Stopped:
    case State::Stopping:
        return;
    case State::Starting:
    case State::Ready:
        break;
    }
    m_pendingFailure.reset();
    if (!m_process) {
        delete m_precheck;
        m_precheck = nullptr;
        settle(std::nullopt, false);
        return;
    }
    beginStop();
}

void EngineProcess::beginStop()
{
    m_poller->stop();
    m_startDeadline.stop();
    setState(State::Stopping);
    if (!m_process)
        return;
    ChildProcess::signalGroup(m_process->processId(), SIGTERM, true);
    m_stopDeadline.start(m_config.stopTimeout);
}

void EngineProcess::onStopTimeout()
{
    if (m_state != State::Stopping || !m_process)
        return;
    qCWarning(lcEngines).noquote() << u"engine %1 did not stop within %2 of SIGTERM; sending SIGKILL"_s
                                          .arg(m_config.name, secondsText(m_config.stopTimeout));
    ChildProcess::signalGroup(m_process->processId(), SIGKILL, true);
}

void EngineProcess::stopNow()
{
    delete m_precheck;
    m_precheck = nullptr;
    m_poller->stop();
    m_startDeadline.stop();
    m_stopDeadline.stop();
    if (m_process) {
        m_process->disconnect(this);
        if (m_process->state() != QProcess::NotRunning) {
            const qint64 group = m_process->processId();
            ChildProcess::signalGroup(group, SIGTERM, true);
            if (!m_process->waitForFinished(int(m_config.stopTimeout.count()))) {
                ChildProcess::signalGroup(group, SIGKILL, true);
                m_process->waitForFinished(KillWaitMs);
            }
            ChildProcess::signalGroup(group, SIGKILL);
        }
        delete m_process;
    }
    // For shutdown: nobody listens any more, so no signals.
    m_state = State::Stopped;
    m_pid = 0;
    m_startTime = 0;
}

void EngineProcess::readOutput(QProcess::ProcessChannel channel)
{
    if (!m_process)
        return;
    const bool err = channel == QProcess::StandardError;
    const QByteArray data = err ? m_process->readAllStandardError() : m_process->readAllStandardOutput();
    if (data.isEmpty())
        return;
    keepTail(err ? m_stderrTail : m_stdoutTail, data);
    if (!lcEngines().isDebugEnabled())
        return;
    QByteArray &partial = m_partialLine[err ? 1 : 0];
    partial += data;
    qsizetype newline;
    while ((newline = partial.indexOf('\n')) >= 0) {
        qCDebug(lcEngines).noquote() << u"engine "_s + m_config.name + u" printed: "_s + QString::fromUtf8(partial.left(newline));
        partial.remove(0, newline + 1);
    }
}

QString EngineProcess::outputTail() const
{
    const QByteArray &source = m_stderrTail.trimmed().isEmpty() ? m_stdoutTail : m_stderrTail;
    QStringList lines;
    const QList<QByteArray> raw = source.split('\n');
    for (auto it = raw.crbegin(); it != raw.crend() && lines.size() < TailLines; ++it) {
        QString line = QString::fromUtf8(it->trimmed());
        if (line.isEmpty())
            continue;
        if (line.size() > TailLineChars)
            line = line.left(TailLineChars) + u'…';
        lines.prepend(line);
    }
    return lines.join(u" | "_s);
}

void EngineProcess::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

// failure by value: callers pass m_pendingFailure, which is cleared here.
void EngineProcess::settle(std::optional<EngineFailure> failure, bool wasReady)
{
    m_poller->stop();
    m_startDeadline.stop();
    m_stopDeadline.stop();
    m_pid = 0;
    m_startTime = 0;
    m_pendingFailure.reset();
    m_state = State::Stopped;
    // failed()/exited() come first: a listener must know why before it sees Stopped.
    if (wasReady)
        emit exited(failure.value_or(EngineFailure::of(EngineFailure::Kind::Ended)));
    else if (failure)
        emit failed(*failure);
    emit stateChanged(State::Stopped);
}

void EngineProcess::releaseProcess()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
}

} // namespace switchyard
