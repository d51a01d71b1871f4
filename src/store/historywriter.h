#pragma once

#include "journal/requestrecord.h"
#include "store/aliasstats.h"
#include "store/historyevent.h"
#include "store/requestquery.h"
#include "store/savedslot.h"

#include <QList>
#include <QObject>
#include <QSqlDatabase>

class QSqlQuery;

#include <memory>
#include <optional>

namespace switchyard {

// Rows recorded on the GUI thread and handed over in one piece.
struct HistoryBatch
{
    QList<RequestRecord> requests;
    QList<HistoryEvent> events;
    QList<SavedSlotChange> savedSlots;   // the prompt-cache index, in the order changed
    bool isEmpty() const { return requests.isEmpty() && events.isEmpty() && savedSlots.isEmpty(); }
};

struct HistoryOpenResult
{
    bool ok = false;
    QString error;
    qint64 lastRequestId = 0;     // ids already used, so new rows never reuse one
    qint64 lastEventId = 0;
    QString historyId;            // this database's own random id (see HistoryStore::historyId())
};

// HistoryStore's worker: owns the SQLite connection and does every statement, on its own
// thread (a QSqlDatabase may only be used by the thread that made it). HistoryStore calls it
// only through queued or blocking-queued invocations; it answers with queued signals.
class HistoryWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryWriter)

public:
    // Rows per DELETE while pruning: small enough that a flush never waits long behind one.
    static constexpr int PruneBatchSize = 1000;

    explicit HistoryWriter(const QString &connectionName, QObject *parent = nullptr);
    ~HistoryWriter() override;

    HistoryOpenResult open(const QString &path);
    void close();

    // Writes the whole batch in one transaction; false (and failed()) if it could not.
    bool write(const HistoryBatch &batch);

    // Deletes rows older than cutoffMs (INT64_MIN: none) and all but the newest maxRows
    // (<= 0: no cap) of each table, PruneBatchSize rows per step, one queued step at a time.
    // A prune asked for while one runs starts when that one is done.
    void startPrune(qint64 cutoffMs, qint64 maxRows);

    QList<RequestRecord> requests(const RequestQuery &query);
    QList<HistoryEvent> events(const QDateTime &since, int limit, qint64 afterId = -1);
    AliasStats stats(const QDateTime &since);
    QList<SavedSlot> savedSlots(const QString &host);

Q_SIGNALS:
    void batchWritten(qint64 lastRequestId, qint64 lastEventId, int requests, int events);
    void pruneFinished(qint64 requestsRemoved, qint64 eventsRemoved);
    void failed(const QString &message);

private:
    struct PruneJob
    {
        qint64 cutoffMs = 0;
        qint64 maxRows = 0;
        int phase = 0;              // requests by age, requests by count, events by age, events by count
        qint64 keepFrom[2] = {-1, -1};   // requests, events: the oldest id the count cap keeps; -1: keep all
        qint64 removedRequests = 0;
        qint64 removedEvents = 0;
    };

    void pruneStep();
    void schedulePruneStep();
    void fail(const QString &message);
    QSqlQuery *prepared(std::unique_ptr<QSqlQuery> &slot, const QString &sql, QString *error);

    QString m_connectionName;
    QSqlDatabase m_db;
    // Prepared once per connection: preparing them for every batch was a third of a request's
    // instructions.
    std::unique_ptr<QSqlQuery> m_insertRequest;
    std::unique_ptr<QSqlQuery> m_insertEvent;
    bool m_failing = false;          // reported once until a write succeeds again
    std::optional<PruneJob> m_prune;
    std::optional<std::pair<qint64, qint64>> m_nextPrune;
};

} // namespace switchyard
