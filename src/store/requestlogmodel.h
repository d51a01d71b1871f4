#pragma once

#include "journal/clientapp.h"
#include "journal/requestrecord.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QTimer>

#include <deque>

namespace switchyard {

class HistoryStore;

// The live request log: one row per request, oldest first and newest last, like the journal
// (a view that wants newest on top sorts by SortRole through a proxy, or scrolls to the
// bottom). Capped: when full, the oldest rows go.
//
// Appends that arrive in one event-loop turn become one row insertion, so a burst of finished
// requests costs the view one layout pass, not one per request.
class RequestLogModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestLogModel)

public:
    enum Column { TimeColumn, MethodColumn, PathColumn, AliasColumn, HostColumn, StatusColumn,
                  DurationColumn, TtfbColumn, TokensPerSecondColumn, AppColumn, ClientColumn, ColumnCount };

    enum Role {
        SortRole = Qt::UserRole + 1,   // raw value of the column: ms since epoch, status, ms, ...
        SeverityRole,                  // Severity, for the GUI to pick a color
        RecordIdRole,                  // the store's id (0 when not from a store)
    };

    enum class Severity { Normal, ClientError, Error };

    static constexpr int DefaultCapacity = 5000;

    explicit RequestLogModel(QObject *parent = nullptr);

    int capacity() const { return m_capacity; }
    void setCapacity(int rows);

    // Queued until the event loop turns; rowCount() grows then.
    void append(const switchyard::RequestRecord &record);
    // Inserted at once, as one insertion (oldest first).
    void appendRecords(const QList<switchyard::RequestRecord> &records);
    // Replaces the contents with the newest capacity() requests since `since` (invalid: any).
    void loadFrom(HistoryStore &store, const QDateTime &since);
    void clear();

    RequestRecord recordAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    static Severity severity(const RequestRecord &record);
    // "Claude Code", "OpenAI SDK (Python)": the App column's words for a client app.
    static QString appName(ClientApp app);

private:
    void insertPending();
    void trimTo(int rows);
    QVariant display(const RequestRecord &r, int column) const;
    QVariant sortValue(const RequestRecord &r, int column) const;

    std::deque<RequestRecord> m_rows;   // pops at the front when full, without moving the rest
    QList<RequestRecord> m_pending;
    QTimer m_insertTimer;
    int m_capacity = DefaultCapacity;
};

} // namespace switchyard
