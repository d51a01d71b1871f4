#include "engines/processinfo.h"

#include <QDir>
#include <QFile>

namespace switchyard::ProcessInfo {

using namespace Qt::StringLiterals;

namespace {

QByteArray readProcFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();   // /proc files report size 0, so read until the end
}

} // namespace

std::optional<Stat> read(qint64 pid)
{
    if (pid <= 0)
        return std::nullopt;
    const QByteArray text = readProcFile(u"/proc/%1/stat"_s.arg(pid));
    // "PID (COMM) STATE PPID PGRP ...": COMM may hold spaces and ')', so split after the last ')'.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return std::nullopt;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
    if (fields.size() < 20 || fields.at(0).isEmpty())
        return std::nullopt;
    Stat stat;
    stat.pid = pid;
    stat.state = fields.at(0).at(0);
    stat.parentPid = fields.at(1).toLongLong();
    stat.processGroup = fields.at(2).toLongLong();
    stat.startTime = fields.at(19).toULongLong();
    return stat;
}

bool isAlive(qint64 pid)
{
    const std::optional<Stat> stat = read(pid);
    return stat && stat->state != 'Z' && stat->state != 'X';
}

QList<Stat> groupMembers(qint64 processGroup)
{
    QList<Stat> members;
    if (processGroup <= 0)
        return members;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        const std::optional<Stat> stat = read(pid);
        if (stat && stat->processGroup == processGroup && stat->state != 'Z' && stat->state != 'X')
            members.append(*stat);
    }
    return members;
}

QStringList commandLine(qint64 pid)
{
    QByteArray text = readProcFile(u"/proc/%1/cmdline"_s.arg(pid));
    if (text.endsWith('\0'))
        text.chop(1);
    QStringList argv;
    if (text.isEmpty())
        return argv;
    for (const QByteArray &part : text.split('\0'))
        argv.append(QString::fromLocal8Bit(part));
    return argv;
}

QByteArray bootId()
{
    return readProcFile(u"/proc/sys/kernel/random/boot_id"_s).trimmed();
}

} // namespace switchyard::ProcessInfo
