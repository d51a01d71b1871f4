#include "models/modeltablemodel.h"

#include "app/relayservice.h"
#include "app/remoterelayfeed.h"
#include "catalog/catalog.h"
#include "shared/statuspalette.h"
#include "shared/uiformat.h"
#include "common/clock.h"
#include "store/historystore.h"

#include <QHash>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <limits>

namespace switchyard {

using namespace Qt::StringLiterals;

ModelTableModel::ModelTableModel(const Clock &clock, QObject *parent)
    : QAbstractTableModel(parent)
    , m_clock(clock)
{
    m_statsTimer.setInterval(StatsInterval);
    connect(&m_statsTimer, &QTimer::timeout, this, [this] {
        // A new day starts from zero; otherwise re-read only when something was recorded.
        if (m_statsDirty || m_statsDay != m_clock.now().date())
            refreshStats();
        // "Last used" reads "12 s ago": keep it current.
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, LastUsedColumn), index(int(m_rows.size()) - 1, LastUsedColumn));
    });
    m_statsTimer.start();
}

void ModelTableModel::setService(RelayService *service)
{
    if (m_catalog)
        disconnect(m_catalog, nullptr, this, nullptr);
    if (m_remote)
        disconnect(m_remote, nullptr, this, nullptr);
    m_remote = nullptr;
    m_service = service;
    m_catalog = service ? service->catalog() : nullptr;
    if (m_catalog)
        connect(m_catalog, &Catalog::changed, this, &ModelTableModel::syncFromCatalog);
    syncFromCatalog();
}

void ModelTableModel::setRemote(RemoteRelayFeed *feed)
{
    setService(nullptr);
    m_remote = feed;
    if (feed)
        connect(feed, &RemoteRelayFeed::modelsChanged, this, &ModelTableModel::syncFromRemote);
    syncFromRemote();
}

void ModelTableModel::syncFromRemote()
{
    QList<Row> rows;
    const QList<RemoteRelayFeed::Model> models = m_remote ? m_remote->models() : QList<RemoteRelayFeed::Model>();
    for (const RemoteRelayFeed::Model &m : models) {
        Row row;
        row.alias = m.alias;
        row.host = m.host;
        row.key = m.key;
        row.engine = m.engine;
        row.entry = m.entry;
        row.context = m.context;
        row.replicas = m.replicas;
        rows.append(row);
    }
    setRows(rows);
}

void ModelTableModel::setHistory(HistoryStore *store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    if (store)
        connect(store, &HistoryStore::requestRecorded, this, &ModelTableModel::noteRequest);
    refreshStats();
    for (Row &row : m_rows)
        readLastUsed(row);
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void ModelTableModel::refreshStats()
{
    m_statsDirty = false;
    if (!m_store)
        return;
    const QDateTime now = m_clock.now();
    m_statsDay = now.date();
    setStats(m_store->stats(now.date().startOfDay()));
}

void ModelTableModel::setStats(const AliasStats &stats)
{
    m_stats = stats;
    for (Row &row : m_rows)
        applyStats(row);
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, LastUsedColumn), index(int(m_rows.size()) - 1, TokensPerSecondColumn));
}

void ModelTableModel::applyStats(Row &row) const
{
    const AliasStat stat = m_stats.value(row.alias);
    row.requestsToday = stat.requests;
    row.errorsToday = stat.errors;
    row.medianTokensPerSecond = stat.medianTokensPerSecond;
    row.medianTtfbMs = stat.medianTtfbMs;
}

void ModelTableModel::readLastUsed(Row &row)
{
    if (!m_store || row.lastUsed.isValid())
        return;
    RequestQuery query;
    query.model = row.alias;
    query.limit = 50;   // newest first; the window's own loads and 423s are skipped
    for (const RequestRecord &r : m_store->requests(query)) {
        if (countsAsUse(r.path, r.status)) {
            row.lastUsed = r.startedAt;
            break;
        }
    }
}

void ModelTableModel::noteRequest(const RequestRecord &record)
{
    m_statsDirty = true;
    const int row = rowOfAlias(record.model);
    if (row < 0 || !countsAsUse(record.path, record.status))
        return;
    Row &r = m_rows[row];
    if (!r.lastUsed.isValid() || r.lastUsed < record.startedAt)
        r.lastUsed = record.startedAt;
    // Counted now; the medians follow at the next stats refresh.
    if (record.startedAt.date() == m_statsDay) {
        ++r.requestsToday;
        if (record.status >= 400)
            ++r.errorsToday;
    }
    emit dataChanged(index(row, LastUsedColumn), index(row, RequestsColumn));
}

