#pragma once

#include "catalog/catalog.h"
#include "app/remoterelayfeed.h"
#include "engines/gpureading.h"
#include "shared/hostactivity.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <optional>

namespace switchyard {

class HostController;
class InFlightCounter;
class RelayService;
class RemoteRelayFeed;

// One row per configured host, from the catalog's snapshots (reachable, engine, last poll,
// round trip, last error, models) and the requests in flight. The Hosts view paints each row
// as a card; the tray lists them.
//
// Switching, draining, leases and failed switches come from the service's host controllers
// (setActivity() and setLease(), fed on every HostController::stateChanged); otherwise a host
// is Up, Down or Unknown, as its last poll says. A box that woke and starts its engine is still
// Waking (SwitchToRole names the engine), not switching from the engine it ran before it slept.
class HostTableModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostTableModel)

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        ActivityRole,          // int(HostActivity)
        ActivityTextRole,      // "up", "down: connection refused", "switching to fork", ...
        EngineRole,
        EnginesRole,           // QStringList: the host's configured engines
        UrlRole,               // the current engine's URL
        RoundTripMsRole,       // qint64, -1 when unknown
        LastPollRole,          // QDateTime
        LastErrorRole,
        ModelsLoadedRole,      // int
        ModelsTotalRole,       // int
        InFlightRole,          // int
        LeaseOwnerRole,        // empty when not leased
        LeaseUntilRole,        // QDateTime, invalid when open-ended or not leased
        DriverRole,            // static | local | agent | command
        SwitchFromRole,        // during a drain or switch: the engine it leaves (may be empty)
        SwitchToRole,          // ...and the one it starts; waking: the engine a box that woke starts
        ActivitySinceRole,     // QDateTime: when the drain or switch (or the wake) began
        LoadingRole,           // QStringList: the models loading now (or downloading, on a router)
        LoadingSinceRole,      // QDateTime: when the first of them was seen loading
        LiveRole,              // bool: the host's /models/sse feed is connected (events come at once)
        NextEngineRole,        // the batch policy holds requests for this engine while the running one serves on
        NextWaitingRole,       // int: how many wait for it
        NextDueRole,           // QDateTime: when the switch to it starts; invalid while requests run
        GpusRole,              // QList<GpuReading>: what the host's agent reads off its GPUs; empty without
        LoadProgressRole,      // LoadProgress of the one model loading, as its router said; empty without, or with several
        ProtocolNoticeRole,    // the host's agent speaks another agent protocol than the relay: what that means; else empty
        NextLatestRole,        // QDateTime: the latest the switch to NextEngineRole starts (its waiters' bound); invalid when unknown
        PromptCachesRole,      // "prompt caches: 3 saved, 412 MB of 20 GB"; empty when the host keeps none (or is watched)
    };

    explicit HostTableModel(QObject *parent = nullptr);

    // Follows the service's catalog; rebinding (after a config reload) resets the rows.
    void setService(switchyard::RelayService *service);
    void setInFlightCounter(InFlightCounter *counter);
    // Follows a relay watched from here instead (its /admin/hosts); setService() goes back.
    void setRemote(switchyard::RemoteRelayFeed *feed);
    bool isRemote() const { return m_remote != nullptr; }
    RemoteRelayFeed *remote() const { return m_remote; }

    // For the host controllers: what the host is doing beyond up/down. nullopt: back to what
    // the polls say.
    void setActivity(const QString &host, std::optional<switchyard::HostActivity> activity,
                     const QString &detail = {});
    void setLease(const QString &host, const QString &owner, const QDateTime &until = {});

    QStringList hostNames() const;
    int rowOf(const QString &host) const;
    HostActivity activity(int row) const;
    QList<HostActivity> activities() const;
    // Hosts that serve or will at the next request: up, idle, draining or switching. A leased
    // host is not counted; hostsLeased() says how many are.
    int hostsUp() const;
    int hostsLeased() const;
    // Requests in flight on every host (a watched relay's, as its hosts report them).
    int inFlightTotal() const;

    static QString activityTitle(HostActivity activity);
    // What the requests held for the next switch wait for and until when: "2 waiting for engine
    // beta · switch at the latest 10:42:15 (in 25 s)"; without a bound, the first part.
    static QString waitingText(const QString &engine, int waiting, const QDateTime &latest, const QDateTime &now);
    // "agent speaks protocol 1; this relay 2: ...", or empty when both speak the same (or the
    // host has no agent, or it has not said yet).
    static QString protocolNotice(int agentProtocol, int relayProtocol);
    // "prompt caches: 3 saved, 412 MB of 20 GB": the saved prompt caches of a box against its
    // disk budget (PromptCacheKeeper::usage()).
    static QString promptCacheText(int saved, qint64 bytes, qint64 maxBytes);

    HostController *controller(const QString &host) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    // Any host's activity changed (up, down, switching, ...): for the tray icon.
    void activitiesChanged();

private:
    struct Row
    {
        Catalog::HostState state;
        QStringList engines;
        QString driver;
        QList<GpuReading> gpus;   // a watched relay's; the local relay's come from its GpuBoard
        int inFlight = 0;         // a watched relay's; the local one's come from the InFlightCounter
        bool live = false;        // a watched relay's; the local one's from its ModelEvents
    };
    // What the host controllers said; kept by host name, so it survives a rebind.
    struct Overlay
    {
        std::optional<HostActivity> activity;
        QString detail;
        QString leaseOwner;
        QDateTime leaseUntil;
        QString from;        // a drain or switch: the engine it leaves
        QString to;          // ...and the one it starts
        QDateTime since;     // when it began (kept from the drain through the switch)
        QString next;        // serving on while requests for this engine wait (batch policy)
        int nextWaiting = 0;
        QDateTime nextDue;   // invalid while requests run
        QDateTime nextLatest;   // the latest the switch starts: the host's bound for its waiters
        int agentProtocol = 0;   // what the host's agent speaks (0: no agent, or not said yet)
        int relayProtocol = 0;   // ...and the relay in front of it
    };

    void syncFromCatalog();
    void syncFromRemote();
    static QString downReason(const RemoteRelayFeed::Host &host);
    void detach();
    void replaceRows(const QList<Row> &rows);
    void syncFromController(switchyard::HostController *controller);
    void emitRowChanged(int row);
    HostActivity activityOf(const Row &row) const;
    // The prompt-cache line of a local service's host, kept apart from the rest of the card.
    void followPromptCaches(switchyard::HostController *controller);
    QString promptCacheLine(const QString &host) const;
    QString activityText(const Row &row) const;

    QPointer<RelayService> m_service;
    QPointer<Catalog> m_catalog;
    QPointer<RemoteRelayFeed> m_remote;
    QPointer<InFlightCounter> m_inFlight;
    QList<QPointer<HostController>> m_controllers;
    QList<Row> m_rows;
    QHash<QString, Overlay> m_overlays;
    QHash<QString, QDateTime> m_loadingSince;   // "host\nkey" -> first seen loading
    // Hosts whose catalog turned to another engine (a switch ended, a probe named the one
    // running) and has not read that engine since: its state still says nothing about it.
    QSet<QString> m_engineNotPolled;
};

} // namespace switchyard
