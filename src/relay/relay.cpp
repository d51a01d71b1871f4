#include "relay/relay.h"

#include "catalog/catalog.h"
#include "common/clock.h"
#include "hosts/hostcontroller.h"
#include "http/incomingrequest.h"
#include "http/responsewriter.h"
#include "replies/clientreplies.h"
#include "relay/hostwaitreason.h"
#include "relay/jsonmodelfield.h"
#include "relay/proxiedrequest.h"
#include "relay/replicarouter.h"
#include "relay/sidecall.h"
#include "upstream/upstreampool.h"

#include <atomic>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// Unique in the process, across the relays a config reload makes: a live view keeps rows of the
// old relay's requests while the new one starts numbering.
quint64 nextLiveId()
{
    static std::atomic<quint64> last{0};
    return ++last;
}

// The engine will load the model before it answers (a router's model that is not loaded).
bool modelLoading(const Catalog *catalog, const QString &host, const QString &key)
{
    const std::optional<ModelEntry> entry = catalog->model(host, key);
    return entry && entry->status != "loaded"_L1;
}

bool isMutatingAdminPath(const QByteArray &method, const QString &path)
{
    return (path == "/models"_L1 || path.startsWith("/models/"_L1) || path == "/v1/models"_L1 || path.startsWith("/v1/models/"_L1))
        && method != "GET" && method != "HEAD" && method != "POST" && method != "OPTIONS";
}

RequestRecord recordFor(const IncomingRequest &request)
{
    RequestRecord record;
    record.startedAt = request.arrivedAt;
    record.startedSteady = request.arrivedSteady;
    record.method = QString::fromLatin1(request.method);
    record.path = request.path;
    record.clientAddress = request.clientAddress;
    record.userAgent = QString::fromUtf8(request.header("user-agent"));
    record.bytesIn = request.body.size();
    return record;
}
} // namespace

