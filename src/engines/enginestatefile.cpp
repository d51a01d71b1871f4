#include "engines/enginestatefile.h"

#include "engines/enginelogging.h"
#include "engines/processinfo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>

namespace switchyard {

using namespace Qt::StringLiterals;

EngineStateFile::EngineStateFile(QString path)
    : m_path(std::move(path))
{
}

EngineStateFile::~EngineStateFile() = default;

bool EngineStateFile::lock(EngineFailure *failure)
{
    using StateFile = EngineFailure::StateFile;
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *failure = EngineFailure::stateFileUnavailable(m_path, StateFile::NoFolder);
        return false;
    }
    auto lock = std::make_unique<QLockFile>(m_path + u".lock"_s);
    // Only a dead holder makes the lock stale: a supervisor may run for months.
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) {
        if (lock->error() != QLockFile::LockFailedError) {
            *failure = EngineFailure::stateFileUnavailable(m_path, StateFile::NotLocked);
            return false;
        }
        *failure = EngineFailure::stateFileUnavailable(m_path, StateFile::HeldByOther);
        QString machine;
        lock->getLockInfo(&failure->holderPid, &machine, &failure->holder);
        return false;
    }
    m_lock = std::move(lock);
    return true;
}

QList<EngineStateFile::Entry> EngineStateFile::read() const
{
    QList<Entry> entries;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return entries;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    // Start times count from boot: after a reboot every pid in the file means someone else.
    if (root.value("boot_id"_L1).toString().toLatin1() != ProcessInfo::bootId())
        return entries;
    const QJsonArray list = root.value("engines"_L1).toArray();
    for (const QJsonValue &value : list) {
        const QJsonObject o = value.toObject();
        Entry entry;
        entry.engine = o.value("engine"_L1).toString();
        entry.pid = o.value("pid"_L1).toInteger();
        const QJsonValue startTime = o.value("start_time"_L1);
        entry.startTime = startTime.isString() ? startTime.toString().toULongLong() : quint64(startTime.toInteger());
        for (const QJsonValue &arg : o.value("argv"_L1).toArray())
            entry.argv.append(arg.toString());
        if (entry.pid > 1 && entry.startTime > 0)
            entries.append(entry);
    }
    return entries;
}

bool EngineStateFile::write(const QList<Entry> &entries, QFileDevice::FileError *error) const
{
    QJsonArray list;
    for (const Entry &entry : entries) {
        list.append(QJsonObject{{"engine"_L1, entry.engine},
                                {"pid"_L1, entry.pid},
                                // A string: JSON numbers lose precision above 2^53.
                                {"start_time"_L1, QString::number(entry.startTime)},
                                {"argv"_L1, QJsonArray::fromStringList(entry.argv)}});
    }
    const QJsonObject root{{"boot_id"_L1, QString::fromLatin1(ProcessInfo::bootId())},
                           {"supervisor_pid"_L1, QCoreApplication::applicationPid()},
                           {"engines"_L1, list}};
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(root).toJson()) < 0 || !file.commit()) {
        if (error)
            *error = file.error();
        qCWarning(lcEngines).noquote() << "cannot write" << m_path << file.errorString();
        return false;
    }
    return true;
}

} // namespace switchyard
