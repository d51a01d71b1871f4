#pragma once

#include <QtGlobal>

class QProcess;

namespace switchyard {

// How every process the engine drivers start is set up, so none outlives us.
namespace ChildProcess {

// Before QProcess::start: the child gets its own process group (so one signal reaches the engine
// and everything it spawned), is SIGKILLed when our process dies (PR_SET_PDEATHSIG; it fires when
// the *thread* that forked dies, so start processes from the main thread), and reads /dev/null.
void prepare(QProcess *process);

// kill(-group, signal). With leaderUnreaped (our QProcess still runs it, so the pid cannot have been
// reused) it falls back to the pid itself, for a child that has not yet made its group.
// False when nothing was there to signal.
bool signalGroup(qint64 processGroup, int signal, bool leaderUnreaped = false);

} // namespace ChildProcess
} // namespace switchyard
