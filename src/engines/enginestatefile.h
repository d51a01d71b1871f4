#pragma once

#include "engines/enginefailure.h"

#include <QFileDevice>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

class QLockFile;

namespace switchyard {

// The supervisor's memory across crashes: which engine processes it started (pid, /proc start
// time, argv), so a restarted supervisor can find and stop the ones a crash left behind. A lock
// file next to it keeps two live supervisors from sharing (and reaping each other's engines).
class EngineStateFile final
{
public:
    struct Entry
    {
        QString engine;
        qint64 pid = 0;            // also the process group: every engine leads its own
        quint64 startTime = 0;     // /proc/PID/stat field 22, so a reused pid is never mistaken for it
        QStringList argv;
    };

    explicit EngineStateFile(QString path);
    ~EngineStateFile();

    QString path() const { return m_path; }

    // Creates the folder and takes the lock. False with *failure (StateFileUnavailable, its facts)
    // when the folder cannot be made or another live process holds the lock.
    bool lock(EngineFailure *failure);
    // Entries written during this boot; an unreadable or foreign file reads as empty.
    QList<Entry> read() const;
    bool write(const QList<Entry> &entries, QFileDevice::FileError *error = nullptr) const;

private:
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace switchyard
