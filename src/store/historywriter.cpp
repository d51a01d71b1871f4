#include "store/historywriter.h"

#include "store/historyschema.h"
#include "store/savedslottable.h"
#include "store/storelogging.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <limits>

namespace switchyard {

using namespace Qt::StringLiterals;
using std::chrono::duration;
using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

namespace {

constexpr qint64 NoCutoff = std::numeric_limits<qint64>::min();

const QString RequestColumns = u"id, started_at, method, path, model, host, engine, status, bytes_out,"
                               " duration_ms, ttfb_ms, tokens, tokens_per_s, client, user_agent, relay_error"
                               ", bytes_in, waited_ms, wait_reason"   // schema step 2
                               ", key_name, tokens_in"                // schema step 3: usage per key
                               ", restored_tokens"                    // schema step 4: served from a restored cache
                               ", relay_facts"                        // schema step 6: the facts behind relay_error
                               ", side_call"_s;                       // schema step 7: a title or small-model call
const QString EventColumns = u"id, at, kind, host, engine, model, duration_ms, detail"
                             ", facts"_s;                             // schema step 6: the facts behind detail

// Facts as the store keeps them: compact JSON, or '' for none (and for rows from before step 6).
QString factsText(const QJsonObject &facts)
{
    return facts.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(facts).toJson(QJsonDocument::Compact));
}

QJsonObject factsFrom(const QVariant &text)
{
    const QByteArray json = text.toString().toUtf8();
    return json.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(json).object();
}

double toMs(nanoseconds d)
{
    return duration<double, std::milli>(d).count();
}

nanoseconds fromMs(double ms)
{
    return nanoseconds(std::llround(ms * 1e6));
}

template<typename T>
QVariant nullable(const std::optional<T> &value)
{
    return value ? QVariant::fromValue(*value) : QVariant();
}

qint64 epochMs(const QDateTime &t)
{
    return t.toMSecsSinceEpoch();
}

RequestRecord requestFromRow(const QSqlQuery &q)
{
    RequestRecord r;
    r.id = q.value(0).toLongLong();
    r.startedAt = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong());
    r.method = q.value(2).toString();
    r.path = q.value(3).toString();
    r.model = q.value(4).toString();
    r.host = q.value(5).toString();
    r.engine = q.value(6).toString();
    r.status = q.value(7).toInt();
    r.bytesOut = q.value(8).toLongLong();
    r.duration = fromMs(q.value(9).toDouble());
    if (!q.value(10).isNull())
        r.timeToFirstByte = fromMs(q.value(10).toDouble());
    if (!q.value(11).isNull())
        r.streamedTokens = q.value(11).toLongLong();
    if (!q.value(12).isNull())
        r.tokensPerSecond = q.value(12).toDouble();
    r.clientAddress = q.value(13).toString();
    r.userAgent = q.value(14).toString();
    r.relayError = q.value(15).toString();
    r.bytesIn = q.value(16).toLongLong();
    r.waited = fromMs(q.value(17).toDouble());
    r.waitReason = WaitReason::fromString(q.value(18).toString());
    r.keyName = q.value(19).toString();
    if (!q.value(20).isNull())
        r.promptTokens = q.value(20).toLongLong();
    r.restoredPromptTokens = q.value(21).toLongLong();
    r.relayFacts = factsFrom(q.value(22));
    r.sideCall = q.value(23).toBool();
    return r;
}

std::optional<HistoryEvent> eventFromRow(const QSqlQuery &q)
{
    const auto kind = HistoryEvent::kindFromName(q.value(2).toString());
    if (!kind)
        return std::nullopt;   // written by a newer build: skip rather than guess
    HistoryEvent e;
    e.id = q.value(0).toLongLong();
    e.at = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong());
    e.kind = *kind;
    e.host = q.value(3).toString();
    e.engine = q.value(4).toString();
    e.model = q.value(5).toString();
    if (!q.value(6).isNull())
        e.duration = milliseconds(std::llround(q.value(6).toDouble()));
    e.detail = q.value(7).toString();
    e.facts = factsFrom(q.value(8));
    return e;
}

std::optional<double> median(QList<double> values)
{
    if (values.isEmpty())
        return std::nullopt;
    const qsizetype mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + mid);
    return (lower + upper) / 2.0;
}

} // namespace

HistoryWriter::HistoryWriter(const QString &connectionName, QObject *parent)
    : QObject(parent)
    , m_connectionName(connectionName)
{
}

