#pragma once

#include "catalog/catalog.h"
#include "catalog/hostmodels.h"
#include "engines/enginefailure.h"
#include "engines/gpureading.h"
#include "journal/requestrecord.h"
#include "store/historyevent.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace switchyard {

// What a watched relay's admin API answers, read into what the window shows (RemoteRelayFeed
// polls; this reads). Times come with their zone offset and are read into this machine's local
// time; a time without one (a relay before the offsets) is taken as this machine's.
class RemoteRelayJson final
{
public:
    // One host as GET /admin/hosts reports it: what a card shows.
    struct Host
    {
        Catalog::HostState state;   // host, engine, url, reachable, last poll, round trip, models
        QString controllerState;    // serving | draining | switching | leased | down | unknown
        QString targetEngine;
        QStringList engines;
        QString driver;
        QString leaseOwner;
        QDateTime leaseUntil;
        QList<GpuReading> gpus;
        int inFlight = 0;           // its running and waiting requests
        bool live = false;          // reachable, its events streaming to that relay
        int agentProtocol = 0;      // the agent protocol its agent speaks; 0: no agent, or not said
        int relayProtocol = 0;      // ...and the one that relay speaks
        // The switch its waiters wait for (next_switch): to which engine, how many wait, when it
        // is due and the latest it starts; empty engine when none waits (or a relay before it).
        QString nextEngine;
        int nextWaiting = 0;
        QDateTime nextDue;
        QDateTime nextLatest;
        // Why its last switch failed, as facts (its last_failure); nullopt without one, or from a
        // relay before them (then state.lastError has that relay's English).
        std::optional<EngineFailure> lastFailure;
    };

    // One model as GET /admin/models lists it (the /v1/models shape): a row of the models table.
    struct Model
    {
        QString alias;              // what clients ask for
        QString host;               // a replicated alias: its targets' hosts, joined by ", "
        QString key;
        QString engine;
        ModelEntry entry;           // status, and the engine's own entry
        qint64 context = 0;         // tokens; 0: unknown
        QStringList replicas;       // a replicated alias: its targets ("h1-m1", ...)
    };

    static QDateTime timeFrom(const QJsonValue &v);
    static RequestRecord request(const QJsonObject &o);
    static std::optional<HistoryEvent> event(const QJsonObject &o);
    static QList<Host> hosts(const QJsonArray &array);
    // nullopt when the answer is not a model list.
    static std::optional<QList<Model>> models(const QByteArray &json);

    RemoteRelayJson() = delete;
};

} // namespace switchyard