void ModelTableModel::syncFromCatalog()
{
    QList<Row> rows;
    if (m_catalog) {
        for (const Catalog::ListedModel &listed : m_catalog->listedModels()) {
            Row row;
            row.alias = Catalog::aliasFor(listed.host, listed.entry.key);
            row.host = listed.host;
            row.key = listed.entry.key;
            row.engine = listed.engine;
            row.entry = listed.entry;
            row.context = listed.contextSize > 0 ? listed.contextSize : listed.entry.contextSize().value_or(0);
            rows.append(row);
        }
        appendReplicaRows(rows);
    }
    setRows(rows);
}

void ModelTableModel::setRows(QList<Row> rows)
{
    // Rows keep the order they had: the catalog lists the running engine's models first, so a
    // switch (a load of another engine's model) would move rows under the user's eyes. New
    // aliases follow, in the catalog's order.
    QHash<QString, qsizetype> before;
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        before.insert(m_rows.at(i).alias, i);
    std::stable_sort(rows.begin(), rows.end(), [&before](const Row &a, const Row &b) {
        return before.value(a.alias, std::numeric_limits<qsizetype>::max())
            < before.value(b.alias, std::numeric_limits<qsizetype>::max());
    });
    bool same = rows.size() == m_rows.size();
    for (qsizetype i = 0; same && i < rows.size(); ++i)
        same = rows.at(i).alias == m_rows.at(i).alias;
    // Keep what is known about each alias across the update.
    for (Row &row : rows) {
        const int old = rowOfAlias(row.alias);
        if (old >= 0)
            row.lastUsed = m_rows.at(old).lastUsed;
        applyStats(row);
        if (old >= 0 && m_rows.at(old).requestsToday > row.requestsToday) {
            row.requestsToday = m_rows.at(old).requestsToday;   // counted live since the last refresh
            row.errorsToday = m_rows.at(old).errorsToday;
        }
        if (old < 0)
            readLastUsed(row);
    }
    if (same) {
        m_rows = rows;
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
    } else {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
}

QString ModelTableModel::aliasAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).alias : QString();
}

QString ModelTableModel::statusAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).entry.status : QString();
}

int ModelTableModel::rowOfAlias(const QString &alias) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).alias == alias)
            return int(i);
    }
    return -1;
}

QString ModelTableModel::statusTitle(const QString &status)
{
    if (status == "loaded"_L1)
        return tr("loaded");
    if (status == "loading"_L1)
        return tr("loading");
    if (status == "unloaded"_L1)
        return tr("unloaded");
    if (status == "sleeping"_L1)
        return tr("sleeping");
    if (status == "asleep"_L1)
        return tr("asleep");   // its box sleeps: a request wakes it
    if (status == "failed"_L1)
        return tr("failed");
    if (status.isEmpty())
        return tr("unknown");
    return status;
}

int ModelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ModelTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

// One row per replicated alias, as /models lists it: the status, engine and context of its best
// target (loaded before loading before the rest), the hosts of all of them. Requests for the
// alias count on this row, as the request log names them.
void ModelTableModel::appendReplicaRows(QList<Row> &rows) const
{
    const auto rank = [](const Row &r) {
        return r.entry.status == "loaded"_L1 ? 0 : r.entry.status == "loading"_L1 ? 1 : 2;
    };
    const qsizetype targetRows = rows.size();
    for (const ReplicaSet &set : m_catalog->replicaSets()) {
        Row row;
        row.alias = set.alias;
        QStringList hosts;
        const Row *best = nullptr;
        for (const ReplicaSet::Target &t : set.targets) {
            row.replicas.append(Catalog::aliasFor(t.host, t.key));
            hosts.append(t.host);
            for (qsizetype i = 0; i < targetRows; ++i) {
                const Row &candidate = rows.at(i);
                if (candidate.host == t.host && candidate.key == t.key && (!best || rank(candidate) < rank(*best)))
                    best = &candidate;
            }
        }
        row.host = hosts.join(u", "_s);
        if (best) {
            row.key = best->key;
            row.engine = best->engine;
            row.entry = best->entry;
            row.context = best->context;
        }
        rows.append(row);
    }
}

