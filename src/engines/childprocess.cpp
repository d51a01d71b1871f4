#include "engines/childprocess.h"

#include <QProcess>

#include <cerrno>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace switchyard::ChildProcess {

void prepare(QProcess *process)
{
    process->setStandardInputFile(QProcess::nullDevice());
    const pid_t parent = ::getpid();
    // Runs in the child between fork and exec: async-signal-safe calls only.
    process->setChildProcessModifier([parent] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The parent may have died before prctl took effect; then nobody would ever kill us.
        if (::getppid() != parent)
            ::_exit(127);
        // Dispositions and masks are inherited; an engine must see SIGTERM and SIGPIPE normally.
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
    });
}

bool signalGroup(qint64 processGroup, int signal, bool leaderUnreaped)
{
    if (processGroup <= 0)
        return false;
    if (::kill(-pid_t(processGroup), signal) == 0)
        return true;
    return leaderUnreaped && errno == ESRCH && ::kill(pid_t(processGroup), signal) == 0;
}

} // namespace switchyard::ChildProcess
