#include "engines/enginesupervisor.h"

#include "engines/childprocess.h"
#include "engines/enginelogging.h"
#include "engines/processinfo.h"
#include "upstream/upstreampool.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QThread>

#include <csignal>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// A SIGKILLed process is gone at once unless it sits in the kernel (D state).
constexpr std::chrono::milliseconds StrayKillWait{std::chrono::seconds(5)};

} // namespace

EngineSupervisor::EngineSupervisor(const QList<EngineConfig> &engines, const QString &stateFile, UpstreamPool *pool,
                                   QObject *parent)
    : QObject(parent)
    , m_pool(pool ? pool : new UpstreamPool(this))
    , m_stateFile(stateFile)
{
    for (const EngineConfig &config : engines) {
        auto *process = new EngineProcess(config, m_pool, this);
        m_processes.append(process);
        connect(process, &EngineProcess::stateChanged, this,
                [this, process](State state) { onStateChanged(process, state); });
        connect(process, &EngineProcess::spawned, this, [this, process] { recordSpawn(process); });
        connect(process, &EngineProcess::ready, this, [this, process] { onReady(process); });
        connect(process, &EngineProcess::failed, this,
                [this, process](const EngineFailure &failure) { onFailed(process, failure); });
        connect(process, &EngineProcess::exited, this,
                [this, process](const EngineFailure &failure) { onExited(process, failure); });
    }
}

EngineSupervisor::~EngineSupervisor()
{
    stopAllNow();
}

QString EngineSupervisor::defaultStateDir()
{
    QString base = qEnvironmentVariable("XDG_STATE_HOME");
    if (base.isEmpty() || !QDir::isAbsolutePath(base))
        base = QDir::homePath() + u"/.local/state"_s;
    return base + u"/switchyard"_s;
}

bool EngineSupervisor::open(EngineFailure *failure)
{
    if (m_open)
        return true;
    if (!m_stateFile.lock(failure))
        return false;
    reapStrays();
    QFileDevice::FileError why = QFileDevice::NoError;
    if (!m_stateFile.write({}, &why)) {
        *failure = EngineFailure::stateFileUnavailable(m_stateFile.path(), EngineFailure::StateFile::NotWritten);
        failure->fileError = int(why);
        return false;
    }
    m_open = true;
    return true;
}

// Engines an earlier run started and a crash left behind. Each led its own process group, so the
// group finds it and whatever it spawned; the start time tells ours from a process that got the
// same pid later.
void EngineSupervisor::reapStrays()
{
    QList<qint64> killed;
    for (const EngineStateFile::Entry &entry : m_stateFile.read()) {
        const std::optional<ProcessInfo::Stat> leader = ProcessInfo::read(entry.pid);
        // A pid is not reused while its group still exists, so another process on it means our
        // engine and its whole group are long gone.
        if (leader && leader->startTime != entry.startTime)
            continue;
        QList<ProcessInfo::Stat> members = ProcessInfo::groupMembers(entry.pid);
        members.removeIf([&](const ProcessInfo::Stat &s) { return s.startTime < entry.startTime; });
        if (members.isEmpty())
            continue;
        qCWarning(lcEngines).noquote()
                << u"stopping engine %1 (pid %2, %3 process(es)) left behind by an earlier run: %4"_s
                       .arg(entry.engine)
                       .arg(entry.pid)
                       .arg(members.size())
                       .arg(entry.argv.join(u' '));
        ChildProcess::signalGroup(entry.pid, SIGKILL);
        for (const ProcessInfo::Stat &member : members)
            ::kill(pid_t(member.pid), SIGKILL);
        killed.append(entry.pid);
    }
    // Wait until they are really gone: the next engine needs their port and their VRAM.
    QDeadlineTimer deadline(StrayKillWait);
    for (const qint64 group : std::as_const(killed)) {
        while (!ProcessInfo::groupMembers(group).isEmpty() && !deadline.hasExpired())
            QThread::msleep(10);
    }
}

QStringList EngineSupervisor::engineNames() const
{
    QStringList names;
    for (const EngineProcess *process : m_processes)
        names.append(process->name());
    return names;
}

EngineProcess *EngineSupervisor::find(const QString &engine) const
{
    for (EngineProcess *process : m_processes) {
        if (process->name() == engine)
            return process;
    }
    return nullptr;
}

const EngineConfig *EngineSupervisor::engineConfig(const QString &engine) const
{
    const EngineProcess *process = find(engine);
    return process ? &process->config() : nullptr;
}

EngineSupervisor::State EngineSupervisor::state(const QString &engine) const
{
    const EngineProcess *process = find(engine);
    return process ? process->state() : State::Stopped;
}

qint64 EngineSupervisor::pid(const QString &engine) const
{
    const EngineProcess *process = find(engine);
    return process ? process->pid() : 0;
}

QString EngineSupervisor::readyEngine() const
{
    for (const EngineProcess *process : m_processes) {
        if (process->state() == State::Ready)
            return process->name();
    }
    return QString();
}

