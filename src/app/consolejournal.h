#pragma once

#include "journal/requestrecord.h"
#include "store/redactor.h"

#include <QDateTime>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QThread>

#include <chrono>
#include <cstdio>
#include <optional>

class QTimer;

namespace switchyard {

class Clock;

// The journal on stdout: one line per request and per host event, in the seeds' format. Lines are
// formatted, redacted and written on a thread of their own, at most FlushDelay after they happen,
// a batch per write(): on the relay's thread this was the largest part of what a request cost
// after its answer had gone out, and the next request waited for it. The delay is timed on the
// relay's thread, so the writer wakes once per batch, and batches are a few dozen lines: each
// burst of formatting on the other core slowed the streams running meanwhile (docs/PERFORMANCE.md).
class ConsoleJournal final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleJournal)

public:
    static constexpr std::chrono::milliseconds FlushDelay{50};

    // Without a clock, event lines are stamped by the system clock (systemClock()).
    explicit ConsoleJournal(FILE *out = stdout, const Clock *clock = nullptr, QObject *parent = nullptr);
    ~ConsoleJournal() override;   // writes what is still queued

    void request(const switchyard::RequestRecord &record);
    void event(const QString &text);
    void line(const QString &text);

    // Lines are redacted like the history store's (configured secrets, bearer tokens, key=value).
    void setSecrets(const QStringList &secrets);

    // Writes what is queued, now, from the calling thread.
    void flush();

private:
    struct Entry
    {
        std::optional<RequestRecord> record;
        QString text;
        QDateTime when;   // set for a host event
    };
    void enqueue(Entry entry);

    FILE *m_out;
    const Clock *m_clock;
    QMutex m_queueMutex;              // guards m_queue and m_secrets
    QList<Entry> m_queue;
    std::optional<QStringList> m_secrets;   // new secrets for the writer to take
    QMutex m_writeMutex;              // one writer at a time; guards m_redactor
    Redactor m_redactor;
    QThread m_thread;
    QObject *m_writer;                // lives on m_thread
    QTimer *m_delay;                  // on our thread: gathers what comes in FlushDelay into one write
};

} // namespace switchyard
