#include "engines/commanddriver.h"

#include "engines/enginelogging.h"
#include "engines/engineprocess.h"
#include "engines/healthpoller.h"
#include "engines/shellcommand.h"
#include "upstream/upstreampool.h"

#include <QTimer>

#include <memory>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

EngineFailure shellFailed(EngineFailure::Runner runner)
{
    return EngineFailure::cannotLaunch(u"/bin/sh"_s, runner);
}

} // namespace

CommandDriver::CommandDriver(const HostConfig &host, const QString &stateDir, UpstreamPool *pool, QObject *parent)
    : EngineDriver(parent)
    , m_host(host)
    , m_stateDir(stateDir)
    , m_pool(pool ? pool : new UpstreamPool(this))
{
}

CommandDriver::~CommandDriver() = default;

QString CommandDriver::logFile(const QString &engine) const
{
    return m_stateDir + u"/command-%1-%2.log"_s.arg(m_host.name, engine);
}

const EngineConfig *CommandDriver::engine(const QString &name) const
{
    for (const EngineConfig &e : m_host.engines) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

void CommandDriver::enqueue(std::function<void(Done)> operation)
{
    m_queue.append(std::move(operation));
    if (!m_busy)
        QMetaObject::invokeMethod(this, &CommandDriver::runNext, Qt::QueuedConnection);
}

void CommandDriver::runNext()
{
    if (m_busy || m_queue.isEmpty())
        return;
    m_busy = true;
    const auto operation = m_queue.takeFirst();
    QPointer<CommandDriver> self(this);
    operation([self] {
        if (!self)
            return;
        self->m_busy = false;
        QMetaObject::invokeMethod(self, &CommandDriver::runNext, Qt::QueuedConnection);
    });
}

void CommandDriver::checkAll(std::function<void(const Results &, const QString &)> done)
{
    struct Pending
    {
        Results results;
        QString detail;
        qsizetype left = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = m_host.engines.size();
    if (pending->left == 0) {
        done(pending->results, QString());
        return;
    }
    for (const EngineConfig &e : std::as_const(m_host.engines)) {
        auto *check = new HealthCheck(m_pool, e.url, HealthCheck::DefaultTimeout, this);
        const QString name = e.name;
        connect(check, &HealthCheck::done, this,
                [check, name, pending, done](HealthCheck::Result result, const QString &detail) {
                    check->deleteLater();
                    pending->results.insert(name, result);
                    if (pending->detail.isEmpty())
                        pending->detail = detail;
                    if (--pending->left == 0)
                        done(pending->results, pending->detail);
                });
        check->start();
    }
}

// Engines that share a URL cannot be told apart by /health: the one started last wins.
QString CommandDriver::pick(const Results &results) const
{
    QString first;
    for (const EngineConfig &e : m_host.engines) {
        if (results.value(e.name) != HealthCheck::Result::Healthy)
            continue;
        if (e.name == m_running)
            return e.name;
        if (first.isEmpty())
            first = e.name;
    }
    return first;
}

void CommandDriver::probe()
{
    checkAll([this](const Results &results, const QString &detail) {
        const bool allUnreachable = !results.isEmpty()
                && std::all_of(results.cbegin(), results.cend(),
                               [](HealthCheck::Result r) { return r == HealthCheck::Result::Unreachable; });
        if (allUnreachable) {
            EngineFailure failure = EngineFailure::of(EngineFailure::Kind::NoEngineReachable);
            failure.host = m_host.name;
            failure.lastTry = detail;
            emit unreachable(failure);
            return;
        }
        m_running = pick(results);
        emit statusKnown(m_running);
    });
}

void CommandDriver::startEngine(const QString &name)
{
    enqueue([this, name](Done done) { doStart(name, std::move(done)); });
}

void CommandDriver::stopEngine(const QString &name)
{
    enqueue([this, name](Done done) {
        const EngineConfig *e = engine(name);
        if (!e) {
            emit engineStopped(name);
            done();
            return;
        }
        runStop(*e, [this, name, done](const std::optional<EngineFailure> &error) {
            if (!error)
                emit engineStopped(name);
            else
                emit unreachable(*error);
            done();
        });
    });
}

void CommandDriver::doStart(const QString &name, Done done)
{
    const EngineConfig *target = engine(name);
    if (!target) {
        EngineFailure failure = EngineFailure::of(EngineFailure::Kind::NoSuchEngine);
        failure.host = m_host.name;
        failure.engine = name;
        emit engineStartFailed(name, failure);
        done();
        return;
    }
    const EngineConfig config = *target;
    checkAll([this, config, done](const Results &results, const QString &) {
        const bool targetUp = results.value(config.name) == HealthCheck::Result::Healthy;
        const bool shared = std::any_of(m_host.engines.cbegin(), m_host.engines.cend(), [&](const EngineConfig &e) {
            return e.name != config.name && e.url == config.url;
        });
        if (targetUp && (!shared || m_running == config.name)) {
            m_running = config.name;
            emit engineStarted(config.name);
            done();
            return;
        }
        // Whatever else runs goes first: engines of one host share the GPU, often the port too.
        QStringList toStop;
        for (const EngineConfig &e : std::as_const(m_host.engines)) {
            if (e.name == config.name)
                continue;
            const bool up = results.value(e.name) == HealthCheck::Result::Healthy;
            if (e.name == m_running || (up && e.url != config.url) || (targetUp && e.url == config.url))
                toStop.append(e.name);
        }
        stopEach(toStop, [this, config, done](const std::optional<EngineFailure> &error) {
            if (error) {
                emit engineStartFailed(config.name, *error);
                done();
                return;
            }
            runStart(config, done);
        });
    });
}

void CommandDriver::stopEach(QStringList names, StopDone done)
{
    if (names.isEmpty()) {
        done(std::nullopt);
        return;
    }
    const EngineConfig *e = engine(names.takeFirst());
    runStop(*e, [this, names, done](const std::optional<EngineFailure> &error) {
        if (error)
            done(error);
        else
            stopEach(names, done);
    });
}

void CommandDriver::runStart(const EngineConfig &config, Done done)
{
    if (ShellCommand *old = m_startCommands.value(config.name))
        delete old;   // a foreground start line from before: it stops with its group
    auto *command = new ShellCommand(config.startCommand, logFile(config.name), this);
    m_startCommands.insert(config.name, command);
    auto *poller = new HealthPoller(m_pool, config.url, this);
    auto *deadline = new QTimer(this);
    deadline->setSingleShot(true);

    auto ended = std::make_shared<bool>(false);
    // Ends the start once: ok, or failed with a reason.
    const QPointer<ShellCommand> guard(command);
    auto finish = [this, config, guard, poller, deadline, ended, done](const std::optional<EngineFailure> &failure) {
        if (*ended)
            return;
        *ended = true;
        poller->deleteLater();
        deadline->deleteLater();
        if (!failure) {
            m_running = config.name;
            emit engineStarted(config.name);
        } else {
            if (m_running == config.name)
                m_running.clear();
            if (ShellCommand *command = guard; command && command->isRunning())
                command->terminate();
            emit engineStartFailed(config.name, *failure);
        }
        done();
    };

    connect(poller, &HealthPoller::reached, this, [finish] { finish(std::nullopt); });
    connect(command, &ShellCommand::failedToStart, this, [finish] {
        finish(shellFailed(EngineFailure::Runner::StartCommand));
    });
    connect(command, &ShellCommand::finished, this, [config, command, finish, ended](int exitCode, bool crashed) {
        // Exit 0 is a start line that put the server in the background: keep waiting for /health.
        if (*ended || (exitCode == 0 && !crashed))
            return;
        EngineFailure failure = EngineFailure::of(EngineFailure::Kind::Ended);
        failure.runner = EngineFailure::Runner::StartCommand;
        failure.engine = config.name;
        failure.exit = EngineFailure::Exit{exitCode, crashed};
        failure.outputTail = command->outputTail();
        finish(failure);
    });
    connect(deadline, &QTimer::timeout, this, [this, config, command, poller, finish, ended] {
        if (*ended)
            return;
        EngineFailure reason = EngineFailure::of(EngineFailure::Kind::NoHealth);
        reason.runner = EngineFailure::Runner::StartCommand;
        reason.engine = config.name;
        reason.timeout = config.startTimeout;
        reason.lastTry = poller->lastDetail();
        reason.outputTail = command->outputTail();
        poller->stop();
        // Do not leave a half-started engine behind: its stop line runs before the failure is told.
        runStop(config, [finish, reason](const std::optional<EngineFailure> &) { finish(reason); });
    });

    qCDebug(lcEngines).noquote() << "host" << m_host.name << "engine" << config.name << "start:" << config.startCommand;
    deadline->start(config.startTimeout);
    poller->start(HealthPoller::Goal::Healthy, HealthPoller::SwitchInterval);   // a switch waits for it
    command->start();
}

void CommandDriver::runStop(const EngineConfig &config, StopDone done)
{
    auto *command = new ShellCommand(config.stopCommand, logFile(config.name), this);
    auto *poller = new HealthPoller(m_pool, config.url, this);
    auto *deadline = new QTimer(this);
    deadline->setSingleShot(true);
    auto ended = std::make_shared<bool>(false);
    // How the stop line ended, when it did not end well: a stop that times out tells it.
    auto exit = std::make_shared<std::optional<EngineFailure::Exit>>();
    auto exitTail = std::make_shared<QString>();

    auto finish = [this, config, command, poller, deadline, ended, done](const std::optional<EngineFailure> &failure) {
        if (*ended)
            return;
        *ended = true;
        poller->deleteLater();
        deadline->deleteLater();
        // A stop line still busy after the engine is gone may finish on its own; past the
        // deadline it goes with its group.
        if (command->isRunning()) {
            connect(command, &ShellCommand::finished, command, &QObject::deleteLater);
            if (failure)
                command->terminate();
        } else {
            command->deleteLater();
        }
        if (!failure) {
            // A start line still in the foreground is the engine itself (or its ssh): end it too.
            if (ShellCommand *start = m_startCommands.take(config.name)) {
                if (start->isRunning()) {
                    connect(start, &ShellCommand::finished, start, &QObject::deleteLater);
                    start->terminate();
                } else {
                    start->deleteLater();
                }
            }
            if (m_running == config.name)
                m_running.clear();
        }
        done(failure);
    };

    connect(poller, &HealthPoller::reached, this, [finish] { finish(std::nullopt); });
    connect(command, &ShellCommand::failedToStart, this, [finish] {
        finish(shellFailed(EngineFailure::Runner::StopCommand));
    });
    connect(command, &ShellCommand::finished, this, [this, config, command, exit, exitTail](int exitCode, bool crashed) {
        if (exitCode != 0 || crashed) {
            *exit = EngineFailure::Exit{exitCode, crashed};
            *exitTail = command->outputTail();
            EngineFailure ended = EngineFailure::of(EngineFailure::Kind::Ended);
            ended.runner = EngineFailure::Runner::StopCommand;
            ended.exit = *exit;
            ended.outputTail = *exitTail;
            qCWarning(lcEngines).noquote() << u"host %1: the stop command of engine %2 %3"_s
                                                  .arg(m_host.name, config.name, ended.toString());
        }
    });
    connect(deadline, &QTimer::timeout, this, [this, config, finish, exit, exitTail] {
        EngineFailure reason = EngineFailure::of(EngineFailure::Kind::StillAnswers);
        reason.runner = EngineFailure::Runner::StopCommand;
        reason.host = m_host.name;
        reason.engine = config.name;
        reason.timeout = config.stopTimeout;
        reason.exit = *exit;
        reason.outputTail = *exitTail;
        finish(reason);
    });

    qCDebug(lcEngines).noquote() << "host" << m_host.name << "engine" << config.name << "stop:" << config.stopCommand;
    deadline->start(config.stopTimeout);
    poller->start(HealthPoller::Goal::Gone);
    command->start();
}

} // namespace switchyard
