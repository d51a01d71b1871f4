#include "store/timelinemodel.h"

#include "journal/journalformat.h"
#include "store/historystore.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

bool earlier(const QDateTime &a, const QDateTime &b)
{
    return a.toMSecsSinceEpoch() < b.toMSecsSinceEpoch();
}

} // namespace

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TimelineModel::setCapacity(int rows)
{
    m_capacity = std::max(1, rows);
    trimTo(m_capacity);
}

void TimelineModel::append(const HistoryEvent &event)
{
    // Events are rare (switches, loads): one insertion each is fine.
    const auto pos = std::upper_bound(m_rows.begin(), m_rows.end(), event.at,
                                      [](const QDateTime &at, const HistoryEvent &e) { return earlier(at, e.at); });
    const int row = int(pos - m_rows.begin());
    if (int(m_rows.size()) >= m_capacity && row == 0)
        return;   // older than everything kept, and no room
    beginInsertRows({}, row, row);
    m_rows.insert(pos, event);
    endInsertRows();
    trimTo(m_capacity);
}

void TimelineModel::trimTo(int rows)
{
    const int excess = int(m_rows.size()) - std::max(0, rows);
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
    endRemoveRows();
}

void TimelineModel::loadFrom(HistoryStore &store, const QDateTime &since)
{
    QList<HistoryEvent> loaded = store.events(since, m_capacity);   // newest first
    std::reverse(loaded.begin(), loaded.end());
    beginResetModel();
    m_rows.assign(loaded.cbegin(), loaded.cend());
    endResetModel();
}

void TimelineModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

HistoryEvent TimelineModel::eventAt(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return {};
    return m_rows[size_t(row)];
}

QList<EngineInterval> TimelineModel::engineIntervals(const QString &host, const QDateTime &from,
                                                     const QDateTime &to) const
{
    QList<EngineInterval> result;
    std::optional<EngineInterval> current;
    const auto close = [&](const QDateTime &end, bool ongoing) {
        if (!current)
            return;
        EngineInterval span = *std::exchange(current, std::nullopt);
        span.ongoing = ongoing;
        span.end = end;   // invalid: still up, and no end of range was given
        if (from.isValid() && earlier(span.start, from))
            span.start = from;
        if (to.isValid() && span.end.isValid() && earlier(to, span.end))
            span.end = to;
        // A span that ended before `from` is now inverted: nothing of it is in range.
        if (!span.end.isValid() || earlier(span.start, span.end) || (ongoing && span.start == span.end))
            result.append(span);
    };
    for (const HistoryEvent &e : m_rows) {
        if (to.isValid() && earlier(to, e.at))
            break;
        // Nothing was observed while the relay did not run: a bar ends at a stop (or at a start
        // after a crash: TimelineContent cuts it back to the last event before) and a host's
        // next sign of life begins the next.
        if (HistoryEvent::isRelayKind(e.kind)) {
            close(e.at, false);
            continue;
        }
        if (e.host != host)
            continue;
        switch (e.kind) {
        case HistoryEvent::Kind::SwitchEnd:
            close(e.at, false);
            current = EngineInterval{e.engine, e.at, {}, false};
            break;
        case HistoryEvent::Kind::HostUp:
            if (!current && !e.engine.isEmpty())
                current = EngineInterval{e.engine, e.at, {}, false};
            break;
        case HistoryEvent::Kind::SwitchStart:
        case HistoryEvent::Kind::SwitchFailed:
        case HistoryEvent::Kind::HostDown:
        case HistoryEvent::Kind::IdleStop:   // its engine stopped: no bar until one starts again
            close(e.at, false);
            break;
        default:
            break;
        }
    }
    close(to, true);
    return result;
}

QList<HistoryEvent> TimelineModel::eventsBetween(const QDateTime &from, const QDateTime &to) const
{
    auto first = m_rows.begin();
    if (from.isValid()) {
        first = std::lower_bound(m_rows.begin(), m_rows.end(), from,
                                 [](const HistoryEvent &e, const QDateTime &at) { return earlier(e.at, at); });
    }
    auto last = m_rows.end();
    if (to.isValid()) {
        last = std::upper_bound(first, m_rows.end(), to,
                                [](const QDateTime &at, const HistoryEvent &e) { return earlier(at, e.at); });
    }
    return QList<HistoryEvent>(first, last);
}

QString TimelineModel::kindTitle(HistoryEvent::Kind kind)
{
    switch (kind) {
    case HistoryEvent::Kind::SwitchStart: return tr("switching");
    case HistoryEvent::Kind::SwitchEnd: return tr("engine up");
    case HistoryEvent::Kind::SwitchFailed: return tr("switch failed");
    case HistoryEvent::Kind::Load: return tr("model loaded");
    case HistoryEvent::Kind::Unload: return tr("model unloaded");
    case HistoryEvent::Kind::LeaseTaken: return tr("lease taken");
    case HistoryEvent::Kind::LeaseReleased: return tr("lease released");
    case HistoryEvent::Kind::HostUp: return tr("host up");
    case HistoryEvent::Kind::HostDown: return tr("host down");
    case HistoryEvent::Kind::Failover: return tr("failover");
    case HistoryEvent::Kind::CacheSave: return tr("prompt cache saved");
    case HistoryEvent::Kind::CacheRestore: return tr("prompt cache restored");
    case HistoryEvent::Kind::WakeSent: return tr("waking");
    case HistoryEvent::Kind::Woke: return tr("awake");
    case HistoryEvent::Kind::WakeTimedOut: return tr("did not wake");
    case HistoryEvent::Kind::IdleStop: return tr("idle stop");
    case HistoryEvent::Kind::SleepCommand: return tr("asleep");
    case HistoryEvent::Kind::RelayStarted: return tr("Switchyard started");
    case HistoryEvent::Kind::RelayStopped: return tr("Switchyard stopped");
    }
    return {};
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::display(const HistoryEvent &e, int column) const
{
    switch (column) {
    case TimeColumn:
        return JournalFormat::timestamp(e.at);
    case HostColumn:
        return e.host;
    case KindColumn:
        return kindTitle(e.kind);
    case EngineColumn:
        return e.engine;
    case ModelColumn:
        return e.model;
    case DurationColumn:
        return e.duration ? JournalFormat::goDuration(*e.duration) : QString();
    case DetailColumn:
        return e.detail;
    }
    return {};
}

QVariant TimelineModel::sortValue(const HistoryEvent &e, int column) const
{
    switch (column) {
    case TimeColumn:
        return e.at.toMSecsSinceEpoch();
    case KindColumn:
        return int(e.kind);
    case DurationColumn:
        return e.duration ? qint64(e.duration->count()) : qint64(-1);
    default:
        return display(e, column);
    }
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryEvent &e = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(e, index.column());
    case Qt::ToolTipRole:
        return JournalFormat::eventLine(e.at, e.toString());
    case SortRole:
        return sortValue(e, index.column());
    case KindRole:
        return int(e.kind);
    case EventIdRole:
        return e.id;
    default:
        return {};
    }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case HostColumn: return tr("Host");
    case KindColumn: return tr("Event");
    case EngineColumn: return tr("Engine");
    case ModelColumn: return tr("Model");
    case DurationColumn: return tr("Duration");
    case DetailColumn: return tr("Detail");
    }
    return {};
}

QHash<int, QByteArray> TimelineModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(SortRole, "sortValue");
    names.insert(KindRole, "kind");
    names.insert(EventIdRole, "eventId");
    return names;
}

} // namespace switchyard
