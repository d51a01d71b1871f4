#include "hosts/boxarbiter.h"

#include "hosts/promptcachekeeper.h"

#include "engines/boxprotocol.h"
#include "engines/enginedriver.h"
#include "hosts/hostcontroller.h"
#include "hosts/hostrefusal.h"
#include "hosts/hostslogging.h"
#include "http/incomingrequest.h"
#include "http/responsewriter.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QJsonValue nameOrNull(const QString &name)
{
    return name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(name);
}

} // namespace

BoxArbiter::BoxArbiter(std::unique_ptr<EngineDriver> driver, const QString &box, const SchedulingConfig &scheduling,
                       QObject *parent)
    : QObject(parent)
    , m_box(box)
    , m_controller(new HostController(box, std::move(driver), nullptr, nullptr, scheduling, this))
{
    m_publish.setSingleShot(true);
    m_publish.setInterval(0);
    connect(&m_publish, &QTimer::timeout, this, &BoxArbiter::publishBox);
    connect(m_controller, &HostController::stateChanged, &m_publish, qOverload<>(&QTimer::start));
    connect(m_controller, &HostController::historyEvent, this, [this](const HistoryEvent &e) {
        if (e.kind == HistoryEvent::Kind::SwitchStart)
            m_switchFor = e.model;
        if (e.kind == HistoryEvent::Kind::IdleStop || e.kind == HistoryEvent::Kind::SleepCommand) {
            m_lastPowerEvent = e;   // every relay's timeline shows it (boxJson)
            m_publish.start();
        }
        emit event(e.toString());
    });
    m_keepalive.setInterval(Keepalive);
    connect(&m_keepalive, &QTimer::timeout, this, &BoxArbiter::keepAlive);
    m_keepalive.start();
    m_controller->start();
}

BoxArbiter::~BoxArbiter()
{
    // The controller goes first: places given back while the agent shuts down must not start
    // another engine. Its tickets then release nothing.
    delete std::exchange(m_controller, nullptr);
    m_holds.clear();
}

void BoxArbiter::setPromptCacheKeeper(PromptCacheKeeper *keeper)
{
    m_controller->setPromptCacheKeeper(keeper);
    if (keeper)
        connect(keeper, &PromptCacheKeeper::savedChanged, &m_publish, qOverload<>(&QTimer::start));
}

bool BoxArbiter::handles(const QString &path) const
{
    return path == QLatin1StringView(BoxProtocol::HoldPath) || path == QLatin1StringView(BoxProtocol::EventsPath)
        || path == QLatin1StringView(BoxProtocol::LeasePath) || path == QLatin1StringView(BoxProtocol::LeaseReleasePath)
        || path == "/agent/switch"_L1;
}

void BoxArbiter::handle(const IncomingRequest &request, ResponseWriter *writer)
{
    const QString &path = request.path;
    const bool post = request.method == "POST";
    if (path == QLatin1StringView(BoxProtocol::EventsPath)) {
        if (request.method != "GET") {
            replyJson(writer, 405, QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, u"use GET"_s}, {"code"_L1, 405}}}});
            return;
        }
        watch(writer);
        return;
    }
    if (!post) {
        replyJson(writer, 405, QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, u"use POST"_s}, {"code"_L1, 405}}}});
        return;
    }
    if (path == QLatin1StringView(BoxProtocol::HoldPath))
        hold(request, writer);
    else if (path == "/agent/switch"_L1)
        switchOnCommand(request, writer);
    else if (path == QLatin1StringView(BoxProtocol::LeaseReleasePath)) {
        m_controller->releaseLease();
        replyJson(writer, 200, QJsonObject{{"lease"_L1, QJsonValue::Null}});
    } else
        lease(request, writer);
}