HistoryWriter::~HistoryWriter()
{
    close();
}

HistoryOpenResult HistoryWriter::open(const QString &path)
{
    HistoryOpenResult result;
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        result.error = tr("Cannot create the folder %1.").arg(info.absolutePath());
        return result;
    }
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connectionName);
    m_db.setDatabaseName(path);
    // Another reader (the sqlite3 shell, a second window) may hold a lock for a moment.
    m_db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
    if (!m_db.open()) {
        result.error = m_db.lastError().text();
        return result;
    }
    QSqlQuery q(m_db);
    // WAL: readers never block the writer. synchronous=NORMAL: a commit is not fsynced, which
    // still survives the process being killed (only an OS crash or power loss can lose the last
    // commits), and keeps each flush to a plain write.
    if (!q.exec(u"PRAGMA journal_mode=WAL"_s) || !q.next()
            || q.value(0).toString().compare(u"wal"_s, Qt::CaseInsensitive) != 0) {
        result.error = tr("Cannot switch the history database to WAL mode: %1").arg(q.lastError().text());
        close();
        return result;
    }
    q.finish();
    if (!q.exec(u"PRAGMA synchronous=NORMAL"_s)) {
        result.error = q.lastError().text();
        close();
        return result;
    }
    if (!HistorySchema::migrate(m_db, &result.error)) {
        close();
        return result;
    }
    // The database's identity, made once with it. Outside the numbered schema steps: an older
    // build opening this file ignores the table instead of refusing a newer schema version.
    if (!q.exec(u"CREATE TABLE IF NOT EXISTS history_identity (id TEXT NOT NULL)"_s)
        || !q.exec(u"INSERT INTO history_identity (id) SELECT lower(hex(randomblob(16))) "
                   "WHERE NOT EXISTS (SELECT 1 FROM history_identity)"_s)
        || !q.exec(u"SELECT id FROM history_identity LIMIT 1"_s) || !q.next()) {
        result.error = q.lastError().text();
        close();
        return result;
    }
    result.historyId = q.value(0).toString();
    q.finish();
    // AUTOINCREMENT's counter remembers ids of pruned rows too: an id is never reused.
    const auto lastId = [&](const QString &table) {
        qint64 id = 0;
        if (q.exec(u"SELECT MAX(id) FROM "_s + table) && q.next())
            id = q.value(0).toLongLong();
        q.prepare(u"SELECT seq FROM sqlite_sequence WHERE name = ?"_s);
        q.addBindValue(table);
        if (q.exec() && q.next())
            id = std::max(id, q.value(0).toLongLong());
        q.finish();
        return id;
    };
    result.lastRequestId = lastId(u"requests"_s);
    result.lastEventId = lastId(u"events"_s);
    result.ok = true;
    qCDebug(lcStore) << "opened" << path << "last ids" << result.lastRequestId << result.lastEventId;
    return result;
}