Relay::Relay(const Config &config, Catalog *catalog, UpstreamPool *pool, RequestHandler *admin, const Clock *clock,
             QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_catalog(catalog)
    , m_pool(pool)
    , m_resolver(config)
    , m_access(config.access)
    , m_upstream(config, catalog, m_access.keysRequired())
    , m_replicas(new ReplicaRouter(catalog, pool, config.limits.upstreamConnectTimeout, this))
    , m_admin(admin)
    , m_clock(clock ? clock : &systemClock())
{
}

Relay::~Relay()
{
    // The requests still under way call this relay back: they go first, while it is whole.
    const QList<const ProxiedRequest *> requests = m_forwarding.keys();
    m_forwarding.clear();
    for (const ProxiedRequest *request : requests)
        delete request;
}

void Relay::requestRefused(const IncomingRequest &request, int status, const QString &message)
{
    RequestRecord record = recordFor(request);
    if (record.method.isEmpty())
        record.method = u"-"_s;   // cut off before its request line was whole
    if (record.path.isEmpty())
        record.path = u"-"_s;
    record.status = status;
    record.relayError = message;
    finishRecord(record, nullptr);
}

void Relay::handleRequest(const IncomingRequest &request, ResponseWriter *writer)
{
    RequestRecord record = recordFor(request);
    record.liveId = nextLiveId();

    const QString &path = request.path;
    const QByteArray &method = request.method;

    if (method == "OPTIONS") {
        writer->respond(204, ClientReplies::corsHeaders(), {});
        finishRecord(record, writer);
        return;
    }
    if (path == "/"_L1 && (method == "GET" || method == "HEAD")) {
        replyJson(writer, record, 200, R"({"status":"ok","service":"switchyard"})");
        return;
    }
    if ((path == "/health"_L1 || path == "/v1/health"_L1) && (method == "GET" || method == "HEAD")) {
        replyJson(writer, record, 200, R"({"status":"ok"})");
        return;
    }
    if (path == "/admin"_L1 || path.startsWith("/admin/"_L1) || path == "/metrics"_L1) {
        // Admin, leases and the metrics have their own gate (this machine, or the admin token);
        // client keys do not open it.
        const bool allowed = path == "/metrics"_L1 ? m_access.metrics(request) : m_access.admin(request);
        if (!m_admin || !allowed) {
            refuse(request, writer, record, ClientReplies::adminOnlyHere());
            return;
        }
        if (const std::optional<IncomingRequest> action = AccessPolicy::adminModelAction(request)) {
            record.path = action->path;   // served as a client's load: its switch, journal and record
            return handleModelRequest(*action, writer, record);
        }
        QPointer<ResponseWriter> w(writer);
        connect(writer, &ResponseWriter::finished, this, [this, record, w] { finishRecord(record, w); });
        emit requestProgress(record, RequestPhase::Arrived);   // a lease or a switch may take a while
        m_admin->handleRequest(request, writer);
        return;
    }
    // /, /health and CORS preflights stay open: they say nothing and browsers send no key there.
    switch (m_access.client(request, &record.keyName)) {
    case AccessPolicy::Verdict::Allowed:
        break;
    case AccessPolicy::Verdict::MissingKey:
        refuse(request, writer, record, ClientReplies::keyMissing());
        return;
    case AccessPolicy::Verdict::WrongKey:
        refuse(request, writer, record, ClientReplies::keyWrong());
        return;
    }
    if (isMutatingAdminPath(method, path)) {
        refuse(request, writer, record, ClientReplies::changesHostBehindRelaysBack(record.method, path));
        return;
    }
    if ((path == "/models"_L1 || path == "/v1/models"_L1) && (method == "GET" || method == "HEAD")) {
        replyJson(writer, record, 200, m_catalog->modelsJson());
        return;
    }
    if (path == "/models/sse"_L1 && method == "GET") {
        subscribe(writer, record);
        return;
    }
    if (path == "/props"_L1 && method == "GET" && request.queryItem(u"model"_s).isEmpty()) {
        replyJson(writer, record, 200,
                  R"({"role":"router","models_autoload":true,"model_alias":"switchyard","build_info":"switchyard-)"
                      SWITCHYARD_VERSION R"("})");
        return;
    }
    handleModelRequest(request, writer, record);
}

QByteArray Relay::refusalBody(int status, const QByteArray &path, const QString &message) const
{
    return ErrorReply::body(ErrorReply::shapeForPath(QString::fromLatin1(path)), status, message);
}

void Relay::handleModelRequest(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record)
{
    // The relay's own quick answers above end in the turn they came in; what may take a while is reported.
    emit requestProgress(record, RequestPhase::Arrived);
    QString model;
    JsonModelField field;
    const bool fromBody = !request.body.isEmpty();
    if (fromBody) {
        field = JsonModelField::find(request.body);
        switch (field.result) {
        case JsonModelField::Result::Found:
            model = field.value;
            break;
        case JsonModelField::Result::Malformed:
        case JsonModelField::Result::NotAnObject:
            refuse(request, writer, record, ClientReplies::bodyNotAnObject());
            return;
        case JsonModelField::Result::NotAString:
            refuse(request, writer, record, ClientReplies::modelNotAString());
            return;
        case JsonModelField::Result::Missing:
            break;
        }
    }
    if (model.isEmpty())
        model = request.queryItem(u"model"_s);
    // From here on the conversation is the client's: its key and its prompt's prefix.
    field.conversation = ReplicaRouter::conversationKey(record.keyName, field.conversation);
    record.model = model;
    if (model.isEmpty()) {
        refuse(request, writer, record, ClientReplies::modelMissing());
        return;
    }
    std::optional<ModelRoute> route = m_resolver.resolve(model);
    if (!route) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    if (route->replicated()) {
        // Best first; the rest is the order failover tries them in.
        const ReplicaRouter::Plan plan = m_replicas->plan(*route, field.conversation);
        route->replicas = plan.order;
        route->pick(plan.order.first());
    }
    dispatch(request, writer, record, *route, field);
}

