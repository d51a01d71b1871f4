#include "admin/adminapi.h"

#include "admin/admineventstream.h"
#include "admin/usagequery.h"
#include "common/clock.h"
#include "catalog/catalog.h"
#include "catalog/modelevents.h"
#include "engines/boxprotocol.h"
#include "engines/gpuboard.h"
#include "hosts/hostcontroller.h"
#include "hosts/promptcachekeeper.h"
#include "http/incomingrequest.h"
#include "http/responsewriter.h"
#include "journal/activerequests.h"
#include "journal/clientapp.h"
#include "journal/journalformat.h"
#include "metrics/relaymetrics.h"
#include "replies/adminreplies.h"
#include "api/errorreply.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

void replyJson(ResponseWriter *writer, int status, const QJsonDocument &doc)
{
    writer->respond(status, {{"Content-Type", "application/json; charset=utf-8"}}, doc.toJson(QJsonDocument::Compact));
}

// Where a watcher's cursors stand against the history: the id of its database (ids and cursors
// belong to one; a watcher starts again when it changes) and the newest ids in it (a watcher
// whose cursors are there asks for no page).
HeaderList historyHeaders(const HistoryStore *store)
{
    if (!store)
        return {};
    return {{"Switchyard-History", store->historyId().toLatin1()},
            {"Switchyard-Last-Request", QByteArray::number(store->lastRequestId())},
            {"Switchyard-Last-Event", QByteArray::number(store->lastEventId())}};
}

void replyHistory(ResponseWriter *writer, const HistoryStore &store, const QJsonArray &rows)
{
    writer->respond(200, HeaderList{{"Content-Type", "application/json; charset=utf-8"}} + historyHeaders(&store),
                    QJsonDocument(rows).toJson(QJsonDocument::Compact));
}

QDateTime timeParam(const IncomingRequest &request, const QString &name, const QDateTime &fallback)
{
    const QString value = request.queryItem(name);
    if (value.isEmpty())
        return fallback;
    bool isNumber = false;
    const qint64 seconds = value.toLongLong(&isNumber);
    if (isNumber)
        return QDateTime::fromSecsSinceEpoch(seconds);
    const QDateTime parsed = QDateTime::fromString(value, Qt::ISODateWithMs);
    return parsed.isValid() ? parsed : fallback;
}

// A time with its zone offset ("...T18:00:00.000+05:30"): a local QDateTime alone prints none, and
// a window watching from another zone would read it as its own.
QString isoTime(const QDateTime &t)
{
    return t.isValid() ? t.toOffsetFromUtc(t.offsetFromUtc()).toString(Qt::ISODateWithMs) : QString();
}

// A cursor (after_id=N): only rows stored after id N, oldest first; -1 when not given.
qint64 afterIdParam(const IncomingRequest &request)
{
    bool ok = false;
    const qint64 id = request.queryItem(u"after_id"_s).toLongLong(&ok);
    return ok && id >= 0 ? id : -1;
}

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