void HistoryWriter::close()
{
    m_prune.reset();
    m_nextPrune.reset();
    m_insertRequest.reset();
    m_insertEvent.reset();
    if (!m_db.isValid())
        return;
    m_db.close();   // the last connection checkpoints the WAL into the main file
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

void HistoryWriter::fail(const QString &message)
{
    if (!m_failing)
        qCWarning(lcStore) << message;
    m_failing = true;
    emit failed(message);
}

QSqlQuery *HistoryWriter::prepared(std::unique_ptr<QSqlQuery> &slot, const QString &sql, QString *error)
{
    if (slot)
        return slot.get();
    auto q = std::make_unique<QSqlQuery>(m_db);
    if (!q->prepare(sql)) {
        *error = q->lastError().text();
        return nullptr;
    }
    slot = std::move(q);
    return slot.get();
}

bool HistoryWriter::write(const HistoryBatch &batch)
{
    if (batch.isEmpty())
        return true;
    if (!m_db.isOpen()) {
        fail(tr("The history database is not open; %n row(s) not stored.", nullptr,
                int(batch.requests.size() + batch.events.size())));
        return false;
    }
    if (!m_db.transaction()) {
        fail(m_db.lastError().text());
        return false;
    }
    QString error;
    // Qt binds a null QString as NULL; the text columns want '' for "none".
    // Named placeholders: Qt 6.4 makes a placeholder name with QString::arg() for every value
    // bound by position, which cost half of this thread's time per row (docs/PERFORMANCE.md).
    QSqlQuery *insertRequest = batch.requests.isEmpty() ? nullptr
        : prepared(m_insertRequest,
                   u"INSERT INTO requests ("_s + RequestColumns
                       + u") VALUES (:id, :started_at, COALESCE(:method, ''), COALESCE(:path, ''),"
                         " COALESCE(:model, ''), COALESCE(:host, ''), COALESCE(:engine, ''), :status, :bytes_out,"
                         " :duration_ms, :ttfb_ms, :tokens, :tokens_per_s, COALESCE(:client, ''),"
                         " COALESCE(:user_agent, ''), COALESCE(:relay_error, ''),"
                         " :bytes_in, :waited_ms, COALESCE(:wait_reason, ''),"
                         " COALESCE(:key_name, ''), :tokens_in, :restored_tokens, COALESCE(:relay_facts, ''), :side_call)"_s,
                   &error);
    if (insertRequest) {
        QSqlQuery &q = *insertRequest;
        for (const RequestRecord &r : batch.requests) {
            q.bindValue(u":id"_s, r.id);
            q.bindValue(u":started_at"_s, epochMs(r.startedAt));
            q.bindValue(u":method"_s, r.method);
            q.bindValue(u":path"_s, r.path);
            q.bindValue(u":model"_s, r.model);
            q.bindValue(u":host"_s, r.host);
            q.bindValue(u":engine"_s, r.engine);
            q.bindValue(u":status"_s, r.status);
            q.bindValue(u":bytes_out"_s, r.bytesOut);
            q.bindValue(u":duration_ms"_s, toMs(r.duration));
            q.bindValue(u":ttfb_ms"_s, r.timeToFirstByte ? QVariant(toMs(*r.timeToFirstByte)) : QVariant());
            q.bindValue(u":tokens"_s, nullable(r.streamedTokens));
            q.bindValue(u":tokens_per_s"_s, nullable(r.tokensPerSecond));
            q.bindValue(u":client"_s, r.clientAddress);
            q.bindValue(u":user_agent"_s, r.userAgent);
            q.bindValue(u":relay_error"_s, r.relayError);
            q.bindValue(u":bytes_in"_s, r.bytesIn);
            q.bindValue(u":waited_ms"_s, toMs(r.waited));
            q.bindValue(u":wait_reason"_s, r.waitReason.toString());
            q.bindValue(u":key_name"_s, r.keyName);
            q.bindValue(u":tokens_in"_s, nullable(r.promptTokens));
            q.bindValue(u":restored_tokens"_s, r.restoredPromptTokens);
            q.bindValue(u":relay_facts"_s, factsText(r.relayFacts));
            q.bindValue(u":side_call"_s, r.sideCall ? 1 : 0);
            if (!q.exec()) {
                error = q.lastError().text();
                break;
            }
        }
        q.finish();   // reset the kept statement: it holds nothing open between batches
    }
    QSqlQuery *insertEvent = !error.isEmpty() || batch.events.isEmpty() ? nullptr
        : prepared(m_insertEvent,
                   u"INSERT INTO events ("_s + EventColumns
                       + u") VALUES (:id, :at, :kind, COALESCE(:host, ''), COALESCE(:engine, ''),"
                         " COALESCE(:model, ''), :duration_ms, COALESCE(:detail, ''), COALESCE(:facts, ''))"_s,
                   &error);
    if (insertEvent) {
        QSqlQuery &q = *insertEvent;
        for (const HistoryEvent &e : batch.events) {
            q.bindValue(u":id"_s, e.id);
            q.bindValue(u":at"_s, epochMs(e.at));
            q.bindValue(u":kind"_s, HistoryEvent::kindName(e.kind));
            q.bindValue(u":host"_s, e.host);
            q.bindValue(u":engine"_s, e.engine);
            q.bindValue(u":model"_s, e.model);
            q.bindValue(u":duration_ms"_s, e.duration ? QVariant(double(e.duration->count())) : QVariant());
            q.bindValue(u":detail"_s, e.detail);
            q.bindValue(u":facts"_s, factsText(e.facts));
            if (!q.exec()) {
                error = q.lastError().text();
                break;
            }
        }
        q.finish();
    }
    if (error.isEmpty() && !batch.savedSlots.isEmpty())
        SavedSlotTable::apply(m_db, batch.savedSlots, &error);
    if (error.isEmpty() && !m_db.commit())
        error = m_db.lastError().text();
    if (!error.isEmpty()) {
        m_db.rollback();
        fail(tr("%n row(s) not stored in the history: %1", nullptr,
                int(batch.requests.size() + batch.events.size()))
                     .arg(error));
        return false;
    }
    m_failing = false;
    emit batchWritten(batch.requests.isEmpty() ? 0 : batch.requests.constLast().id,
                      batch.events.isEmpty() ? 0 : batch.events.constLast().id,
                      int(batch.requests.size()), int(batch.events.size()));
    return true;
}

void HistoryWriter::startPrune(qint64 cutoffMs, qint64 maxRows)
{
    if (m_prune) {
        m_nextPrune = std::make_pair(cutoffMs, maxRows);
        return;
    }
    PruneJob job;
    job.cutoffMs = cutoffMs;
    job.maxRows = maxRows;
    // The count cut is taken now, from the rows that are there when the prune is asked for: rows
    // recorded while its steps run are never counted against them.
    if (m_db.isOpen() && maxRows > 0) {
        for (int t = 0; t < 2; ++t) {
            QSqlQuery q(m_db);
            q.prepare(u"SELECT id FROM "_s + (t == 0 ? u"requests"_s : u"events"_s) + u" ORDER BY id DESC LIMIT 1 OFFSET ?"_s);
            q.addBindValue(maxRows - 1);
            job.keepFrom[t] = q.exec() && q.next() ? q.value(0).toLongLong() : -1;
        }
    }
    m_prune = job;
    schedulePruneStep();
}

void HistoryWriter::schedulePruneStep()
{
    // Queued, not looped: batches and queries queued meanwhile run between two steps.
    QMetaObject::invokeMethod(this, [this] { pruneStep(); }, Qt::QueuedConnection);
}

void HistoryWriter::pruneStep()
{
    if (!m_prune)
        return;
    PruneJob &job = *m_prune;
    constexpr int Done = 4;
    while (job.phase < Done) {
        const bool requests = job.phase < 2;
        const bool byAge = job.phase % 2 == 0;
        const QString table = requests ? u"requests"_s : u"events"_s;
        const QString timeColumn = requests ? u"started_at"_s : u"at"_s;
        if (!m_db.isOpen() || (byAge && job.cutoffMs == NoCutoff) || (!byAge && job.maxRows <= 0)) {
            ++job.phase;
            continue;
        }
        const qint64 keepFromId = job.keepFrom[requests ? 0 : 1];
        if (!byAge && keepFromId < 0) {
            ++job.phase;    // fewer rows than the cap (or an error: try next time)
            continue;
        }
        QSqlQuery q(m_db);
        if (byAge) {
            q.prepare(u"DELETE FROM %1 WHERE id IN (SELECT id FROM %1 WHERE %2 < ? LIMIT %3)"_s
                              .arg(table, timeColumn).arg(PruneBatchSize));
            q.addBindValue(job.cutoffMs);
        } else {
            q.prepare(u"DELETE FROM %1 WHERE id IN (SELECT id FROM %1 WHERE id < ? ORDER BY id LIMIT %2)"_s
                              .arg(table).arg(PruneBatchSize));
            q.addBindValue(keepFromId);
        }
        if (!q.exec()) {
            qCWarning(lcStore) << "pruning" << table << "failed:" << q.lastError().text();
            ++job.phase;
            continue;
        }
        const int removed = q.numRowsAffected();
        (requests ? job.removedRequests : job.removedEvents) += removed;
        if (removed < PruneBatchSize)
            ++job.phase;
        if (removed > 0) {
            schedulePruneStep();
            return;
        }
    }
    const PruneJob finished = job;
    m_prune.reset();
    if (finished.removedRequests || finished.removedEvents) {
        qCDebug(lcStore) << "pruned" << finished.removedRequests << "requests and"
                         << finished.removedEvents << "events";
    }
    emit pruneFinished(finished.removedRequests, finished.removedEvents);
    if (m_nextPrune) {
        const auto [cutoff, maxRows] = *m_nextPrune;
        m_nextPrune.reset();
        startPrune(cutoff, maxRows);
    }
}

QList<RequestRecord> HistoryWriter::requests(const RequestQuery &query)
{
    QList<RequestRecord> result;
    if (!m_db.isOpen())
        return result;
    QStringList where;
    QVariantList values;
    if (query.since.isValid()) {
        where << u"started_at >= ?"_s;
        values << epochMs(query.since);
    }
    if (query.until.isValid()) {
        where << u"started_at < ?"_s;
        values << epochMs(query.until);
    }
    if (!query.host.isEmpty()) {
        where << u"host = ?"_s;
        values << query.host;
    }
    if (!query.model.isEmpty()) {
        where << u"model = ?"_s;
        values << query.model;
    }
    if (query.status != 0) {
        where << u"status = ?"_s;
        values << query.status;
    }
    if (query.errorsOnly)
        where << u"status >= 400"_s;
    if (query.afterId >= 0) {
        where << u"id > ?"_s;
        values << query.afterId;
    }
    QString sql = u"SELECT "_s + RequestColumns + u" FROM requests"_s;
    if (!where.isEmpty())
        sql += u" WHERE "_s + where.join(u" AND "_s);
    sql += query.afterId >= 0 ? u" ORDER BY id ASC"_s : u" ORDER BY started_at DESC, id DESC"_s;
    if (query.limit > 0)
        sql += u" LIMIT %1"_s.arg(query.limit);
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &v : std::as_const(values))
        q.addBindValue(v);
    if (!q.exec()) {
        qCWarning(lcStore) << "request query failed:" << q.lastError().text();
        return result;
    }
    while (q.next())
        result.append(requestFromRow(q));
    return result;
}

