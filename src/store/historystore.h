#pragma once

#include "journal/requestrecord.h"
#include "store/aliasstats.h"
#include "store/historyevent.h"
#include "store/historywriter.h"
#include "store/redactor.h"
#include "store/requestquery.h"

#include <QObject>
#include <QThread>
#include <QTimer>

#include <chrono>
#include <memory>

namespace switchyard {

class Clock;

// The request and event history, in SQLite (WAL) through Qt SQL.
//
// Threading: record() and recordEvent() only append to an in-memory batch on the caller's
// (GUI) thread; a timer hands the batch to a HistoryWriter on a worker thread, which owns the
// connection and writes each batch in one transaction. So a slow disk, a WAL checkpoint's fsync
// or a prune never stall the event loop that also carries the relay's streams. Queries are
// synchronous by nature: they hand over the pending batch and wait for the worker, so they see
// every row recorded before them. Use the store from one thread (the one that made it).
//
// Durability: every committed batch survives the process being killed (WAL, synchronous=NORMAL);
// what a kill can lose is the last flush interval. Ids are assigned here, in record order, and
// the store assumes it is the only writer of its file.
//
// Secrets never reach the file: path, model, user agent, relay error and event texts pass
// through a Redactor, and request bodies and headers are not stored at all.
class HistoryStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryStore)

public:
    // Keep it at or under a second: it is what a crash can lose. A second, not less: each flush
    // is a burst of SQLite work on the other core, and at four a second they showed in the
    // first-event times of the streams running meanwhile (docs/PERFORMANCE.md).
    static constexpr std::chrono::milliseconds DefaultFlushInterval{1000};
    static constexpr std::chrono::hours PruneInterval{1};
    static constexpr int DefaultRetentionDays = 90;
    static constexpr qint64 DefaultRetentionMaxRows = 1'000'000;
    // A batch this large is handed over at once instead of waiting for the timer.
    static constexpr int MaxBatchRows = 5000;

    // <AppLocalDataLocation>/history.sqlite
    static QString defaultPath();

    // Opens (and creates or migrates) the database at path; the clock must outlive the store.
    // Starts one prune right away and one every PruneInterval.
    HistoryStore(const QString &path, const Clock &clock, QObject *parent = nullptr);
    // Writes what is pending and closes the database.
    ~HistoryStore() override;

    bool isOpen() const { return m_open; }
    QString errorString() const { return m_error; }
    QString path() const { return m_path; }
    // A random id made with the database file and kept in it: the same across restarts on
    // that file, another for a new file. A window watching the relay tells by it that the ids
    // it pages by (after_id) started again. Empty when the store is not open.
    QString historyId() const { return m_historyId; }
    // The newest ids given out (to rows recorded, flushed or not: a query sees them all).
    qint64 lastRequestId() const { return m_lastRequestId; }
    qint64 lastEventId() const { return m_lastEventId; }

    void setSecrets(const QStringList &secrets);
    const Redactor &redactor() const { return m_redactor; }

    void setFlushInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds flushInterval() const;

    // days <= 0: keep any age; maxRows <= 0: no cap. Applies to requests and events alike
    // (maxRows to each table). Takes effect at the next prune().
    void setRetention(int days, qint64 maxRows);
    int retentionDays() const { return m_retentionDays; }
    qint64 retentionMaxRows() const { return m_retentionMaxRows; }

    // Redacts, assigns the id, queues for the next flush and emits requestRecorded().
    // An invalid startedAt becomes the clock's now.
    void record(const switchyard::RequestRecord &record);
    // Its text fields as record() stores them: for live views of a request in flight.
    RequestRecord redacted(const RequestRecord &record) const;
    void recordEvent(const switchyard::HistoryEvent &event);

    // Hands the pending batch to the writer without waiting.
    void flush();
    // Hands it over and waits until it is committed; false if it could not be written.
    bool sync();
    // Removes what retention no longer keeps, in small steps on the worker; emits pruned().
    void prune();

    // Newest first (or, with a cursor, oldest first after it: see RequestQuery::afterId).
    QList<RequestRecord> requests(const RequestQuery &query);
    QList<HistoryEvent> events(const QDateTime &since, int limit = 1000, qint64 afterId = -1);
    AliasStats stats(const QDateTime &since);

    // The prompt-cache index (PromptCacheKeeper): where a host's saved slots are, kept across
    // restarts. Changes are written with the next batch, handed over at once.
    void keepSavedSlot(const SavedSlot &slot);
    void forgetSavedSlot(const SavedSlot &slot);
    QList<SavedSlot> savedSlots(const QString &host);   // newest first

Q_SIGNALS:
    // On record, with the stored (redacted) values and the store's id: for live views.
    void requestRecorded(const switchyard::RequestRecord &record);
    void eventRecorded(const switchyard::HistoryEvent &event);
    // A batch is committed; the ids are its last rows' (0 when it had none).
    void flushed(qint64 lastRequestId, qint64 lastEventId, int requests, int events);
    void pruned(qint64 requestsRemoved, qint64 eventsRemoved);
    void errorOccurred(const QString &message);

private:
    HistoryBatch takeBatch();
    void scheduleFlush();

    QString m_path;
    QString m_historyId;
    const Clock &m_clock;
    Redactor m_redactor;
    bool m_open = false;
    QString m_error;
    qint64 m_lastRequestId = 0;
    qint64 m_lastEventId = 0;
    int m_retentionDays = DefaultRetentionDays;
    qint64 m_retentionMaxRows = DefaultRetentionMaxRows;
    HistoryBatch m_batch;
    QTimer m_flushTimer;
    QTimer m_pruneTimer;
    QThread m_thread;                          // declared before m_writer: outlives it
    std::unique_ptr<HistoryWriter> m_writer;   // lives on m_thread
};

} // namespace switchyard
