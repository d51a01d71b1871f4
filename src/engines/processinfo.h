#pragma once

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <optional>

namespace switchyard {

// What /proc says about a process. A pid alone is not an identity (pids are reused); pid plus
// start time is, within one boot.
namespace ProcessInfo {

struct Stat
{
    qint64 pid = 0;
    qint64 parentPid = 0;
    qint64 processGroup = 0;
    char state = 0;            // 'R', 'S', 'D', 'Z' (zombie: dead, not yet reaped), ...
    quint64 startTime = 0;     // clock ticks after boot (/proc/PID/stat field 22)
};

// nullopt when there is no such process.
std::optional<Stat> read(qint64 pid);
// Exists and is not a zombie.
bool isAlive(qint64 pid);
// Live members of a process group.
QList<Stat> groupMembers(qint64 processGroup);
// argv as the process sees it (/proc/PID/cmdline); empty when gone.
QStringList commandLine(qint64 pid);
// Changes at every boot: start times of an earlier boot mean nothing.
QByteArray bootId();

} // namespace ProcessInfo
} // namespace switchyard