QList<HistoryEvent> HistoryWriter::events(const QDateTime &since, int limit, qint64 afterId)
{
    QList<HistoryEvent> result;
    if (!m_db.isOpen())
        return result;
    QStringList where;
    if (since.isValid())
        where << u"at >= ?"_s;
    if (afterId >= 0)
        where << u"id > ?"_s;
    QString sql = u"SELECT "_s + EventColumns + u" FROM events"_s;
    if (!where.isEmpty())
        sql += u" WHERE "_s + where.join(u" AND "_s);
    sql += afterId >= 0 ? u" ORDER BY id ASC"_s : u" ORDER BY at DESC, id DESC"_s;
    if (limit > 0)
        sql += u" LIMIT %1"_s.arg(limit);
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(sql);
    if (since.isValid())
        q.addBindValue(epochMs(since));
    if (afterId >= 0)
        q.addBindValue(afterId);
    if (!q.exec()) {
        qCWarning(lcStore) << "event query failed:" << q.lastError().text();
        return result;
    }
    while (q.next()) {
        if (auto e = eventFromRow(q))
            result.append(*e);
    }
    return result;
}

QList<SavedSlot> HistoryWriter::savedSlots(const QString &host)
{
    if (!m_db.isOpen())
        return {};
    QString error;
    const QList<SavedSlot> result = SavedSlotTable::read(m_db, host, &error);
    if (!error.isEmpty())
        qCWarning(lcStore) << "saved slot query failed:" << error;
    return result;
}