void BoxArbiter::openStream(ResponseWriter *writer)
{
    writer->writeHead(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-store"}});
}

void BoxArbiter::sendEvent(ResponseWriter *writer, QByteArrayView name, const QJsonObject &data)
{
    if (!writer || writer->isFinished())
        return;
    writer->writeBody("event: " + name.toByteArray() + "\ndata: " + QJsonDocument(data).toJson(QJsonDocument::Compact)
                      + "\n\n");
}

void BoxArbiter::hold(const IncomingRequest &request, ResponseWriter *writer)
{
    const QJsonObject ask = QJsonDocument::fromJson(request.body).object();
    auto place = std::make_unique<Hold>();
    place->engine = ask.value("engine"_L1).toString();
    place->relay = ask.value("relay"_L1).toString(request.clientAddress);
    if (place->relay.isEmpty())
        place->relay = request.clientAddress;
    place->model = ask.value("model"_L1).toString();
    place->modelKey = ask.value("model_key"_L1).toString();   // none from a relay before issue 33's caches
    place->app = ask.value("app"_L1).toString();
    place->command = ask.value("command"_L1).toBool();
    place->sideCall = ask.value("side_call"_L1).toBool();
    place->since = std::chrono::steady_clock::now();
    place->writer = writer;
    if (place->engine.isEmpty()) {
        replyJson(writer, 400, QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, u"\"engine\" is missing"_s}, {"code"_L1, 400}}}});
        return;
    }
    openStream(writer);
    if (!m_controller->engines().contains(place->engine)) {
        HostRefusal why;
        why.reason = HostRefusal::Reason::NoSuchEngine;
        why.host = m_box;
        why.engine = place->engine;
        why.engines = m_controller->engines();
        sendEvent(writer, BoxProtocol::Refuse, why.toJson());
        writer->finish();
        return;
    }
    place->ticket = m_controller->newTicket();
    const quint64 id = place->ticket.id();
    // The relay closes the connection when its request is over (or it died): the place goes back.
    connect(writer, &ResponseWriter::clientDisconnected, this, [this, id] { letGo(id); });
    connect(writer, &QObject::destroyed, this, [this, id] { letGo(id); });
    qCDebug(lcHosts).noquote() << u"box %1: %2 holds a place for %3 (%4)"_s.arg(m_box, place->relay, place->engine).arg(id);
    HostController::RequestInfo info{place->engine, place->model, place->relay, place->app, place->modelKey,
                                     place->sideCall};
    m_holds.emplace(id, std::move(place));
    m_controller->request(m_holds.at(id)->ticket, info, [this, id] { admitted(id); },
                          [this, id](const HostRefusal &why) { refused(id, why); });
}

void BoxArbiter::admitted(quint64 id)
{
    const auto it = m_holds.find(id);
    if (it == m_holds.end())
        return;
    Hold &place = *it->second;
    place.admitted = true;
    qCDebug(lcHosts).noquote() << u"box %1: admitted %2 for %3"_s.arg(m_box).arg(id).arg(place.engine);
    sendEvent(place.writer, BoxProtocol::Admit, QJsonObject{{"engine"_L1, place.engine}});
    m_publish.start();
    if (place.command) {
        // A switch on command needs no slot: the engine is up, the place goes back.
        if (place.writer)
            place.writer->finish();
        letGo(id);
    }
}

void BoxArbiter::refused(quint64 id, const HostRefusal &why)
{
    const auto it = m_holds.find(id);
    if (it == m_holds.end())
        return;
    QPointer<ResponseWriter> writer = it->second->writer;
    qCDebug(lcHosts).noquote() << u"box %1: refused %2: %3"_s.arg(m_box).arg(id).arg(why.facts());
    sendEvent(writer, BoxProtocol::Refuse, why.toJson());
    if (writer)
        writer->finish();
    letGo(id);
}

void BoxArbiter::letGo(quint64 id)
{
    const auto it = m_holds.find(id);
    if (it == m_holds.end())
        return;
    // Out of the map first: releasing the ticket may admit others, which look the map up.
    std::unique_ptr<Hold> gone = std::move(it->second);
    m_holds.erase(it);
    qCDebug(lcHosts).noquote() << u"box %1: place %2 given back"_s.arg(m_box).arg(id);
    if (gone->writer)
        gone->writer->disconnect(this);
    gone->ticket.release();
    if (m_controller)
        m_publish.start();
}

void BoxArbiter::watch(ResponseWriter *writer)
{
    openStream(writer);
    sendEvent(writer, BoxProtocol::Box, boxJson());
    m_watchers.append(writer);
}

void BoxArbiter::publishBox()
{
    m_watchers.removeIf([](const QPointer<ResponseWriter> &w) { return !w || w->isFinished() || w->clientGone(); });
    if (m_watchers.isEmpty())
        return;
    const QJsonObject box = boxJson();
    for (const QPointer<ResponseWriter> &w : std::as_const(m_watchers))
        sendEvent(w, BoxProtocol::Box, box);
}

void BoxArbiter::keepAlive()
{
    for (const auto &[id, place] : m_holds) {
        if (place->writer && !place->writer->isFinished())
            place->writer->writeBody(": keepalive\n\n");
    }
    for (const QPointer<ResponseWriter> &w : std::as_const(m_watchers)) {
        if (w && !w->isFinished())
            w->writeBody(": keepalive\n\n");
    }
}

void BoxArbiter::switchOnCommand(const IncomingRequest &request, ResponseWriter *writer)
{
    const QString engine = QJsonDocument::fromJson(request.body).object().value("engine"_L1).toString();
    if (engine.isEmpty()) {
        replyJson(writer, 400, QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, u"\"engine\" is missing"_s}, {"code"_L1, 400}}}});
        return;
    }
    QPointer<ResponseWriter> answer(writer);
    m_controller->switchEngine(engine, request.clientAddress, [this, answer, engine](const std::optional<HostRefusal> &why) {
        if (!answer)
            return;
        if (why)
            replyRefusal(answer, *why);
        else
            replyJson(answer, 200, QJsonObject{{"engine"_L1, engine}, {"state"_L1, u"ready"_s}});
    });
}