QVariant ModelTableModel::display(const Row &r, int column) const
{
    switch (column) {
    case AliasColumn:
        return r.alias;
    case HostColumn:
        return r.host;
    case EngineColumn:
        return r.engine;
    case StatusColumn:
        return statusTitle(r.entry.status);
    case ContextColumn:
        return r.context > 0 ? UiFormat::tokens(r.context) : QString();
    case LastUsedColumn:
        return r.lastUsed.isValid() ? UiFormat::ago(r.lastUsed, m_clock.now()) : QString();
    case RequestsColumn:
        return r.requestsToday ? QLocale().toString(r.requestsToday) : QString();
    case TokensPerSecondColumn:
        return r.medianTokensPerSecond ? QLocale().toString(*r.medianTokensPerSecond, 'f', 1) : QString();
    }
    return {};
}

QVariant ModelTableModel::sortValue(const Row &r, int column) const
{
    switch (column) {
    case ContextColumn:
        return r.context > 0 ? r.context : qint64(-1);
    case LastUsedColumn:
        return r.lastUsed.isValid() ? r.lastUsed.toMSecsSinceEpoch() : qint64(-1);
    case RequestsColumn:
        return r.requestsToday;
    case TokensPerSecondColumn:
        return r.medianTokensPerSecond.value_or(-1.0);
    case StatusColumn: {
        // Loaded first, then the ones on their way, then the rest.
        const QString &s = r.entry.status;
        return s == "loaded"_L1 ? 0 : s == "loading"_L1 ? 1 : s == "sleeping"_L1 || s == "asleep"_L1 ? 2 : s == "unloaded"_L1 ? 3 : 4;
    }
    default:
        return display(r, column);
    }
}

QVariant ModelTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case Qt::DecorationRole:
        if (index.column() == StatusColumn)
            return StatusPalette::dot(StatusPalette::forModelStatus(r.entry.status));
        if (index.column() == EngineColumn && !r.engine.isEmpty())
            return StatusPalette::swatch(StatusPalette::forEngine(r.engine));
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case StatusColumn: {
            const QJsonObject status = r.entry.raw.value("status"_L1).toObject();
            if (status.value("failed"_L1).toBool())
                return tr("The last load failed (exit code %1)").arg(status.value("exit_code"_L1).toInt());
            return {};
        }
        case LastUsedColumn:
            return r.lastUsed.isValid() ? QLocale().toString(r.lastUsed, QLocale::LongFormat) : QVariant();
        case RequestsColumn:
            return r.requestsToday ? tr("%n request(s) today, %1 failed", nullptr, int(r.requestsToday)).arg(r.errorsToday)
                                   : QVariant();
        case TokensPerSecondColumn:
            return r.medianTtfbMs ? tr("Median time to first byte today: %1 ms").arg(qRound64(*r.medianTtfbMs))
                                  : QVariant();
        case AliasColumn:
            if (!r.replicas.isEmpty())
                return tr("Clients ask for \"%1\"; each request goes to the best of its replicas: %2")
                    .arg(r.alias, r.replicas.join(u", "_s));
            return tr("Clients ask for \"%1\"; host %2 serves it as \"%3\"").arg(r.alias, r.host, r.key);
        case HostColumn:
            // A replica set has two targets or more.
            return r.replicas.isEmpty() ? QVariant() : tr("Replicated on %1 hosts").arg(r.replicas.size());
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case ContextColumn:
        case RequestsColumn:
        case TokensPerSecondColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case SortRole:
        return sortValue(r, index.column());
    case AliasRole:
        return r.alias;
    case HostRole:
        return r.host;
    case KeyRole:
        return r.key;
    case StatusRole:
        return r.entry.status;
    default:
        return {};
    }
}

QVariant ModelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ContextColumn: return tr("Context size in tokens, as the engine reports it");
        case RequestsColumn: return tr("Requests since midnight");
        case TokensPerSecondColumn: return tr("Median generation speed of today's streamed answers");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case AliasColumn: return tr("Alias");
    case HostColumn: return tr("Host");
    case EngineColumn: return tr("Engine");
    case StatusColumn: return tr("Status");
    case ContextColumn: return tr("Context");
    case LastUsedColumn: return tr("Last used");
    case RequestsColumn: return tr("Today");
    case TokensPerSecondColumn: return tr("Tokens/s");
    }
    return {};
}

} // namespace switchyard