void Relay::dispatch(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                     const ModelRoute &route, const JsonModelField &field)
{
    const QString &model = record.model;
    record.host = route.host;
    const Catalog::HostState *host = m_catalog->host(route.host);
    if (!host) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    HostController *controller = m_controllers.value(route.host);
    const bool switchable = controller && (controller->canSwitch() || controller->canWake());
    // A host that switches engines is started (or woken) on demand; one that cannot must be up now.
    // One that reads down is asked again before it is refused: a box that came back serves at once.
    if (!switchable && (!host->everFetched || !host->reachable)) {
        QPointer<ResponseWriter> w(writer);
        LiveRecord live{record};
        live.wait({WaitReason::Kind::HostCheck, {}, {}}, record.startedSteady);
        emit requestProgress(live.record, live.phase);
        m_catalog->probe(route.host, this, [this, request, w, live, route = ModelRoute(route), field](bool reachable) mutable {
            live.endWait();
            const RequestRecord &record = live.record;
            if (!w) {
                RequestRecord left = record;
                left.relayError = u"client closed the connection"_s;
                finishRecord(left, nullptr);
                return;
            }
            if (!reachable) {
                const Catalog::HostState *h = m_catalog->host(route.host);
                const QString why = !h || h->lastError.isEmpty() ? u"not reached yet"_s : h->lastError;
                if (failOver(route, why)) {   // found down: the next replica
                    dispatch(request, w, record, route, field);
                    return;
                }
                refuse(request, w, record, ClientReplies::hostDown(route.host, why));
                return;
            }
            routeToEngine(request, w, record, route, field);
        });
        return;
    }
    routeToEngine(request, writer, record, route, field);
}

void Relay::routeToEngine(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                          const ModelRoute &route, const JsonModelField &field)
{
    const QString &model = record.model;
    const QString engine = m_catalog->engineFor(route.host, route.key);
    if (engine.isEmpty()) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    record.engine = engine;
    auto f = std::make_shared<Forwarding>(
        Forwarding{route, LiveRecord{record}, engine, field.conversation, {}, 0, request, field, writer});

    ProxiedRequest::Waiting waiting;
    waiting.clientStreams = field.stream;
    waiting.early200After = m_config.waiting.early200After;
    waiting.commentEvery = m_config.waiting.commentEvery;
    forward(request, writer, f, field, waiting);
}

void Relay::forward(const IncomingRequest &request, ResponseWriter *writer, const std::shared_ptr<Forwarding> &f,
                    const JsonModelField &field, const ProxiedRequest::Waiting &waiting)
{
    auto *proxied = new ProxiedRequest(m_pool, m_upstream.build(request, f->route, f->engine, field),
                                       ErrorReply::shapeForPath(request.path), writer, waiting, this, this);
    proxied->setReplyForm(ClientReplies::replyFormFor(request.path.toUtf8(), request.header("user-agent")));
    QPointer<ProxiedRequest> p(proxied);
    m_forwarding.insert(proxied, f);
    ++m_inFlight;
    f->counted = {f->route.host, f->route.key};
    m_replicas->started(f->counted);
    // A title or small-model call waits less for another engine's work than a turn; the record
    // says which it was, on every host.
    f->live.record.sideCall = SideCall::is(clientAppFromUserAgent(f->live.record.userAgent), field.maxTokens, field.tools);
    emit requestStarted(f->live.record);
    if (!m_controllers.value(f->route.host)) {
        proxied->start();
        return;
    }
    admit(p, f, request, field);
    if (p)
        p->waiting();
}