void EngineSupervisor::switchTo(const QString &engine)
{
    EngineProcess *process = find(engine);
    if (!process || !m_open) {
        EngineFailure reason;
        if (!process) {
            reason = EngineFailure::of(EngineFailure::Kind::NoSuchEngine);
            reason.engines = engineNames();
        } else {
            reason = EngineFailure::stateFileUnavailable(m_stateFile.path(), EngineFailure::StateFile::Unknown);
        }
        reason.engine = engine;
        QMetaObject::invokeMethod(this, [this, engine, reason] { failStart(engine, reason); }, Qt::QueuedConnection);
        return;
    }
    if (m_startPending && m_target != engine) {
        EngineFailure superseded = EngineFailure::of(EngineFailure::Kind::Superseded);
        superseded.engine = m_target;
        superseded.other = engine;
        failPendingStart(superseded);
    }
    const bool stopping = m_stopRequested.contains(engine);
    m_target = engine;
    if (process->state() == State::Ready && !stopping) {
        m_startPending = false;
        QMetaObject::invokeMethod(this, [this, engine] { emit engineReady(engine); }, Qt::QueuedConnection);
    } else {
        m_startPending = true;
    }
    scheduleReconcile();
}

void EngineSupervisor::stop(const QString &engine)
{
    EngineProcess *process = find(engine);
    if (m_target == engine) {
        failPendingStart(EngineFailure::of(EngineFailure::Kind::StoppedBeforeReady));
        m_target.clear();
    }
    if (!process || process->state() == State::Stopped) {
        QMetaObject::invokeMethod(this, [this, engine] { emit engineStopped(engine); }, Qt::QueuedConnection);
        return;
    }
    m_stopRequested.insert(engine);
    scheduleReconcile();
}

void EngineSupervisor::stopAll()
{
    failPendingStart(EngineFailure::of(EngineFailure::Kind::StoppedBeforeReady));
    m_target.clear();
    for (const EngineProcess *process : std::as_const(m_processes)) {
        if (process->state() != State::Stopped)
            m_stopRequested.insert(process->name());
    }
    m_allStoppedPending = true;
    scheduleReconcile();
}

void EngineSupervisor::stopAllNow()
{
    for (EngineProcess *process : std::as_const(m_processes))
        process->stopNow();
    m_target.clear();
    m_startPending = false;
    m_stopRequested.clear();
    m_allStoppedPending = false;
    if (m_open && !m_entries.isEmpty()) {
        m_entries.clear();
        m_stateFile.write(m_entries);
    }
}

void EngineSupervisor::failPendingStart(const EngineFailure &failure)
{
    if (!m_startPending)
        return;
    const QString engine = m_target;
    m_startPending = false;
    m_target.clear();
    failStart(engine, failure);
}

void EngineSupervisor::failStart(const QString &engine, const EngineFailure &failure)
{
    emit engineFailedToStart(engine, failure);
    emit engineStartFailed(engine, failure.toString());
}

void EngineSupervisor::scheduleReconcile()
{
    if (m_reconcileQueued)
        return;
    m_reconcileQueued = true;
    QMetaObject::invokeMethod(this, &EngineSupervisor::reconcile, Qt::QueuedConnection);
}

// Moves the processes toward what was asked: only the target may run, and it starts only once
// every other engine is fully stopped (they share the GPU, and often the port).
void EngineSupervisor::reconcile()
{
    m_reconcileQueued = false;
    bool othersStopped = true;
    for (EngineProcess *process : std::as_const(m_processes)) {
        const bool wanted = process->name() == m_target && !m_stopRequested.contains(process->name());
        if (!wanted && (process->state() == State::Starting || process->state() == State::Ready))
            process->stop();
        if (process->name() != m_target && process->state() != State::Stopped)
            othersStopped = false;
    }
    if (m_startPending && othersStopped) {
        EngineProcess *target = find(m_target);
        if (target && target->state() == State::Stopped && !m_stopRequested.contains(m_target))
            target->start();
    }
    if (m_allStoppedPending) {
        const bool all = std::all_of(m_processes.cbegin(), m_processes.cend(),
                                     [](const EngineProcess *p) { return p->state() == State::Stopped; });
        if (all) {
            m_allStoppedPending = false;
            emit allStopped();
        }
    }
}

void EngineSupervisor::onStateChanged(EngineProcess *process, State state)
{
    const QString engine = process->name();
    qCDebug(lcEngines).noquote() << "engine" << engine << EngineProcess::stateName(state);
    emit stateChanged(engine, state);
    if (state == State::Stopped) {
        forget(engine);
        if (m_stopRequested.remove(engine))
            emit engineStopped(engine);
    }
    scheduleReconcile();
}

void EngineSupervisor::onReady(EngineProcess *process)
{
    const QString engine = process->name();
    if (engine == m_target && m_startPending && !m_stopRequested.contains(engine)) {
        m_startPending = false;
        emit engineReady(engine);
    }
    scheduleReconcile();
}

void EngineSupervisor::onFailed(EngineProcess *process, const EngineFailure &failure)
{
    const QString engine = process->name();
    qCDebug(lcEngines).noquote() << "engine" << engine << "failed:" << failure.toString();
    if (engine == m_target && m_startPending)
        failPendingStart(failure);
}

void EngineSupervisor::onExited(EngineProcess *process, const EngineFailure &failure)
{
    const QString engine = process->name();
    qCWarning(lcEngines).noquote() << u"engine %1 exited on its own: %2"_s.arg(engine, failure.toString());
    if (engine == m_target)
        m_target.clear();
    emit engineDied(engine, failure);
    emit engineExited(engine, failure.toString());
}

void EngineSupervisor::recordSpawn(EngineProcess *process)
{
    forget(process->name());
    m_entries.append({process->name(), process->pid(), process->startTime(), process->config().argv});
    m_stateFile.write(m_entries);
}

void EngineSupervisor::forget(const QString &engine)
{
    const qsizetype removed = m_entries.removeIf([&](const EngineStateFile::Entry &e) { return e.engine == engine; });
    if (removed > 0)
        m_stateFile.write(m_entries);
}

} // namespace switchyard
