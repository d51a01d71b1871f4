#pragma once

#include "app/remoterelayjson.h"
#include "journal/waitreason.h"

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
class RemoteEventStream;

// A relay running elsewhere, watched through its admin API instead of running one here: its
// hosts (GET /admin/hosts), its models (GET /admin/models), and its finished requests and events
// (GET /admin/requests, /admin/events, paged with an after_id cursor so none is missed however
// many come between two polls) copied into a local HistoryStore, so the window's request log,
// timeline and model statistics read them as they read the local relay's. Live from the relay's
// GET /admin/stream (its changes as they happen) while that is open; polls every `interval` as
// the fallback while it is not (a relay before it, a cut), and every LiveSafetyInterval while it
// is. The stream and the pages share the cursors, so each request and event is copied once
// however the two take turns. The admin token goes in "Authorization: Bearer" and nowhere else.
class RemoteRelayFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteRelayFeed)

public:
    using Host = RemoteRelayJson::Host;
    using Model = RemoteRelayJson::Model;

    // Requests and events asked for per page; a full page is followed by the next at once.
    static constexpr int PageSize = 500;
    // While the stream is live: a poll this often at most, for anything it could have missed.
    static constexpr std::chrono::milliseconds LiveSafetyInterval{std::chrono::seconds(30)};

    RemoteRelayFeed(const QUrl &relay, const QString &adminToken, HistoryStore *store,
                    std::chrono::milliseconds interval = std::chrono::seconds(2), QObject *parent = nullptr);
    ~RemoteRelayFeed() override;

    // The relay's own address from what the user typed: "http://server:8080/v1/" and
    // "http://server:8080/admin" are the relay at http://server:8080 (no query, no trailing "/").
    static QUrl relayBase(const QUrl &watched);

    // Without the stream: polls only (call before start()).
    void setLiveStreamEnabled(bool enabled) { m_streamEnabled = enabled; }
    // The stream's retry backoff (RemoteEventStream::FirstRetry to LastRetry unless set).
    void setStreamRetryDelays(std::chrono::milliseconds first, std::chrono::milliseconds last);
    void start();
    // Polls now ("Refresh Now"); when a poll is out, another follows as soon as it is done.
    void refresh();
    QUrl relay() const { return m_relay; }
    // Where the watched relay serves clients: relayBase() (the admin API is on the same port).
    QUrl baseUrl() const { return m_base; }
    // What the user's coding agents use as their base URL: baseUrl() + "/v1".
    QUrl clientUrl() const;
    HistoryStore *store() const { return m_store; }
    // Where the copies go from now on (see historyReplaced()).
    void setStore(HistoryStore *store) { m_store = store; }
    // The watched relay's history database (its "Switchyard-History" id); empty before it said.
    QString historyId() const { return m_historyId; }
    QList<Host> hosts() const { return m_hosts; }
    QList<Model> models() const { return m_models; }
    // The last model list as GET /admin/models answered it (the /v1/models shape): what the
    // export writes client configs from; empty until it answered.
    QByteArray modelsJson() const { return m_modelsJson; }
    // Empty while the last poll was answered; else what went wrong ("401: wrong admin token").
    QString error() const { return m_error; }
    bool connected() const { return m_connected; }
    // Whether the relay's changes come live from its /admin/stream now (else by polling).
    bool isLive() const;
    // For the status bar: "live", or that it polls and why (the stream refused, cut, or not
    // there: a relay before it); empty while the first attempt is out or without the stream.
    QString liveStatus() const;
    // The stream's attempts so far (its first and its retries).
    int streamAttempts() const;
    // Polls sent so far (each asks every endpoint once, pages aside).
    int pollCount() const { return m_polls; }
    // GETs sent so far: per poll the hosts, the models and what runs now, and the history's pages
    // only when the hosts' answer says there is something after the cursors (or another history).
    int requestsSent() const { return m_sent; }

    // Actions on the watched relay, through its admin API; each ends in `done` with the HTTP
    // status (0: no answer) and the relay's message, then the relay is asked again.
    using Done = std::function<void(int status, const QString &message)>;
    void switchEngine(const QString &host, const QString &engine, Done done);   // POST /admin/hosts/H/engine
    void takeLease(const QString &host, const QString &owner, std::chrono::seconds ttl, Done done);
    void releaseLease(const QString &host, Done done);                          // DELETE /admin/hosts/H/lease
    void loadModel(const QString &alias, Done done);                            // POST /admin/models/load
    void unloadModel(const QString &alias, Done done);                          // POST /admin/models/unload