QString Relay::requestWaitingFor(const ProxiedRequest *request)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f)
        return {};
    // The replica it waits on now, after any failover. Not admitted yet: it waits for the host
    // (a drain, a switch, a wake, or a serving host finishing another engine's work).
    const HostController *c = m_controllers.value(f->route.host);
    if (c && !f->live.admitted && !f->live.done)
        return ClientReplies::waitingForHost(c->waitFor());
    return modelLoading(m_catalog, f->route.host, f->route.key)
        ? ClientReplies::waitingForLoad(f->route.host, f->route.key)
        : ClientReplies::waitingForAnswer(f->route.host, f->route.key);
}

// The request's progress for live views: waiting (and why), upstream, streaming, done.
void Relay::requestSent(ProxiedRequest *request)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f)
        return;
    LiveRecord &live = f->live;
    live.endWait();
    if (modelLoading(m_catalog, f->route.host, f->route.key))
        live.wait({WaitReason::Kind::ModelLoad, {}, {}}, std::chrono::steady_clock::now());
    else
        live.phase = RequestPhase::Upstream;
    emit requestProgress(live.record, live.phase);
}

void Relay::requestAnswering(ProxiedRequest *request, int status)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f)
        return;
    const QString &path = f->request.path;
    if ((path == "/models/load"_L1 || path == "/models/unload"_L1) && status >= 200 && status < 300) {
        // The merged list must show the change before this answer leaves, so that no poll that
        // follows a successful load can read the old state (the seed's 19 s of stale answers).
        if (path == "/models/load"_L1)
            m_catalog->markLoading(f->route.host, f->route.key);
        else
            m_catalog->markUnloading(f->route.host, f->route.key);
        m_catalog->refreshHost(f->route.host);
    }
    f->live.endWait();
    f->live.phase = RequestPhase::Streaming;
    emit requestProgress(f->live.record, f->live.phase);
}

void Relay::requestStreamed(ProxiedRequest *request, qint64 tokens)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f)
        return;
    f->live.record.streamedTokens = tokens;
    emit requestProgress(f->live.record, f->live.phase);
}

QString Relay::requestUnreachable(ProxiedRequest *request, const QString &why)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f)
        return ClientReplies::engineUnreachable(why).message;
    markUnreachable(f->route.host, why);
    return ClientReplies::hostDown(f->route.host, why).message;
}

bool Relay::requestFailover(ProxiedRequest *request, const QString &why)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.value(request);
    if (!f || !f->route.replicated())
        return false;
    const QString from = f->route.host;
    if (!failOver(f->route, why))
        return false;
    markUnreachable(from, why);
    retarget(request, f, f->request, f->field);
    return true;
}

void Relay::requestConcluded(ProxiedRequest *request, const ProxiedRequest::Outcome &outcome)
{
    const std::shared_ptr<Forwarding> f = m_forwarding.take(request);
    if (!f)
        return;
    m_refusedMoves += outcome.refusedMoves;
    --m_inFlight;
    m_replicas->finished(f->counted);
    f->live.done = true;
    f->live.endWait();
    RequestRecord record = f->live.record;
    record.restoredPromptTokens = f->restoredTokens;
    record.relayError = outcome.relayError;
    record.relayFacts = outcome.relayFacts;
    record.streamedTokens = outcome.tokens;
    record.promptTokens = outcome.promptTokens;
    record.tokensPerSecond = outcome.tokensPerSecond;
    if (outcome.status)
        record.status = outcome.status;
    if (outcome.status >= 200 && outcome.status < 300 && outcome.relayError.isEmpty())
        m_replicas->served(f->conversation, f->route.host);
    finishRecord(record, f->writer);
}

