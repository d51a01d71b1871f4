#pragma once

#include <QObject>
#include <QStringList>

#include <functional>

class QProcess;

namespace switchyard {

// One run of a host's sleep_command (`ssh box systemctl suspend`), which must finish even when
// whoever started it does not last: a config reload replaces the host, the relay quits or is
// restarted, the terminal it runs in gets Ctrl-C. So the run belongs to no one (it deletes
// itself once the command has ended), and the command gets a session of its own and reads
// /dev/null, so neither our exit nor the terminal's signals reach it.
//
// Whoever is still there hears its end through ended(); with no one listening any more, the
// end goes to the hosts' log category instead.
class SleepCommandRun final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SleepCommandRun)

public:
    // Starts argv (its first element the program) for `host`; onEnd hears how it ended while
    // `listener` lives (with the same words as ended()). The run returned is not the caller's:
    // it is gone once the command has ended (watch it with a QPointer).
    static SleepCommandRun *start(const QString &host, const QStringList &argv, QObject *listener,
                                  std::function<void(const QString &detail)> onEnd);

Q_SIGNALS:
    // "COMMAND: exit code N", "COMMAND: crashed" or "COMMAND: could not start: WHY", in fixed
    // English (WHY: "no such file", "it is not executable", "the system could not run it").
    void ended(const QString &detail);

private:
    SleepCommandRun(const QString &host, const QStringList &argv);
    static QString whyNotStarted(const QString &program);
    void finish(const QString &detail);

    QString m_host;
    QString m_command;   // argv joined, for the journal
    QProcess *m_process;
    bool m_ended = false;
};

} // namespace switchyard