AliasStats HistoryWriter::stats(const QDateTime &since)
{
    AliasStats result;
    if (!m_db.isOpen())
        return result;
    // Only what counts as use (see countsAsUse()).
    QString sql = u"SELECT model, status, ttfb_ms, tokens_per_s FROM requests"
                  u" WHERE status <> 423 AND path NOT LIKE '/models/%'"_s;
    if (since.isValid())
        sql += u" AND started_at >= ?"_s;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(sql);
    if (since.isValid())
        q.addBindValue(epochMs(since));
    if (!q.exec()) {
        qCWarning(lcStore) << "stats query failed:" << q.lastError().text();
        return result;
    }
    struct Samples
    {
        QList<double> ttfb;
        QList<double> tokensPerSecond;
    };
    QHash<QString, Samples> samples;
    while (q.next()) {
        const QString alias = q.value(0).toString();
        AliasStat &stat = result[alias];
        stat.alias = alias;
        ++stat.requests;
        if (q.value(1).toInt() >= 400)
            ++stat.errors;
        Samples &s = samples[alias];
        if (!q.value(2).isNull())
            s.ttfb.append(q.value(2).toDouble());
        if (!q.value(3).isNull())
            s.tokensPerSecond.append(q.value(3).toDouble());
    }
    for (auto it = result.begin(); it != result.end(); ++it) {
        const Samples s = samples.value(it.key());
        it->medianTtfbMs = median(s.ttfb);
        it->medianTokensPerSecond = median(s.tokensPerSecond);
    }
    return result;
}

} // namespace switchyard