void Relay::admit(const QPointer<ProxiedRequest> &p, const std::shared_ptr<Forwarding> &f,
                  const IncomingRequest &request, const JsonModelField &field)
{
    HostController *controller = m_controllers.value(f->route.host);
    if (!controller) {
        p->begin();
        return;
    }
    const QString &path = request.path;
    const Catalog::HostState *host = m_catalog->host(f->route.host);
    if (path == "/models/load"_L1 && host && f->engine != host->engine)
        m_catalog->markLoading(f->route.host, f->route.key);   // loading from now on, through the switch
    if (path == "/models/load"_L1 && m_catalog->isExplicitModel(f->route.host, f->engine, f->route.key))
        p->setLocalAnswer(200, R"({"success":true})");   // not a router: the switch is the load
    // The host decides when this may go upstream: at once, after a drain and switch, or never
    // (423 leased, 424 switch failed). The request holds its place on the host from now on and
    // gives it back when it concludes, even if that happens inside its own admission. Meanwhile
    // the early-200 clock runs; it starts after the request, which sends at once when the host
    // is serving.
    p->holdTicket(controller->newTicket());
    // A saved prompt cache is restored before a request that uses the model, not before a load
    // or unload (a restore through the router loads the model, and the load would then fail).
    const QString cacheKey = path.startsWith("/models"_L1) ? QString() : f->route.key;
    const bool sideCall = f->live.record.sideCall;
    controller->request(
        p->ticket(), {f->engine, f->route.alias, f->live.record.clientAddress, f->live.record.userAgent, cacheKey, sideCall},
        [p, f, c = QPointer<HostController>(controller)] {
            f->live.admitted = true;
            if (!p)
                return;
            if (c)
                f->restoredTokens = c->restoredTokens(p->ticket());
            p->begin();
        },
        [this, p, f, request, field](const HostRefusal &why) {
            if (!p)
                return;
            const ClientReply reply = ClientReplies::fromHost(why);
            // A replica that cannot serve (leased, its switch failed): the next one, if any.
            if (failOver(f->route, reply.message)) {
                retarget(p, f, request, field);
                return;
            }
            p->refuse(reply);
        });
    if (!f->live.admitted && !f->live.done) {
        // Not admitted at once: it waits for the host from its arrival on, its reason following the host's.
        const WaitReason reason = hostWaitReason(controller->waitFor(), controller->state(), controller->currentEngine(), f->engine);
        f->live.wait(reason, f->live.record.startedSteady);
        // ...and until when at the latest, while the host finishes another engine's work.
        f->live.record.waitUntil = hostWaitUntil(*controller, f->engine, f->live.record.startedAt, sideCall, m_clock->now());
        emit requestProgress(f->live.record, f->live.phase);
        followHostWait(controller, this, f->engine, reason,
                       [this, sideCall, c = QPointer<HostController>(controller), w = std::weak_ptr(f)](const std::optional<WaitReason> &r) {
            const auto f = w.lock();
            if (!f || f->live.admitted || f->live.done)
                return false;
            const QDateTime until = c ? hostWaitUntil(*c, f->engine, f->live.record.startedAt, sideCall, m_clock->now())
                                      : QDateTime();
            if (r || until != f->live.record.waitUntil) {
                if (r)
                    f->live.record.waitReason = *r;
                f->live.record.waitUntil = until;
                emit requestProgress(f->live.record, f->live.phase);
            }
            return true;
        });
    }
}

void Relay::markUnreachable(const QString &host, const QString &why)
{
    m_catalog->markUnreachable(host, why);
    if (HostController *c = m_controllers.value(host))
        c->engineUnreachable();
}

bool Relay::failOver(ModelRoute &route, const QString &why)
{
    if (route.replicas.size() < 2)
        return false;
    const ModelRoute::Target from = route.replicas.takeFirst();
    route.pick(route.replicas.first());
    // "host 3090: failover of coder to a9-flint-40b: <why>", in the journal and on the timeline.
    HistoryEvent e;
    e.kind = HistoryEvent::Kind::Failover;
    e.at = m_clock->now();
    e.host = from.host;
    e.model = route.requested;
    e.detail = u"to %1: %2"_s.arg(route.alias, why);
    emit historyEvent(e);
    return true;
}