Q_SIGNALS:
    void hostsChanged();
    void modelsChanged();
    // A poll is done: every endpoint answered (or not), every page read.
    void pollFinished();
    // The relay answered (again) or stopped answering; error() says why.
    void connectionChanged(bool connected);
    // The stream opened or was lost (isLive(), liveStatus()).
    void liveChanged();
    // The watched relay answers from another history database than before (it restarted on a
    // new one): its ids started again, so what was copied is not its history any more. Emitted
    // before the new history is copied, from the beginning, into store(): a slot may give the
    // feed a fresh store with setStore() so that the old copies are not shown with the new.
    void historyReplaced();
    // A request the watched relay serves now (each poll, while it runs), with the relay's liveId;
    // its finished record, when copied into the store, carries the same liveId.
    void requestActive(const switchyard::RequestRecord &record, switchyard::RequestPhase phase);

private:
    void poll();
    // Sends a GET of this poll; `read` gets the reply (deleted after it returns).
    void track(const QString &pathAndQuery, std::function<void(QNetworkReply *)> read);
    QNetworkRequest requestFor(const QString &pathAndQuery) const;
    void act(const QByteArray &method, const QString &path, const QJsonObject &body, Done done);
    // Answers 200 with JSON: true; else records why and returns false.
    bool readReply(QNetworkReply *reply, QJsonDocument *document);
    void setConnected(bool connected, const QString &error);
    // The history's pages that the hosts' answer (its history headers) says there are to read;
    // both from a relay without those headers.
    void fetchHistory(QNetworkReply *hostsReply);
    void fetchRequests();
    void fetchEvents();
    // Each returns whether the page was full and moved the cursor on (then the next is asked);
    // newest: the relay's newest id then (its header; -1: not said), where a page that is not
    // full leaves the cursor.
    bool readRequests(const QJsonArray &array, qint64 newest);
    bool readEvents(const QJsonArray &array, qint64 newest);
    void readActive(const QJsonArray &array);
    void readModels(QNetworkReply *reply);
    void readModelsJson(const QByteArray &json);
    // What the stream says.
    void onStreamFrame(const QByteArray &name, const QByteArray &data);
    void onStreamStateChanged();
    void onStreamHello(const QJsonObject &hello);
    void onStreamRequest(const QJsonObject &o);
    void onStreamHistoryEvent(const QJsonObject &o);
    // Pages when the stream told of rows after the cursors (it said so, or one came after a gap).
    void catchUp();
    bool streamOnThisHistory() const;
    // False when a history page is one to drop: asked before the relay's history was replaced,
    // or the first from a new one (then the history is asked again from the beginning).
    bool currentHistory(QNetworkReply *reply, int generation);
    static QString liveKey(const QJsonObject &o);

    QUrl m_relay;
    QUrl m_base;
    QByteArray m_token;
    HistoryStore *m_store;
    QNetworkAccessManager *m_network;
    QTimer m_timer;
    std::chrono::milliseconds m_interval;   // the poll's while the stream is not live
    RemoteEventStream *m_stream;
    bool m_streamEnabled = true;
    bool m_live = false;            // the stream was open at its last change
    QString m_streamHistory;        // the history the stream's ids belong to (its hello)
    qint64 m_streamRequestId = -1;  // the newest ids the stream told of
    qint64 m_streamEventId = -1;
    bool m_requestPagesOut = false; // a chain of pages is out (one at a time)
    bool m_eventPagesOut = false;
    QList<Host> m_hosts;
    QList<Model> m_models;
    QByteArray m_modelsJson;
    QString m_error;
    bool m_connected = false;
    int m_pending = 0;           // replies of the poll under way (its pages included)
    bool m_again = false;        // refresh() asked while a poll was out
    int m_polls = 0;
    int m_sent = 0;
    qint64 m_lastRequestId = -1; // the cursor: the remote's newest request id copied; -1: none yet
    qint64 m_lastEventId = -1;
    QString m_historyId;
    int m_generation = 0;        // history pages asked before a replaced history are dropped
    QHash<QString, quint64> m_liveIds;   // requests seen in flight, by liveKey(), until they finish
};

} // namespace switchyard
