#pragma once

#include "store/engineinterval.h"
#include "store/historyevent.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

#include <deque>

namespace switchyard {

class HistoryStore;

// Host events (switches, loads, leases, health) in time order, oldest first: the switch
// timeline's rows, and the intervals its painter draws. Fed live through append() and from
// the store through loadFrom(). Capped: when full, the oldest events go.
class TimelineModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineModel)

public:
    enum Column { TimeColumn, HostColumn, KindColumn, EngineColumn, ModelColumn, DurationColumn,
                  DetailColumn, ColumnCount };

    enum Role {
        SortRole = Qt::UserRole + 1,   // raw value of the column: ms since epoch, kind, ms, ...
        KindRole,                      // int(HistoryEvent::Kind)
        EventIdRole,                   // the store's id (0 when not from a store)
    };

    static constexpr int DefaultCapacity = 10000;

    explicit TimelineModel(QObject *parent = nullptr);

    int capacity() const { return m_capacity; }
    void setCapacity(int rows);

    // Inserted at its place in time (normally the end).
    void append(const switchyard::HistoryEvent &event);
    // Replaces the contents with the newest capacity() events since `since` (invalid: any).
    void loadFrom(HistoryStore &store, const QDateTime &since);
    void clear();

    HistoryEvent eventAt(int row) const;

    // The spans in which an engine was up on host, clipped to [from, to]. An engine is up from
    // its switch_end (or a host_up naming it) until the host's next switch_start,
    // switch_failed, host_down or idle_stop, or the relay's own start or stop. A span whose
    // start is older than the loaded history is not known and not returned.
    QList<EngineInterval> engineIntervals(const QString &host, const QDateTime &from,
                                          const QDateTime &to) const;
    // Events with from <= at <= to, in time order; an invalid bound does not limit.
    QList<HistoryEvent> eventsBetween(const QDateTime &from, const QDateTime &to) const;

    static QString kindTitle(HistoryEvent::Kind kind);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void trimTo(int rows);
    QVariant display(const HistoryEvent &e, int column) const;
    QVariant sortValue(const HistoryEvent &e, int column) const;

    std::deque<HistoryEvent> m_rows;   // sorted by `at`; equal times in arrival order
    int m_capacity = DefaultCapacity;
};

} // namespace switchyard