void Relay::retarget(const QPointer<ProxiedRequest> &p, const std::shared_ptr<Forwarding> &f,
                     const IncomingRequest &request, const JsonModelField &field)
{
    f->engine = m_catalog->engineFor(f->route.host, f->route.key);
    while (f->engine.isEmpty()) {
        // This replica's host does not know the model (yet): the next one.
        if (!failOver(f->route, u"no engine of host %1 lists %2"_s.arg(f->route.host, f->route.key))) {
            p->refuse(ClientReplies::unknownModel(f->live.record.model, m_catalog->aliases()));
            return;
        }
        f->engine = m_catalog->engineFor(f->route.host, f->route.key);
    }
    m_replicas->finished(f->counted);
    f->counted = {f->route.host, f->route.key};
    m_replicas->started(f->counted);
    f->live.record.host = f->route.host;
    f->live.record.engine = f->engine;
    p->retarget(m_upstream.build(request, f->route, f->engine, field));
    admit(p, f, request, field);
}

void Relay::refuse(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                   const ClientReply &reply)
{
    record.relayError = reply.message;
    record.relayFacts = reply.facts;
    const ClientReply sent = ClientReplies::forClient(reply, request.path.toUtf8(), request.header("user-agent"));
    writer->respond(sent.httpStatus(), sent.headers(), sent.body(ErrorReply::shapeForPath(request.path)));
    finishRecord(record, writer);
}

void Relay::replyJson(ResponseWriter *writer, RequestRecord record, int status, const QByteArray &body,
                      HeaderList headers)
{
    headers.prepend({"Content-Type", "application/json; charset=utf-8"});
    writer->respond(status, headers, body);
    finishRecord(record, writer);
}

void Relay::finishRecord(RequestRecord record, ResponseWriter *writer)
{
    if (writer) {
        if (!record.status)
            record.status = writer->status();
        record.bytesOut = writer->bodyBytes();
        record.timeToFirstByte = writer->timeToFirstByte();
    }
    record.duration = std::chrono::steady_clock::now() - record.startedSteady;
    emit requestFinished(record);
}

void Relay::refuseWaiting(const ClientReply &reply)
{
    using State = RequestLifecycle::State;
    QList<QPointer<ProxiedRequest>> waiting;
    for (ProxiedRequest *p : findChildren<ProxiedRequest *>(Qt::FindDirectChildrenOnly)) {
        const State s = p->state();
        if (m_forwarding.contains(p)
            && (s == State::Admitting || s == State::AdmittingEarly200 || s == State::Rerouting || s == State::ReroutingEarly200))
            waiting.append(p);
    }
    for (const QPointer<ProxiedRequest> &p : std::as_const(waiting)) {
        if (p)
            p->refuse(reply);   // concludes it: its record, its place on the host given back
    }
}

void Relay::setHostControllers(const QList<HostController *> &controllers)
{
    m_controllers.clear();
    for (HostController *c : controllers)
        m_controllers.insert(c->host(), c);
    m_replicas->setHostControllers(m_controllers);
}

void Relay::subscribe(ResponseWriter *writer, RequestRecord record)
{
    // Like llama.cpp's own feed: no snapshot on connect; subscribe, then read /models.
    writer->writeHead(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}});
    m_subscribers.append(writer);
    emit requestProgress(record, RequestPhase::Streaming);
    QPointer<ResponseWriter> w(writer);
    connect(writer, &ResponseWriter::clientDisconnected, this, [this, w, record] {
        m_subscribers.removeAll(w);
        m_subscribers.removeAll(nullptr);
        finishRecord(record, w);
    });
}

void Relay::broadcastModelEvent(const QByteArray &frame)
{
    for (const QPointer<ResponseWriter> &w : std::as_const(m_subscribers)) {
        if (w && !w->congested())
            w->writeBody(frame);
    }
}

} // namespace switchyard
