#include "relay/relay.h"

#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"
#include "http/incomingrequest.h"
#include "http/responsewriter.h"
#include "relay/clientreplies.h"
#include "relay/jsonmodelfield.h"
#include "relay/proxiedrequest.h"
#include "upstream/upstreampool.h"

#include <QUrlQuery>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

HeaderList corsHeaders()
{
    return {{"Access-Control-Allow-Origin", "*"},
            {"Access-Control-Allow-Methods", "GET, POST, OPTIONS"},
            {"Access-Control-Allow-Headers", "*"},
            {"Access-Control-Max-Age", "86400"}};
}

bool isMutatingAdminPath(const QByteArray &method, const QString &path)
{
    const bool modelsPath = path == "/models"_L1 || path.startsWith("/models/"_L1) || path == "/v1/models"_L1
        || path.startsWith("/v1/models/"_L1);
    return modelsPath && method != "GET" && method != "HEAD" && method != "POST" && method != "OPTIONS";
}

} // namespace

Relay::Relay(const Config &config, Catalog *catalog, UpstreamPool *pool, RequestHandler *admin, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_catalog(catalog)
    , m_pool(pool)
    , m_resolver(config)
    , m_access(config.access)
    , m_admin(admin)
{
}

Relay::~Relay() = default;

namespace {
RequestRecord recordFor(const IncomingRequest &request)
{
    RequestRecord record;
    record.startedAt = request.arrivedAt;
    record.startedSteady = request.arrivedSteady;
    record.method = QString::fromLatin1(request.method);
    record.path = request.path;
    record.clientAddress = request.clientAddress;
    record.userAgent = QString::fromUtf8(request.header("user-agent"));
    return record;
}
} // namespace

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

    const QString &path = request.path;
    const QByteArray &method = request.method;

    if (method == "OPTIONS") {
        writer->respond(204, corsHeaders(), {});
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
        QPointer<ResponseWriter> w(writer);
        connect(writer, &ResponseWriter::finished, this, [this, record, w] { finishRecord(record, w); });
        m_admin->handleRequest(request, writer);
        return;
    }
    // /, /health and CORS preflights stay open: they say nothing and browsers send no key there.
    switch (m_access.client(request)) {
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
    record.model = model;
    if (model.isEmpty()) {
        refuse(request, writer, record, ClientReplies::modelMissing());
        return;
    }
    const std::optional<ModelRoute> route = m_resolver.resolve(model);
    if (!route) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    record.host = route->host;
    const Catalog::HostState *host = m_catalog->host(route->host);
    if (!host) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    HostController *controller = m_controllers.value(route->host);
    const bool switchable = controller && controller->canSwitch();
    // A host that switches engines is started on demand; one that cannot must be up now. One
    // that reads down is asked once more before it is refused: a box that came back serves at
    // once, not at the next poll.
    if (!switchable && (!host->everFetched || !host->reachable)) {
        QPointer<ResponseWriter> w(writer);
        m_catalog->probe(route->host, this, [this, request, w, record, route = *route, field](bool reachable) {
            if (!w) {
                RequestRecord left = record;
                left.relayError = u"client closed the connection"_s;
                finishRecord(left, nullptr);
                return;
            }
            if (!reachable) {
                const Catalog::HostState *h = m_catalog->host(route.host);
                const QString why = !h || h->lastError.isEmpty() ? u"not reached yet"_s : h->lastError;
                refuse(request, w, record, ClientReplies::hostDown(route.host, why));
                return;
            }
            routeToEngine(request, w, record, route, field);
        });
        return;
    }
    routeToEngine(request, writer, record, *route, field);
}

void Relay::routeToEngine(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                          const ModelRoute &route, const JsonModelField &field)
{
    const QString &model = record.model;
    HostController *controller = m_controllers.value(route.host);
    const QString engine = m_catalog->engineFor(route.host, route.key);
    if (engine.isEmpty()) {
        refuse(request, writer, record, ClientReplies::unknownModel(model, m_catalog->aliases()));
        return;
    }
    record.engine = engine;

    QByteArray target = QUrl::toPercentEncoding(request.path, "/");
    if (!request.rawQuery.isEmpty()) {
        QUrlQuery query(QString::fromUtf8(request.rawQuery));
        if (query.hasQueryItem(u"model"_s)) {
            query.removeAllQueryItems(u"model"_s);
            query.addQueryItem(u"model"_s, QString::fromUtf8(QUrl::toPercentEncoding(route.key)));
        }
        target += '?' + query.toString(QUrl::FullyEncoded).toUtf8();
    }
    ProxiedRequest::Waiting waiting;
    waiting.clientStreams = field.stream;
    waiting.early200After = m_config.waiting.early200After;
    waiting.commentEvery = m_config.waiting.commentEvery;
    QPointer<HostController> c(controller);
    waiting.what = [this, c, host = route.host, key = route.key]() {
        if (c && c->state() != HostStateMachine::State::Serving && c->waitingRequests() > 0)
            return ClientReplies::waitingForHost(c->waitFor());
        const std::optional<ModelEntry> entry = m_catalog->model(host, key);
        return entry && entry->status != "loaded"_L1 ? ClientReplies::waitingForLoad(host, key)
                                                     : ClientReplies::waitingForAnswer(host, key);
    };
    forward(request, writer, record, route, engine, field, target, waiting);
}

void Relay::forward(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                    const ModelRoute &route, const QString &engine, const JsonModelField &field,
                    const QByteArray &target, const ProxiedRequest::Waiting &waiting)
{
    const Catalog::HostState *host = m_catalog->host(route.host);
    UpstreamExchange::Request up;
    up.base = host->url;
    for (const Catalog::EngineModels &e : host->engines) {
        if (e.name == engine)
            up.base = e.url;
    }
    up.method = request.method;
    up.target = target;
    up.headers = HttpHeaders::forwardable(request.headers);
    // A client's key to the relay is not the engine's business: the engine gets the host's own
    // api_key if it has one. Without either, the headers pass through as before, so an engine's
    // own --api-key still works for clients that send it.
    const HostConfig *hostConfig = m_config.host(route.host);
    const QString upstreamKey = hostConfig ? hostConfig->apiKey : QString();
    if (m_access.keysRequired() || !upstreamKey.isEmpty()) {
        up.headers.removeIf([](const QPair<QByteArray, QByteArray> &h) {
            return h.first.compare("authorization", Qt::CaseInsensitive) == 0
                || h.first.compare("x-api-key", Qt::CaseInsensitive) == 0;
        });
    }
    if (!upstreamKey.isEmpty())
        up.headers.append({"Authorization", "Bearer " + upstreamKey.toUtf8()});
    up.headers.append({"X-Forwarded-For", request.clientAddress.toLatin1()});
    up.body = request.body;
    if (field.result == JsonModelField::Result::Found) {
        // The engine's own name for the model, spliced in as the body goes out.
        up.replaceFrom = field.start;
        up.replaceTo = field.end;
        up.replacement = JsonModelField::literal(route.key);
    }
    up.connectTimeout = m_config.limits.upstreamConnectTimeout;
    up.inactivityTimeout = m_config.limits.upstreamInactivityTimeout;

    auto *proxied = new ProxiedRequest(m_pool, up, ErrorReply::shapeForPath(request.path), writer, waiting, this);
    proxied->setOnUnreachable([this, host = route.host](const QString &why) {
        m_catalog->markUnreachable(host, why);
        if (HostController *c = m_controllers.value(host))
            c->engineUnreachable();
        return ClientReplies::hostDown(host, why).message;
    });
    const QString path = request.path;
    if (path == "/models/load"_L1 || path == "/models/unload"_L1) {
        const bool load = path == "/models/load"_L1;
        // The merged list must show the change before this answer leaves, so that no poll that
        // follows a successful load can read the old state (the seed's 19 s of stale answers).
        proxied->setOnResponseHead([this, route, load](int status) {
            if (status < 200 || status >= 300)
                return;
            if (load)
                m_catalog->markLoading(route.host, route.key);
            else
                m_catalog->markUnloading(route.host, route.key);
            m_catalog->refreshHost(route.host);
        });
    }
    ++m_inFlight;
    QPointer<ResponseWriter> w(writer);
    HostController *controller = m_controllers.value(route.host);
    // Set at admission when a saved prompt cache was restored just before (issue 19).
    auto restored = std::make_shared<qint64>(0);
    connect(proxied, &ProxiedRequest::done, this, [this, record, w, restored](const ProxiedRequest::Outcome &outcome) mutable {
        --m_inFlight;
        record.restoredPromptTokens = *restored;
        record.relayError = outcome.relayError;
        record.streamedTokens = outcome.tokens;
        record.tokensPerSecond = outcome.tokensPerSecond;
        if (outcome.status)
            record.status = outcome.status;
        finishRecord(record, w);
    });
    emit requestStarted(record);
    if (!controller) {
        proxied->start();
        return;
    }
    if (path == "/models/load"_L1 && engine != host->engine)
        m_catalog->markLoading(route.host, route.key);   // loading from now on, through the switch
    if (path == "/models/load"_L1 && m_catalog->isExplicitModel(route.host, engine, route.key))
        proxied->setLocalAnswer(200, R"({"success":true})");   // not a router: the switch is the load
    // The host decides when this may go upstream: at once, after a drain and switch, or never
    // (423 leased, 424 switch failed). The request holds its place on the host from now on and
    // gives it back when it concludes, even if that happens inside its own admission. Meanwhile
    // the early-200 clock runs; it starts after the request, which sends at once when the host
    // is serving.
    proxied->holdTicket(controller->newTicket());
    QPointer<ProxiedRequest> p(proxied);
    // A saved prompt cache is restored before a request that uses the model, not before a load
    // or unload (a restore through the router loads the model, and the load would then fail).
    const QString cacheKey = path.startsWith("/models"_L1) ? QString() : route.key;
    controller->request(
        proxied->ticket(), {engine, route.alias, record.clientAddress, record.userAgent, cacheKey},
        [p, c = QPointer<HostController>(controller), restored] {
            if (!p)
                return;
            if (c)
                *restored = c->restoredTokens(p->ticket());
            p->begin();
        },
        [p](int status, const QString &message) {
            if (p)
                p->refuse({status, message, {}});   // worded by the catalogue (ClientReplyWording)
        });
    if (p)
        p->waiting();
}

void Relay::refuse(const IncomingRequest &request, ResponseWriter *writer, RequestRecord record,
                   const ClientReply &reply)
{
    record.relayError = reply.message;
    writer->respond(reply.status, reply.headers(), reply.body(ErrorReply::shapeForPath(request.path)));
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

void Relay::setHostControllers(const QList<HostController *> &controllers)
{
    m_controllers.clear();
    for (HostController *c : controllers)
        m_controllers.insert(c->host(), c);
}

void Relay::subscribe(ResponseWriter *writer, RequestRecord record)
{
    // Like llama.cpp's own feed: no snapshot on connect; subscribe, then read /models.
    writer->writeHead(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"},
                            {"X-Accel-Buffering", "no"}});
    m_subscribers.append(writer);
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
