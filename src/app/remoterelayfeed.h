#pragma once

#include "catalog/catalog.h"
#include "engines/gpureading.h"
#include "journal/requestrecord.h"
#include "journal/waitreason.h"
#include "store/historyevent.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <chrono>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace switchyard {

class HistoryStore;

// A relay running elsewhere, watched through its admin API instead of running one here: its
// hosts (GET /admin/hosts), and its finished requests and events (GET /admin/requests,
// /admin/events) copied into a local HistoryStore, so the window's request log, timeline and
// model statistics read them as they read the local relay's. Polls every `interval`; the admin
// token goes in "Authorization: Bearer" and nowhere else.
class RemoteRelayFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteRelayFeed)

public:
    // One host as the remote relay reports it: what a card shows.
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
    };

    RemoteRelayFeed(const QUrl &relay, const QString &adminToken, HistoryStore *store,
                    std::chrono::milliseconds interval = std::chrono::seconds(2), QObject *parent = nullptr);
    ~RemoteRelayFeed() override;

    void start();
    QUrl relay() const { return m_relay; }
    HistoryStore *store() const { return m_store; }
    QList<Host> hosts() const { return m_hosts; }
    // Empty while the last poll was answered; else what went wrong ("401: wrong admin token").
    QString error() const { return m_error; }
    bool connected() const { return m_connected; }

    // Actions on the watched relay's hosts, through its admin API; each ends in `done` with the
    // HTTP status (0: no answer) and the relay's message, then the hosts are asked again.
    using Done = std::function<void(int status, const QString &message)>;
    void switchEngine(const QString &host, const QString &engine, Done done);   // POST /admin/hosts/H/engine
    void takeLease(const QString &host, const QString &owner, std::chrono::seconds ttl, Done done);
    void releaseLease(const QString &host, Done done);                          // DELETE /admin/hosts/H/lease

    // Reads /admin/requests and /admin/events entries back into what the store keeps.
    static RequestRecord requestFromJson(const QJsonObject &o);
    static std::optional<HistoryEvent> eventFromJson(const QJsonObject &o);
    static QList<Host> hostsFromJson(const QJsonArray &array);

Q_SIGNALS:
    void hostsChanged();
    // The relay answered (again) or stopped answering; error() says why.
    void connectionChanged(bool connected);
    // A request the watched relay serves now (each poll, while it runs), with the relay's liveId;
    // its finished record, when copied into the store, carries the same liveId.
    void requestActive(const switchyard::RequestRecord &record, switchyard::RequestPhase phase);

private:
    void poll();
    QNetworkReply *get(const QString &pathAndQuery);
    QNetworkRequest requestFor(const QString &pathAndQuery) const;
    void act(const QByteArray &method, const QString &path, const QJsonObject &body, Done done);
    // Answers 200 with JSON: true; else records why and returns false.
    bool readReply(QNetworkReply *reply, QJsonDocument *document);
    void setConnected(bool connected, const QString &error);
    void readRequests(const QJsonArray &array);
    void readEvents(const QJsonArray &array);
    void readActive(const QJsonArray &array);
    static QString liveKey(const QJsonObject &o);

    QUrl m_relay;
    QByteArray m_token;
    HistoryStore *m_store;
    QNetworkAccessManager *m_network;
    QTimer m_timer;
    QList<Host> m_hosts;
    QString m_error;
    bool m_connected = false;
    int m_pending = 0;           // replies of the poll under way
    qint64 m_lastRequestId = -1; // the remote's ids already copied (newest); -1: none yet
    qint64 m_lastEventId = -1;
    QHash<QString, quint64> m_liveIds;   // requests seen in flight, by liveKey(), until they finish
};

} // namespace switchyard