void BoxArbiter::lease(const IncomingRequest &request, ResponseWriter *writer)
{
    const QJsonObject ask = QJsonDocument::fromJson(request.body).object();
    const QString owner = ask.value("owner"_L1).toString();
    const qint64 ttl = qint64(ask.value("ttl_s"_L1).toDouble());
    if (owner.isEmpty() || ttl <= 0) {
        replyJson(writer, 400, QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, u"expected {\"owner\": NAME, \"ttl_s\": SECONDS > 0}"_s}, {"code"_L1, 400}}}});
        return;
    }
    QPointer<ResponseWriter> answer(writer);
    m_controller->takeLease(owner, std::chrono::seconds(ttl), [this, answer](const std::optional<HostRefusal> &why) {
        if (!answer)
            return;
        if (why)
            replyRefusal(answer, *why);
        else
            replyJson(answer, 200, QJsonObject{{"owner"_L1, m_controller->leaseOwner()},
                                               {"until"_L1, m_controller->leaseUntil().toUTC().toString(Qt::ISODateWithMs)}});
    });
}

QJsonObject BoxArbiter::boxJson() const
{
    QJsonArray holds;
    const auto now = std::chrono::steady_clock::now();
    for (const auto &[id, place] : m_holds) {
        if (place->command && place->admitted)
            continue;
        QJsonObject h{{"relay"_L1, place->relay},
                      {"engine"_L1, place->engine},
                      {"model"_L1, place->model},
                      {"state"_L1, place->admitted ? u"running"_s : u"waiting"_s},
                      {"age_ms"_L1, double(std::chrono::duration_cast<std::chrono::milliseconds>(now - place->since).count())}};
        if (!place->app.isEmpty())
            h.insert("app"_L1, place->app);
        if (place->command)
            h.insert("command"_L1, true);
        if (place->sideCall)
            h.insert("class"_L1, u"side_call"_s);
        holds.append(h);
    }
    QJsonObject box{{"name"_L1, m_box},
                    {"state"_L1, m_controller->stateName()},
                    {"engine"_L1, nameOrNull(m_controller->currentEngine())},
                    {"target"_L1, nameOrNull(m_controller->targetEngine())},
                    {"running"_L1, m_controller->runningRequests()},
                    {"waiting"_L1, m_controller->waitingRequests()},
                    {"holds"_L1, holds}};
    if (m_controller->state() == HostStateMachine::State::Switching && !m_switchFor.isEmpty())
        box.insert("switch_for"_L1, m_switchFor);
    if (const PromptCacheKeeper *keeper = m_controller->promptCacheKeeper()) {
        const PromptCacheKeeper::Usage usage = keeper->usage();
        box.insert("prompt_caches"_L1, QJsonObject{{"saved"_L1, usage.saved},
                                                   {"bytes"_L1, double(usage.bytes)},
                                                   {"max_bytes"_L1, double(usage.maxBytes)}});
    }
    if (m_lastPowerEvent) {
        QJsonObject power{{"kind"_L1, HistoryEvent::kindName(m_lastPowerEvent->kind)},
                          {"at"_L1, m_lastPowerEvent->at.toUTC().toString(Qt::ISODateWithMs)},
                          {"detail"_L1, m_lastPowerEvent->detail}};
        if (!m_lastPowerEvent->engine.isEmpty())
            power.insert("engine"_L1, m_lastPowerEvent->engine);
        box.insert("power_event"_L1, power);
    }
    if (!m_controller->leaseOwner().isEmpty()) {
        box.insert("lease"_L1, QJsonObject{{"owner"_L1, m_controller->leaseOwner()},
                                           {"until"_L1, m_controller->leaseUntil().toUTC().toString(Qt::ISODateWithMs)}});
    }
    return box;
}

void BoxArbiter::replyJson(ResponseWriter *writer, int status, const QJsonObject &body)
{
    if (!writer || writer->isFinished())
        return;
    writer->respond(status, {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}},
                    QJsonDocument(body).toJson(QJsonDocument::Compact));
}

// The facts for relays of protocol 2, a message for those of protocol 1 (they show its text).
void BoxArbiter::replyRefusal(ResponseWriter *writer, const HostRefusal &why)
{
    const QString message = m_wording ? m_wording(why) : why.failure ? why.failure->toString() : why.facts();
    replyJson(writer, why.status(),
              QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, message}, {"code"_L1, why.status()},
                                                  {"source"_L1, u"switchyard-agent"_s}}},
                          {"refusal"_L1, why.toJson()}});
}

} // namespace switchyard
