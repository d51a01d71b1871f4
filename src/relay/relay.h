#pragma once

#include "config/config.h"
#include "http/incomingrequest.h"
#include "http/requesthandler.h"
#include "journal/requestrecord.h"
#include "relay/accesspolicy.h"
#include "api/errorreply.h"
#include "relay/jsonmodelfield.h"
#include "relay/liverecord.h"
#include "relay/modelresolver.h"
#include "relay/proxiedrequest.h"
#include "relay/proxiedrequestlistener.h"
#include "relay/upstreamrequestbuilder.h"
#include "store/historyevent.h"

#include <memory>

#include <QHash>
#include <QObject>
#include <QPointer>

namespace switchyard {

class Catalog;
class Clock;
class HostController;
class ReplicaRouter;
class ResponseWriter;
class UpstreamPool;
struct ClientReply;
struct ModelRoute;

// The relay's HTTP surface: its own answers (/health, merged /models, CORS, refusals) and the
// model paths it resolves to a host and forwards with the model's key.
class Relay final : public QObject, public RequestHandler, private ProxiedRequestListener
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Relay)

public:
    // admin answers /admin/... once the relay's admin gate let a request through (null: refused).
    // Its history events are stamped by clock (the system's when none is given).
    Relay(const Config &config, Catalog *catalog, UpstreamPool *pool, RequestHandler *admin,
          const Clock *clock = nullptr, QObject *parent = nullptr);
    ~Relay() override;

    void handleRequest(const IncomingRequest &request, ResponseWriter *writer) override;
    QByteArray refusalBody(int status, const QByteArray &path, const QString &message) const override;
    void requestRefused(const IncomingRequest &request, int status, const QString &message) override;
    int requestsInFlight() const { return m_inFlight; }
    // Answers every request still waiting for its host with `reply` (the relay shuts down):
    // what runs upstream goes on; what waits would only be cut when the grace period ends.
    void refuseWaiting(const ClientReply &reply);
    // Requests for these hosts go through their controller (drain, switch, lease).
    void setHostControllers(const QList<HostController *> &controllers);
    // Which peers count as this machine for the admin API (tests call 127.0.0.2 a LAN peer).
    void setPeerPolicy(const PeerPolicy &peers) { m_access.setPeerPolicy(peers); }
    int eventSubscribers() const { return int(m_subscribers.size()); }
    // Moves the requests' lifecycles refused since the start: bugs, each logged; tests expect 0.
    int refusedLifecycleMoves() const { return m_refusedMoves; }

    // One relabelled /models/sse frame for every subscriber of the relay's own feed.
    void broadcastModelEvent(const QByteArray &frame);

Q_SIGNALS:
    void requestStarted(const switchyard::RequestRecord &record);
    void requestFinished(const switchyard::RequestRecord &record);
    // A request from its arrival to its end, for live views: the record so far (its liveId, and
    // while it waits the reason and since when). Streams report their token count a few times a
    // second at most. requestFinished() carries the same liveId and ends it. The relay's own
    // quick answers (/health, /v1/models, CORS) have no progress, only their finished record.
    void requestProgress(const switchyard::RequestRecord &record, switchyard::RequestPhase phase);
    // The relay's own events: a request of a replicated alias failed over to the next replica.
    void historyEvent(const switchyard::HistoryEvent &event);

private:
    // One request on its way upstream; failover moves it to another replica.
    struct Forwarding
    {
        ModelRoute route;
        LiveRecord live;
        QString engine;
        quint64 conversation = 0;
        ModelRoute::Target counted;   // whose in-flight count it adds to
        qint64 restoredTokens = 0;    // set at admission when a saved prompt cache was restored just before
        IncomingRequest request;      // what failover sends to the next replica
        JsonModelField field;
        QPointer<ResponseWriter> writer;
    };
    // What the relay's requests tell it (ProxiedRequestListener), each about its Forwarding.
    QString requestWaitingFor(const ProxiedRequest *request) override;
    void requestSent(ProxiedRequest *request) override;
    void requestAnswering(ProxiedRequest *request, int status) override;
    void requestStreamed(ProxiedRequest *request, qint64 tokens) override;
    QString requestUnreachable(ProxiedRequest *request, const QString &why) override;
    bool requestFailover(ProxiedRequest *request, const QString &why) override;
    void requestConcluded(ProxiedRequest *request, const ProxiedRequest::Outcome &outcome) override;

    void refuse(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                const ClientReply &reply);
    void replyJson(ResponseWriter *writer, RequestRecord record, int status, const QByteArray &body,
                   HeaderList headers = {});
    // The body goes upstream as the client sent it, with the model's value (field, when found)
    // replaced by the engine's key.
    void forward(const IncomingRequest &request, ResponseWriter *writer, const std::shared_ptr<Forwarding> &f,
                 const JsonModelField &field, const ProxiedRequest::Waiting &waiting);
    // The host's controller decides when it goes upstream (or refuses it).
    void admit(const QPointer<ProxiedRequest> &p, const std::shared_ptr<Forwarding> &f,
               const IncomingRequest &request, const JsonModelField &field);
    void handleModelRequest(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record);
    void dispatch(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                  const ModelRoute &route, const JsonModelField &field);
    // The engine did not answer: the host reads down, and its controller asks what runs.
    void markUnreachable(const QString &host, const QString &why);
    // Moves route to its next replica, with a journal line and a history event; false when it
    // has none left.
    bool failOver(ModelRoute &route, const QString &why);
    // Sends the request to f's (new) replica.
    void retarget(const QPointer<ProxiedRequest> &p, const std::shared_ptr<Forwarding> &f,
                  const IncomingRequest &request, const JsonModelField &field);
    void routeToEngine(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                       const ModelRoute &route, const JsonModelField &field);
    void finishRecord(RequestRecord record, ResponseWriter *writer);
    void subscribe(ResponseWriter *writer, RequestRecord record);

    Config m_config;
    Catalog *m_catalog;
    UpstreamPool *m_pool;
    ModelResolver m_resolver;
    AccessPolicy m_access;
    UpstreamRequestBuilder m_upstream;
    ReplicaRouter *m_replicas;
    int m_inFlight = 0;
    QList<QPointer<ResponseWriter>> m_subscribers;
    QHash<QString, HostController *> m_controllers;
    // The requests under way, each with what the relay knows of it; out when it concludes.
    QHash<const ProxiedRequest *, std::shared_ptr<Forwarding>> m_forwarding;
    int m_refusedMoves = 0;
    RequestHandler *m_admin;
    const Clock *m_clock;
};

} // namespace switchyard