QJsonObject recordJson(const RequestRecord &r)
{
    QJsonObject o{{"id"_L1, r.id},
                  {"started_at"_L1, isoTime(r.startedAt)},
                  {"method"_L1, r.method},
                  {"path"_L1, r.path},
                  {"model"_L1, r.model},
                  {"host"_L1, r.host},
                  {"engine"_L1, r.engine},
                  {"status"_L1, r.status},
                  {"bytes"_L1, r.bytesOut},
                  {"duration_ms"_L1, std::chrono::duration<double, std::milli>(r.duration).count()},
                  {"client"_L1, r.clientAddress},
                  {"user_agent"_L1, r.userAgent},
                  {"client_app"_L1, clientAppName(clientAppFromUserAgent(r.userAgent))},
                  {"journal"_L1, JournalFormat::requestLine(r)}};
    o.insert("ttfb_ms"_L1, r.timeToFirstByte ? QJsonValue(std::chrono::duration<double, std::milli>(*r.timeToFirstByte).count()) : QJsonValue());
    o.insert("tokens"_L1, r.streamedTokens ? QJsonValue(double(*r.streamedTokens)) : QJsonValue());
    o.insert("tokens_per_s"_L1, optionalNumber(r.tokensPerSecond));
    if (!r.relayError.isEmpty())
        o.insert("relay_error"_L1, r.relayError);
    // The facts relay_error words (hosts/recordedfacts.h), when it words some: a watching window
    // words them in its user's language.
    if (!r.relayFacts.isEmpty())
        o.insert("relay_facts"_L1, r.relayFacts);
    o.insert("bytes_in"_L1, r.bytesIn);
    o.insert("waited_ms"_L1, std::chrono::duration<double, std::milli>(r.waited).count());
    o.insert("wait_reason"_L1, r.waitReason.isNone() ? QJsonValue() : QJsonValue(r.waitReason.toString()));
    // While it waits for another engine's work: the latest its host leaves that work for it.
    o.insert("wait_until"_L1, r.waitUntil.isValid() ? QJsonValue(isoTime(r.waitUntil)) : QJsonValue());
    // Usage per client key: its name, never the key.
    o.insert("key"_L1, r.keyName);
    o.insert("tokens_in"_L1, r.promptTokens ? QJsonValue(double(*r.promptTokens)) : QJsonValue());
    // Served from a restored prompt cache: the tokens restored just before it went out (0: none).
    o.insert("restored_tokens"_L1, double(r.restoredPromptTokens));
    // A title or small-model call, which waits less for a switch than a turn.
    o.insert("side_call"_L1, r.sideCall);
    return o;
}

QJsonObject eventJson(const HistoryEvent &e)
{
    QJsonObject o{{"id"_L1, e.id},
                  {"at"_L1, isoTime(e.at)},
                  {"kind"_L1, HistoryEvent::kindName(e.kind)},
                  {"host"_L1, e.host},
                  {"engine"_L1, e.engine},
                  {"model"_L1, e.model},
                  {"detail"_L1, e.detail},
                  {"text"_L1, e.toString()}};
    o.insert("duration_ms"_L1, e.duration ? QJsonValue(double(e.duration->count())) : QJsonValue());
    // The facts detail words (hosts/recordedfacts.h), when the event has them.
    if (!e.facts.isEmpty())
        o.insert("facts"_L1, e.facts);
    return o;
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString phaseName(RequestPhase phase)
{
    switch (phase) {
    case RequestPhase::Arrived: return u"arrived"_s;
    case RequestPhase::Waiting: return u"waiting"_s;
    case RequestPhase::Upstream: return u"upstream"_s;
    case RequestPhase::Streaming: return u"streaming"_s;
    }
    return {};
}

// One request in flight as ?state=active lists it.
QJsonObject activeJson(RequestRecord r, RequestPhase phase, std::chrono::steady_clock::time_point now)
{
    r.waited = ActiveRequests::waitedSoFar(r, now);
    r.duration = now - r.startedSteady;
    QJsonObject o = recordJson(r);
    o.remove("id"_L1);   // not in the history yet
    o.remove("journal"_L1);
    o.remove("status"_L1);
    o.insert("live_id"_L1, double(r.liveId));
    o.insert("state"_L1, phaseName(phase));
    return o;
}

// The watching windows' own requests (their polls, this stream, their loads): they hide them.
bool isWatchersOwn(const RequestRecord &r)
{
    return r.userAgent.startsWith("switchyard-desktop/"_L1);
}

} // namespace

