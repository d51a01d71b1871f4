#pragma once

#include "journal/clientapp.h"
#include "journal/requestrecord.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
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
//
// A request in flight is a live row from its first progress report (updateLive: waiting and
// why, sent, streaming with its token count) until its finished record, with the same liveId,
// takes its place. Live rows' durations tick once a second.
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
        LiveRole,                      // true while the request is in flight
        PhaseRole,                     // its RequestPhase while in flight
    };

    enum class Severity { Normal, ClientError, Error, InProgress, Aborted };

    static constexpr int DefaultCapacity = 5000;

    explicit RequestLogModel(QObject *parent = nullptr);

    int capacity() const { return m_capacity; }
    void setCapacity(int rows);

    // Queued until the event loop turns; rowCount() grows then. A finished record whose liveId
    // has a live row replaces it.
    void append(const switchyard::RequestRecord &record);
    // A request in flight (Relay::requestProgress): a new live row, or its row updated.
    void updateLive(const switchyard::RequestRecord &record, switchyard::RequestPhase phase);
    bool isLive(int row) const;
    int liveCount() const { return int(m_live.size()); }
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
    // A duration as the log and its details pane show it: "420 µs", "12 ms", "2.35 s", "3 min 04 s".
    static QString durationText(std::chrono::nanoseconds d);
    // "switch fork→mainline", "model loading", ...: a wait's reason in the window's words.
    static QString waitText(const WaitReason &reason);
    // "waiting: model loading", "streaming": where a request in flight is.
    static QString phaseText(RequestPhase phase, const WaitReason &reason);
    // The same for a live row, with the bound of its wait when the record has one (waitUntil):
    // "waiting: switch alpha→beta · at the latest 10:42:15".
    static QString liveStatusText(RequestPhase phase, const RequestRecord &record);
    // What a waiting request waits for and until when, for its details and its tooltip:
    // "waits for engine beta · switch at the latest 10:42:15 (in 25 s)"; empty unless it waits.
    static QString waitingText(RequestPhase phase, const RequestRecord &record, const QDateTime &now);
    // The window's own calls (its loads, the export's model list): hidden from the log by default.
    static bool isOwnRequest(const RequestRecord &record);

private:
    int liveRow(quint64 liveId) const;   // -1 when it has no row
    void tickLive();
    void insertPending();
    void trimTo(int rows);
    QVariant display(const RequestRecord &r, int column) const;
    QVariant liveDisplay(const RequestRecord &r, RequestPhase phase, int column) const;
    QVariant sortValue(const RequestRecord &r, int column) const;

    std::deque<RequestRecord> m_rows;   // pops at the front when full, without moving the rest
    QList<RequestRecord> m_pending;
    QTimer m_insertTimer;
    QHash<quint64, RequestPhase> m_live;   // liveId of each request in flight
    QTimer m_tickTimer;                    // live rows' durations
    int m_capacity = DefaultCapacity;
};

} // namespace switchyard
