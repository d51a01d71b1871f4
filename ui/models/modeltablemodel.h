#pragma once

#include "catalog/hostmodels.h"
#include "journal/requestrecord.h"
#include "store/aliasstats.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QPointer>
#include <QTimer>

#include <optional>

namespace switchyard {

class Catalog;
class Clock;
class HistoryStore;
class RelayService;
class RemoteRelayFeed;

// One row per alias (<host>-<key>) the catalog lists: where it lives, its state on its engine,
// its context size, and what it did today (requests, median tokens/s) from the history store.
// Rows follow the catalog (or a watched relay's model list): states update in place; models
// appearing or going reset the model.
class ModelTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelTableModel)

public:
    enum Column { AliasColumn, HostColumn, EngineColumn, StatusColumn, ContextColumn, LastUsedColumn,
                  RequestsColumn, TokensPerSecondColumn, ColumnCount };

    enum Role {
        SortRole = Qt::UserRole + 1,   // raw value of the column
        AliasRole,
        HostRole,
        KeyRole,
        StatusRole,                    // the engine's word: loaded, loading, unloaded, ...
    };

    static constexpr std::chrono::seconds StatsInterval{5};

    // The clock says what "today" is; it must outlive the model.
    explicit ModelTableModel(const Clock &clock, QObject *parent = nullptr);

    void setService(switchyard::RelayService *service);
    // The models of a relay watched from here (its /admin/models) instead; setService() goes back.
    void setRemote(switchyard::RemoteRelayFeed *feed);
    // Today's requests and medians come from here; every recorded request updates "last used".
    void setHistory(switchyard::HistoryStore *store);

    // Re-reads today's numbers from the store now (the model does so on its own every
    // StatsInterval while requests come in).
    void refreshStats();
    void setStats(const switchyard::AliasStats &stats);

    QString aliasAt(int row) const;
    QString statusAt(int row) const;
    int rowOfAlias(const QString &alias) const;
    // The engine's status word for people: "loaded" -> "loaded" (or its translation).
    static QString statusTitle(const QString &status);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString alias;
        QString host;
        QString key;
        QString engine;
        ModelEntry entry;
        // Tokens, 0 = unknown: the catalog's (an unloaded model's, another engine's, a configured
        // model's last seen size included), which entry alone no longer says.
        qint64 context = 0;
        QStringList replicas;   // a replicated alias's row: its targets ("3090-flint-40b", ...)
        QDateTime lastUsed;
        qint64 requestsToday = 0;
        qint64 errorsToday = 0;
        std::optional<double> medianTokensPerSecond;
        std::optional<double> medianTtfbMs;
    };

    void syncFromCatalog();
    void syncFromRemote();
    // The rows now: states update in place when the aliases are the same, else a reset.
    void setRows(QList<Row> rows);
    void appendReplicaRows(QList<Row> &rows) const;
    void noteRequest(const switchyard::RequestRecord &record);
    void applyStats(Row &row) const;
    void readLastUsed(Row &row);
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;

    const Clock &m_clock;
    QPointer<RelayService> m_service;
    QPointer<Catalog> m_catalog;
    QPointer<RemoteRelayFeed> m_remote;
    QPointer<HistoryStore> m_store;
    QList<Row> m_rows;
    AliasStats m_stats;
    QDate m_statsDay;
    bool m_statsDirty = false;
    QTimer m_statsTimer;
};

} // namespace switchyard
