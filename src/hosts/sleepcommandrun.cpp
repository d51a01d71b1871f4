#include "hosts/sleepcommandrun.h"

#include "engines/enginefailure.h"
#include "hosts/hostslogging.h"

#include <QMetaMethod>
#include <QProcess>

#include <csignal>
#include <utility>
#include <unistd.h>

namespace switchyard {

using namespace Qt::StringLiterals;

SleepCommandRun *SleepCommandRun::start(const QString &host, const QStringList &argv, QObject *listener,
                                        std::function<void(const QString &detail)> onEnd)
{
    auto *run = new SleepCommandRun(host, argv);   // no parent: it outlives its starter, ends itself
    connect(run, &SleepCommandRun::ended, listener, std::move(onEnd));
    run->m_process->start();
    return run;
}

SleepCommandRun::SleepCommandRun(const QString &host, const QStringList &argv)
    : m_host(host)
    , m_command(argv.join(u' '))
    , m_process(new QProcess(this))
{
    m_process->setProgram(argv.value(0));
    m_process->setArguments(argv.mid(1));
    m_process->setStandardInputFile(QProcess::nullDevice());   // no pipe that closes when we exit
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    // Runs in the child between fork and exec: async-signal-safe calls only. A session of its
    // own: Ctrl-C or a closed terminal signals our process group, never the command. No
    // PR_SET_PDEATHSIG (unlike an engine's ChildProcess): it must outlive us.
    m_process->setChildProcessModifier([] {
        ::setsid();
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
    });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        finish(status == QProcess::NormalExit ? u"%1: exit code %2"_s.arg(m_command).arg(code)
                                              : u"%1: crashed"_s.arg(m_command));
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish(u"%1: could not start: %2"_s.arg(m_command, whyNotStarted(m_process->program())));
    });
}

// Fixed English, found by looking at the file as an engine's launch failure is: QProcess's
// errorString() comes from Qt's catalogue, and the history (and /admin/events) keeps this.
QString SleepCommandRun::whyNotStarted(const QString &program)
{
    switch (EngineFailure::cannotLaunch(program, EngineFailure::Runner::Process).launch) {
    case EngineFailure::Launch::NotFound: return u"no such file"_s;
    case EngineFailure::Launch::NotExecutable: return u"it is not executable"_s;
    case EngineFailure::Launch::Unknown: break;
    }
    return u"the system could not run it"_s;
}

void SleepCommandRun::finish(const QString &detail)
{
    if (std::exchange(m_ended, true))
        return;
    if (isSignalConnected(QMetaMethod::fromSignal(&SleepCommandRun::ended)))
        emit ended(detail);
    else   // the host that ran it is gone (a reload, a restart): the log is all that is left
        qCInfo(lcHosts, "host %s: sleep command %s", qPrintable(m_host), qPrintable(detail));
    deleteLater();
}

} // namespace switchyard