AdminApi::AdminApi(const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_clock(clock ? clock : &systemClock())
    , m_stream(new AdminEventStream(this))
{
    // Host changes come in bursts (a switch moves through several states, a catalog poll reads
    // every model): one hosts frame for each burst, soon enough to look instant.
    m_hostsChanged.setSingleShot(true);
    m_hostsChanged.setInterval(HostsCoalescing);
    connect(&m_hostsChanged, &QTimer::timeout, this, &AdminApi::publishHosts);
}

AdminApi::~AdminApi() = default;

void AdminApi::setHostControllers(const QList<HostController *> &controllers)
{
    for (const QPointer<HostController> &c : std::as_const(m_controllers)) {
        if (c)
            disconnect(c, nullptr, this, nullptr);
    }
    m_controllers.clear();
    for (HostController *c : controllers) {
        m_controllers.insert(c->host(), c);
        connect(c, &HostController::stateChanged, this, &AdminApi::hostsChanged);
    }
}

void AdminApi::setHistory(HistoryStore *store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    if (!store)
        return;
    // Each with the store's id, as the history answers list it: a watcher's cursor moves on by it.
    connect(store, &HistoryStore::requestRecorded, this, [this](const RequestRecord &r) {
        if (m_stream->subscribers() > 0)
            m_stream->send("request", compact(recordJson(r)));
    });
    connect(store, &HistoryStore::eventRecorded, this, [this](const HistoryEvent &e) {
        if (m_stream->subscribers() > 0)
            m_stream->send("event", compact(eventJson(e)));
    });
}

void AdminApi::setGpuBoard(const GpuBoard *board)
{
    if (m_gpus)
        disconnect(m_gpus, nullptr, this, nullptr);
    m_gpus = board;
    if (board)
        connect(board, &GpuBoard::changed, this, &AdminApi::hostsChanged);
}

void AdminApi::setCatalog(const Catalog *catalog)
{
    if (m_catalog)
        disconnect(m_catalog, nullptr, this, nullptr);
    m_catalog = catalog;
    if (!catalog)
        return;
    connect(catalog, &Catalog::hostRefreshed, this, &AdminApi::hostsChanged);
    connect(catalog, &Catalog::changed, this, [this] {
        m_modelsChanged = true;
        hostsChanged();
    });
}

void AdminApi::setStreamKeepalive(std::chrono::milliseconds interval)
{
    m_stream->setKeepaliveInterval(interval);
}

void AdminApi::endStreams()
{
    m_stream->end();
}

int AdminApi::streamSubscribers() const
{
    return m_stream->subscribers();
}

void AdminApi::requestProgress(const RequestRecord &record, RequestPhase phase)
{
    if (m_stream->subscribers() == 0 || isWatchersOwn(record))
        return;
    m_stream->send("active", compact(activeJson(record, phase, std::chrono::steady_clock::now())));
    // A new waiter changes its host's next switch (who waits, the latest it starts) without a
    // change of the host's state.
    if (phase == RequestPhase::Waiting)
        hostsChanged();
}

void AdminApi::hostsChanged()
{
    if (m_stream->subscribers() > 0 && !m_hostsChanged.isActive())
        m_hostsChanged.start();
}

void AdminApi::publishHosts()
{
    if (m_stream->subscribers() == 0)
        return;
    m_stream->send("hosts", QJsonDocument(hostsJson()).toJson(QJsonDocument::Compact));
    if (std::exchange(m_modelsChanged, false) && m_catalog)
        m_stream->send("models", m_catalog->modelsJson());
}

void AdminApi::stream(ResponseWriter *writer)
{
    QList<AdminEventStream::Frame> opening;
    // Where the history stands (a watcher whose cursors are behind pages up to it), then what the
    // window shows now; from then on, what changes.
    QJsonObject hello{{"history"_L1, m_store ? m_store->historyId() : QString()},
                      {"last_request"_L1, m_store ? double(m_store->lastRequestId()) : -1.0},
                      {"last_event"_L1, m_store ? double(m_store->lastEventId()) : -1.0},
                      {"keepalive_s"_L1, double(m_stream->keepaliveInterval().count()) / 1000.0}};
    opening.append({"hello", compact(hello)});
    opening.append({"hosts", QJsonDocument(hostsJson()).toJson(QJsonDocument::Compact)});
    if (m_catalog)
        opening.append({"models", m_catalog->modelsJson()});
    if (m_active) {
        const auto now = std::chrono::steady_clock::now();
        for (const ActiveRequests::Entry &e : m_active->list()) {
            if (!isWatchersOwn(e.record))
                opening.append({"active", compact(activeJson(e.record, e.phase, now))});
        }
    }
    m_stream->subscribe(writer, opening);
}

void AdminApi::error(ResponseWriter *writer, const ClientReply &reply)
{
    writer->respond(reply.httpStatus(), reply.headers(), reply.body(ApiShape::OpenAI));
}

void AdminApi::handleRequest(const IncomingRequest &request, ResponseWriter *writer)
{
    const QStringList parts = request.path.split(u'/', Qt::SkipEmptyParts);   // admin, hosts, H, lease
    const QByteArray &method = request.method;
    if (request.path == "/metrics"_L1 && m_metrics && (method == "GET" || method == "HEAD")) {
        writer->respond(200, {{"Content-Type", RelayMetrics::contentType()}, {"Cache-Control", "no-store"}},
                        method == "GET" ? m_metrics->exposition() : QByteArray());
        return;
    }
    if (parts.size() == 2 && parts.at(1) == "hosts"_L1 && method == "GET")
        return hosts(writer);
    if (parts.size() == 2 && parts.at(1) == "stream"_L1 && method == "GET")
        return stream(writer);
    if (parts.size() == 4 && parts.at(1) == "hosts"_L1) {
        HostController *c = m_controllers.value(parts.at(2));
        if (!c)
            return error(writer, AdminReplies::noSuchHost(parts.at(2)));
        if (parts.at(3) == "lease"_L1 && method == "POST")
            return takeLease(c, request, writer);
        if (parts.at(3) == "lease"_L1 && method == "DELETE")
            return releaseLease(c, writer);
        if (parts.at(3) == "engine"_L1 && method == "POST")
            return switchEngine(c, request, writer);
    }
    if (parts.size() == 2 && method == "GET") {
        if (parts.at(1) == "requests"_L1)
            return requests(request, writer);
        if (parts.at(1) == "events"_L1)
            return events(request, writer);
        if (parts.at(1) == "stats"_L1)
            return stats(request, writer);
        if (parts.at(1) == "usage"_L1)
            return usage(request, writer);
        if (parts.at(1) == "models"_L1 && m_catalog) {
            // The models as /v1/models lists them (host, engine, status, context in "proxy"),
            // for a window watching this relay with the admin token rather than a client key.
            return writer->respond(200, {{"Content-Type", "application/json; charset=utf-8"}}, m_catalog->modelsJson());
        }
    }
    error(writer, AdminReplies::noSuchEndpoint(QString::fromLatin1(method), request.path));
}

namespace {
// Who asks: the client's address and program ("192.168.1.31 opencode/1.18.33").
QString clientName(const HostController::RequestInfo &info)
{
    const QString program = info.userAgent.left(info.userAgent.indexOf(u' ')).left(40);
    return program.isEmpty() ? info.clientAddress : info.clientAddress + u' ' + program;
}

// What a host holds, for whoever wonders what a drain waits on: each request with its age.
QJsonArray heldJson(const QList<HostController::HeldRequest> &held, std::chrono::steady_clock::time_point now)
{
    QJsonArray out;
    for (const HostController::HeldRequest &r : held) {
        out.append(QJsonObject{{"id"_L1, double(r.id)},
                               {"engine"_L1, r.info.engine},
                               {"alias"_L1, r.info.alias},
                               {"client"_L1, clientName(r.info)},
                               {"age_ms"_L1, double(std::chrono::duration_cast<std::chrono::milliseconds>(now - r.since).count())}});
    }
    return out;
}
// A host's saved prompt caches (issue 19), newest first, and its budgets.
QJsonObject promptCachesJson(const PromptCacheKeeper &keeper)
{
    QJsonArray saved;
    for (const PromptCacheKeeper::Saved &s : keeper.saved()) {
        saved.append(QJsonObject{{"engine"_L1, s.engine}, {"model"_L1, s.model}, {"slot"_L1, s.slot},
                                 {"file"_L1, s.filename}, {"tokens"_L1, double(s.tokens)}, {"bytes"_L1, double(s.bytes)},
                                 {"saved_at"_L1, s.savedAt.toUTC().toString(Qt::ISODateWithMs)},
                                 {"save_ms"_L1, double(s.took.count())}});
    }
    return QJsonObject{{"dir"_L1, keeper.config().dir},
                       {"bytes"_L1, double(keeper.savedBytes())},
                       {"max_bytes"_L1, double(keeper.config().maxBytes)},
                       {"save_budget_s"_L1, double(keeper.config().saveBudget.count()) / 1000.0},
                       {"saved"_L1, saved}};
}
} // namespace

void AdminApi::hosts(ResponseWriter *writer)
{
    // With the history's headers: a watcher polling the hosts learns whether to page.
    writer->respond(200, HeaderList{{"Content-Type", "application/json; charset=utf-8"}} + historyHeaders(m_store),
                    QJsonDocument(hostsJson()).toJson(QJsonDocument::Compact));
}

// The switch a serving host's waiters wait for: to which engine, how many, when it is due as
// things stand and the latest it starts (their bound); null when none waits for one.
QJsonValue AdminApi::nextSwitchJson(const HostController &c) const
{
    if (c.state() != HostStateMachine::State::Serving)
        return QJsonValue();
    const HostController::NextSwitch next = c.nextSwitch();
    if (next.engine.isEmpty())
        return QJsonValue();
    const QDateTime now = m_clock->now();
    const std::chrono::milliseconds holdLeft = c.waitFor().holdLeft;
    return QJsonObject{{"engine"_L1, next.engine},
                       {"waiting"_L1, next.waiting},
                       {"due"_L1, next.in ? QJsonValue(isoTime(now.addMSecs(next.in->count()))) : QJsonValue()},
                       {"latest"_L1, holdLeft.count() >= 0 ? QJsonValue(isoTime(now.addMSecs(holdLeft.count()))) : QJsonValue()}};
}

QJsonArray AdminApi::hostsJson() const
{
    QJsonArray out;
    const auto now = m_clock->steadyNow();
    for (const auto &c : std::as_const(m_controllers)) {
        if (!c)
            continue;
        QJsonObject o{{"host"_L1, c->host()},
                      {"state"_L1, c->stateName()},
                      {"engine"_L1, c->currentEngine()},
                      {"target_engine"_L1, c->targetEngine()},
                      {"running"_L1, c->runningRequests()},
                      {"waiting"_L1, c->waitingRequests()},
                      {"last_error"_L1, c->lastFailure() ? ClientReplies::engineFailure(*c->lastFailure()) : QString()},
                      // The facts last_error words (EngineFailure::toJson()): a watching window words them.
                      {"last_failure"_L1, c->lastFailure() ? QJsonValue(c->lastFailure()->toJson()) : QJsonValue()},
                      {"running_requests"_L1, heldJson(c->runningList(), now)},
                      {"waiting_requests"_L1, heldJson(c->waitingList(), now)},
                      {"gpus"_L1, GpuReading::toJson(m_gpus ? m_gpus->gpus(c->host()) : QList<GpuReading>())}};
        if (!c->leaseOwner().isEmpty())
            o.insert("lease"_L1, QJsonObject{{"owner"_L1, c->leaseOwner()}, {"until"_L1, isoTime(c->leaseUntil())}});
        // A shared box's caches are its agent's: "box" says what they take.
        if (const PromptCacheKeeper *caches = c->promptCacheKeeper(); caches && !c->sharedBox())
            o.insert("prompt_caches"_L1, promptCachesJson(*caches));
        o.insert("engines"_L1, QJsonArray::fromStringList(c->engines()));
        o.insert("next_switch"_L1, nextSwitchJson(*c));
        // A box shared with other relays: its agent's view, who runs and waits from every relay.
        if (!c->box().isEmpty())
            o.insert("box"_L1, c->box());
        // Which agent protocol its agent and this relay speak: a window watching this relay
        // says when they differ (the box is then switched without arbitration, or needs a newer relay).
        if (const int agent = c->agentProtocol(); agent > 0) {
            o.insert("agent_protocol"_L1, agent);
            o.insert("relay_protocol"_L1, BoxProtocol::Version);
        }
        if (m_drivers.contains(c->host()))
            o.insert("driver"_L1, m_drivers.value(c->host()));
        if (const Catalog::HostState *s = m_catalog ? m_catalog->host(c->host()) : nullptr) {
            QJsonArray models;
            for (const ModelEntry &m : s->models) {
                QJsonObject model{{"key"_L1, m.key}, {"status"_L1, m.status}};
                if (const auto p = s->loadProgress.constFind(m.key); p != s->loadProgress.constEnd())
                    model.insert("progress"_L1, p->toJson());   // a load the router reports on
                models.append(model);
            }
            o.insert("url"_L1, s->url.toString());
            o.insert("reachable"_L1, s->reachable);
            o.insert("live"_L1, s->reachable && m_events && m_events->isConnected(c->host()));
            o.insert("round_trip_ms"_L1, double(s->roundTripMs));
            o.insert("last_poll"_L1, s->lastPoll.isValid() ? QJsonValue(isoTime(s->lastPoll)) : QJsonValue());
            o.insert("poll_error"_L1, s->lastError);
            o.insert("models"_L1, models);
        }
        out.append(o);
    }
    return out;
}

void AdminApi::takeLease(HostController *c, const IncomingRequest &request, ResponseWriter *writer)
{
    const QString host = c->host();
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    const QString owner = body.value("owner"_L1).toString();
    const double ttl = body.value("ttl_s"_L1).toDouble(3600);
    if (owner.isEmpty())
        return error(writer, AdminReplies::leaseOwnerMissing());
    if (ttl <= 0 || ttl > 7 * 24 * 3600)
        return error(writer, AdminReplies::leaseTtlOutOfRange());
    QPointer<ResponseWriter> w(writer);
    QPointer<HostController> controller(c);
    // Whoever asked for the lease and left before it was granted does not hold it.
    connect(writer, &ResponseWriter::clientDisconnected, c, [controller, owner] {
        if (controller && controller->leaseOwner() == owner && controller->state() != HostStateMachine::State::Leased)
            controller->releaseLease();
    });
    c->takeLease(owner, std::chrono::seconds(qint64(ttl)), [w, controller, host](const std::optional<HostRefusal> &refused) {
        if (!w || !controller)
            return;
        if (refused)
            return error(w, ClientReplies::fromHost(*refused));
        replyJson(w, 200, QJsonDocument(QJsonObject{{"host"_L1, host},
                                                    {"owner"_L1, controller->leaseOwner()},
                                                    {"until"_L1, isoTime(controller->leaseUntil())}}));
    });
}

void AdminApi::switchEngine(HostController *c, const IncomingRequest &request, ResponseWriter *writer)
{
    const QString host = c->host();
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    const QString engine = body.value("engine"_L1).toString();
    if (engine.isEmpty())
        return error(writer, AdminReplies::engineMissing(c->engines()));
    const QString by = body.value("by"_L1).toString(u"admin"_s);
    QPointer<ResponseWriter> w(writer);
    // Answers once the engine is up: running streams drain first, as for any request.
    c->switchEngine(engine, by, [w, host, engine](const std::optional<HostRefusal> &refused) {
        if (!w)
            return;
        if (!refused)
            replyJson(w, 200, QJsonDocument(QJsonObject{{"host"_L1, host}, {"engine"_L1, engine}}));
        else
            error(w, ClientReplies::fromHost(*refused));
    });
}

void AdminApi::releaseLease(HostController *c, ResponseWriter *writer)
{
    const QString host = c->host();
    c->releaseLease();
    replyJson(writer, 200, QJsonDocument(QJsonObject{{"host"_L1, host}, {"released"_L1, true}}));
}

void AdminApi::activeRequests(ResponseWriter *writer)
{
    QJsonArray out;
    if (m_active) {
        const auto now = std::chrono::steady_clock::now();
        for (const ActiveRequests::Entry &e : m_active->list())
            out.append(activeJson(e.record, e.phase, now));
    }
    replyJson(writer, 200, QJsonDocument(out));
}

void AdminApi::requests(const IncomingRequest &request, ResponseWriter *writer)
{
    const QString state = request.queryItem(u"state"_s);
    if (state == "active"_L1)
        return activeRequests(writer);
    if (!state.isEmpty() && state != "done"_L1)
        return error(writer, AdminReplies::requestStateUnknown(state));
    if (!m_store)
        return error(writer, AdminReplies::noHistoryStore());
    RequestQuery q;
    q.since = timeParam(request, u"since"_s, QDateTime());
    q.until = timeParam(request, u"until"_s, QDateTime());
    q.host = request.queryItem(u"host"_s);
    q.model = request.queryItem(u"model"_s);
    q.status = request.queryItem(u"status"_s).toInt();
    q.errorsOnly = request.queryItem(u"errors"_s) == "1"_L1;
    q.afterId = afterIdParam(request);
    const QString limit = request.queryItem(u"limit"_s);
    q.limit = limit.isEmpty() ? 100 : qBound(1, limit.toInt(), 10000);
    QJsonArray out;
    for (const RequestRecord &r : m_store->requests(q))
        out.append(recordJson(r));
    replyHistory(writer, *m_store, out);
}

void AdminApi::events(const IncomingRequest &request, ResponseWriter *writer)
{
    if (!m_store)
        return error(writer, AdminReplies::noHistoryStore());
    const QString limit = request.queryItem(u"limit"_s);
    QJsonArray out;
    const QDateTime since = timeParam(request, u"since"_s, QDateTime());
    for (const HistoryEvent &e : m_store->events(since, limit.isEmpty() ? 1000 : limit.toInt(), afterIdParam(request)))
        out.append(eventJson(e));
    replyHistory(writer, *m_store, out);
}

void AdminApi::stats(const IncomingRequest &request, ResponseWriter *writer)
{
    if (!m_store)
        return error(writer, AdminReplies::noHistoryStore());
    const QDateTime since = timeParam(request, u"since"_s, m_clock->now().addDays(-1));
    QJsonObject out;
    const AliasStats stats = m_store->stats(since);
    for (auto it = stats.begin(); it != stats.end(); ++it) {
        out.insert(it.key().isEmpty() ? u"-"_s : it.key(),
                   QJsonObject{{"requests"_L1, it->requests},
                               {"errors"_L1, it->errors},
                               {"median_ttfb_ms"_L1, optionalNumber(it->medianTtfbMs)},
                               {"median_tokens_per_s"_L1, optionalNumber(it->medianTokensPerSecond)}});
    }
    replyJson(writer, 200, QJsonDocument(QJsonObject{{"since"_L1, isoTime(since)}, {"aliases"_L1, out}}));
}

void AdminApi::usage(const IncomingRequest &request, ResponseWriter *writer)
{
    if (!m_store)
        return error(writer, AdminReplies::noHistoryStore());
    const QString sinceText = request.queryItem(u"since"_s);
    const std::optional<QDateTime> since = UsageQuery::parseSince(sinceText.isEmpty() ? u"7d"_s : sinceText, m_clock->now());
    if (!since)
        return error(writer, AdminReplies::sinceUnreadable(sinceText));
    const QString byText = request.queryItem(u"by"_s);
    const std::optional<UsageReport::By> by = UsageReport::byFromName(byText.isEmpty() ? u"key"_s : byText);
    if (!by)
        return error(writer, AdminReplies::usageByUnknown(byText));
    replyJson(writer, 200, QJsonDocument(UsageQuery::toJson(UsageQuery::report(*m_store, *since, *by), *since)));
}

} // namespace switchyard
