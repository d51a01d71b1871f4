#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>

namespace switchyard {

class Catalog;
class Clock;
class HistoryStore;
class RelayService;

// Turns what the catalog's polls observe into history events: a host coming up (with its
// engine) or going down, and a model finishing a load or being unloaded. The host controllers
// record switches and leases; these are the rest of what the timeline shows, also after a
// restart. While a controller switches, drains or lends its host, the engine is down on
// purpose: that is not recorded as the host going down.
//
// What it remembers survives setService(), so a config reload does not record every host as
// coming up again; nor as going down when the new catalog first polls a host's first engine
// while another one runs (until its controller has probed which): issue 22, item 12.
class CatalogEventRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CatalogEventRecorder)

public:
    // The store and the clock must outlive the recorder.
    CatalogEventRecorder(HistoryStore *store, const Clock &clock, QObject *parent = nullptr);

    void setService(switchyard::RelayService *service);

private:
    struct Seen
    {
        bool reachable = false;
        QString engine;
        // The catalog's last poll when it turned to another engine: an "unreachable" from before
        // it has polled that engine says nothing about the host.
        QDateTime engineSetAfter;
        QHash<QString, QString> status;         // key -> last status
        QHash<QString, QDateTime> loadingSince;  // key -> when it was first seen loading
    };

    void observe();

    HistoryStore *m_store;
    const Clock &m_clock;
    QPointer<RelayService> m_service;
    QPointer<Catalog> m_catalog;
    QHash<QString, Seen> m_seen;
};

} // namespace switchyard
