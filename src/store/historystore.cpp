#include "store/historystore.h"

#include "common/clock.h"
#include "store/storelogging.h"

#include <QCoreApplication>
#include <QStandardPaths>

#include <atomic>
#include <limits>
#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// Qt SQL connections are named process-wide; two stores (tests, a reopen) must not share one.
QString uniqueConnectionName()
{
    static std::atomic<int> counter{0};
    return u"switchyard-history-%1"_s.arg(++counter);
}

} // namespace

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
            + u"/history.sqlite"_s;
}

HistoryStore::HistoryStore(const QString &path, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_path(path)
    , m_clock(clock)
    , m_writer(std::make_unique<HistoryWriter>(uniqueConnectionName()))
{
    HistoryWriter *writer = m_writer.get();
    // Cross-thread, so these are queued: they arrive on this object's thread.
    connect(writer, &HistoryWriter::batchWritten, this, &HistoryStore::flushed);
    connect(writer, &HistoryWriter::pruneFinished, this, &HistoryStore::pruned);
    connect(writer, &HistoryWriter::failed, this, &HistoryStore::errorOccurred);

    m_thread.setObjectName(u"switchyard-history"_s);
    writer->moveToThread(&m_thread);
    m_thread.start();

    // Opening waits once, at startup: the caller wants to know whether there is a history.
    HistoryOpenResult opened;
    QMetaObject::invokeMethod(writer, [&] { opened = writer->open(m_path); },
                              Qt::BlockingQueuedConnection);
    m_open = opened.ok;
    m_error = opened.error;
    m_lastRequestId = opened.lastRequestId;
    m_lastEventId = opened.lastEventId;
    m_historyId = opened.historyId;
    if (!m_open)
        qCWarning(lcStore) << "cannot open history" << m_path << ":" << m_error;

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(DefaultFlushInterval);
    connect(&m_flushTimer, &QTimer::timeout, this, &HistoryStore::flush);

    m_pruneTimer.setInterval(PruneInterval);
    connect(&m_pruneTimer, &QTimer::timeout, this, &HistoryStore::prune);
    m_pruneTimer.start();

    // A quit through the event loop (signal handler, tray menu) writes before the loop ends,
    // even if this store is destroyed late or leaked.
    if (QCoreApplication *app = QCoreApplication::instance())
        connect(app, &QCoreApplication::aboutToQuit, this, &HistoryStore::sync);

    prune();
}

HistoryStore::~HistoryStore()
{
    m_flushTimer.stop();
    m_pruneTimer.stop();
    HistoryWriter *writer = m_writer.get();
    const HistoryBatch batch = takeBatch();
    // Blocking: everything queued before it runs first, so nothing recorded is dropped.
    QMetaObject::invokeMethod(writer, [writer, &batch] {
        writer->write(batch);
        writer->close();
    }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void HistoryStore::setSecrets(const QStringList &secrets)
{
    m_redactor.setSecrets(secrets);
}

void HistoryStore::setFlushInterval(std::chrono::milliseconds interval)
{
    m_flushTimer.setInterval(interval);
}

std::chrono::milliseconds HistoryStore::flushInterval() const
{
    return m_flushTimer.intervalAsDuration();
}

void HistoryStore::setRetention(int days, qint64 maxRows)
{
    m_retentionDays = days;
    m_retentionMaxRows = maxRows;
}

void HistoryStore::record(const RequestRecord &record)
{
    RequestRecord r = redacted(record);
    r.id = ++m_lastRequestId;
    if (!r.startedAt.isValid())
        r.startedAt = m_clock.now();
    m_batch.requests.append(r);
    scheduleFlush();
    emit requestRecorded(r);
}

RequestRecord HistoryStore::redacted(const RequestRecord &record) const
{
    RequestRecord r = record;
    r.path = m_redactor.redact(r.path);
    r.model = m_redactor.redact(r.model);
    r.userAgent = m_redactor.redact(r.userAgent);
    r.relayError = m_redactor.redact(r.relayError);
    r.relayFacts = m_redactor.redact(r.relayFacts);
    return r;
}

void HistoryStore::recordEvent(const HistoryEvent &event)
{
    HistoryEvent e = event;
    e.id = ++m_lastEventId;
    if (!e.at.isValid())
        e.at = m_clock.now();
    e.model = m_redactor.redact(e.model);
    e.detail = m_redactor.redact(e.detail);
    e.facts = m_redactor.redact(e.facts);
    m_batch.events.append(e);
    scheduleFlush();
    emit eventRecorded(e);
}

void HistoryStore::scheduleFlush()
{
    if (m_batch.requests.size() + m_batch.events.size() >= MaxBatchRows)
        flush();
    else if (!m_flushTimer.isActive())
        m_flushTimer.start();   // not restarted per record: a steady stream still flushes on time
}

HistoryBatch HistoryStore::takeBatch()
{
    m_flushTimer.stop();
    return std::exchange(m_batch, HistoryBatch());
}

void HistoryStore::flush()
{
    HistoryBatch batch = takeBatch();
    if (batch.isEmpty())
        return;
    HistoryWriter *writer = m_writer.get();
    QMetaObject::invokeMethod(writer, [writer, batch = std::move(batch)] { writer->write(batch); },
                              Qt::QueuedConnection);
}

bool HistoryStore::sync()
{
    const HistoryBatch batch = takeBatch();
    HistoryWriter *writer = m_writer.get();
    bool ok = true;
    QMetaObject::invokeMethod(writer, [&] { ok = writer->write(batch); }, Qt::BlockingQueuedConnection);
    return ok;
}

void HistoryStore::prune()
{
    const qint64 cutoff = m_retentionDays > 0
            ? m_clock.now().addDays(-m_retentionDays).toMSecsSinceEpoch()
            : std::numeric_limits<qint64>::min();
    const qint64 maxRows = m_retentionMaxRows;
    flush();   // so the row cap counts what was recorded before this call
    HistoryWriter *writer = m_writer.get();
    QMetaObject::invokeMethod(writer, [writer, cutoff, maxRows] { writer->startPrune(cutoff, maxRows); },
                              Qt::QueuedConnection);
}

QList<RequestRecord> HistoryStore::requests(const RequestQuery &query)
{
    const HistoryBatch batch = takeBatch();
    HistoryWriter *writer = m_writer.get();
    QList<RequestRecord> result;
    QMetaObject::invokeMethod(writer, [&] {
        writer->write(batch);
        result = writer->requests(query);
    }, Qt::BlockingQueuedConnection);
    return result;
}

QList<HistoryEvent> HistoryStore::events(const QDateTime &since, int limit, qint64 afterId)
{
    const HistoryBatch batch = takeBatch();
    HistoryWriter *writer = m_writer.get();
    QList<HistoryEvent> result;
    QMetaObject::invokeMethod(writer, [&] {
        writer->write(batch);
        result = writer->events(since, limit, afterId);
    }, Qt::BlockingQueuedConnection);
    return result;
}

void HistoryStore::keepSavedSlot(const SavedSlot &slot)
{
    m_batch.savedSlots.append(SavedSlotChange{slot, false});
    flush();   // a save happens at a switch, rarely: no reason to risk the flush interval
}

void HistoryStore::forgetSavedSlot(const SavedSlot &slot)
{
    m_batch.savedSlots.append(SavedSlotChange{slot, true});
    flush();
}

QList<SavedSlot> HistoryStore::savedSlots(const QString &host)
{
    const HistoryBatch batch = takeBatch();
    HistoryWriter *writer = m_writer.get();
    QList<SavedSlot> result;
    QMetaObject::invokeMethod(writer, [&] {
        writer->write(batch);
        result = writer->savedSlots(host);
    }, Qt::BlockingQueuedConnection);
    return result;
}

AliasStats HistoryStore::stats(const QDateTime &since)
{
    const HistoryBatch batch = takeBatch();
    HistoryWriter *writer = m_writer.get();
    AliasStats result;
    QMetaObject::invokeMethod(writer, [&] {
        writer->write(batch);
        result = writer->stats(since);
    }, Qt::BlockingQueuedConnection);
    return result;
}

} // namespace switchyard
