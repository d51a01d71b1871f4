#include "engines/agentdriver.h"

#include "engines/agentrequest.h"
#include "engines/agentstream.h"
#include "engines/enginelogging.h"
#include "upstream/upstreampool.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QByteArray engineBody(const QString &engine)
{
    return QJsonDocument(QJsonObject{{"engine"_L1, engine}}).toJson(QJsonDocument::Compact);
}

} // namespace

AgentDriver::AgentDriver(const HostConfig &host, const QString &token, UpstreamPool *pool,
                         std::chrono::milliseconds connectTimeout, QObject *parent)
    : EngineDriver(parent)
    , m_host(host)
    , m_token(token.toUtf8())
    , m_pool(pool ? pool : new UpstreamPool(this))
    , m_connectTimeout(connectTimeout)
{
    // The host controller probes only at start and after a failure; the GPU figures move on.
    m_gpuPoll.setInterval(GpuPollInterval);
    connect(&m_gpuPoll, &QTimer::timeout, this, &AgentDriver::pollGpus);
    m_eventsRetry.setSingleShot(true);
    m_eventsRetry.setInterval(EventsRetry);
    connect(&m_eventsRetry, &QTimer::timeout, this, &AgentDriver::watchBox);
}

AgentDriver::~AgentDriver() = default;

void AgentDriver::call(const QByteArray &method, const QByteArray &path, const QByteArray &body,
                       std::chrono::milliseconds deadline, Answer answer, Failure failure)
{
    AgentRequest::Call call;
    call.agent = m_host.agent;
    call.token = m_token;
    call.method = method;
    call.path = path;
    call.body = body;
    call.connectTimeout = m_connectTimeout;
    call.deadline = deadline;
    auto *request = new AgentRequest(m_pool, call, this);
    connect(request, &AgentRequest::answered, this, [request, answer](int status, const QByteArray &data) {
        request->deleteLater();
        answer(status, data);
    });
    connect(request, &AgentRequest::failed, this, [request, failure](const QString &reason) {
        request->deleteLater();
        failure(reason);
    });
    request->start();
}

QString AgentDriver::errorFrom(int status, const QByteArray &body) const
{
    if (status == 401)
        return u"the agent at %1 refused the token (401): check \"token\" in both configs"_s
            .arg(m_host.agent.authority());
    const QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject()
                                .value("message"_L1).toString();
    if (!message.isEmpty())
        return message;
    return u"the agent at %1 answered %2"_s.arg(m_host.agent.authority()).arg(status);
}

// The agent answers a switch only once the old engine is down and the new one is up.
std::chrono::milliseconds AgentDriver::switchDeadline(const QString &engine) const
{
    std::chrono::milliseconds start{0};
    std::chrono::milliseconds stop{0};
    for (const EngineConfig &e : m_host.engines) {
        if (e.name == engine)
            start = e.startTimeout;
        stop = std::max(stop, e.stopTimeout);
    }
    if (start.count() == 0)
        start = EngineConfig().startTimeout;
    return start + stop + Slack;
}

void AgentDriver::startEngine(const QString &engine)
{
    call("POST", "/agent/switch", engineBody(engine), switchDeadline(engine),
         [this, engine](int status, const QByteArray &body) {
             if (status == 200) {
                 m_running = engine;
                 emit engineStarted(engine);
                 return;
             }
             if (status == 424)
                 m_running.clear();
             emit engineStartFailed(engine, errorFrom(status, body));
         },
         [this, engine](const QString &reason) {
             m_running.clear();
             emit engineStartFailed(engine, reason);
         });
}

void AgentDriver::stopEngine(const QString &engine)
{
    std::chrono::milliseconds stop = EngineConfig().stopTimeout;
    for (const EngineConfig &e : m_host.engines) {
        if (e.name == engine)
            stop = e.stopTimeout;
    }
    call("POST", "/agent/stop", engineBody(engine), stop + Slack,
         [this, engine](int status, const QByteArray &body) {
             if (status == 200) {
                 if (m_running == engine)
                     m_running.clear();
                 emit engineStopped(engine);
                 return;
             }
             emit unreachable(errorFrom(status, body));
         },
         [this](const QString &reason) { emit unreachable(reason); });
}

void AgentDriver::pollGpus()
{
    if (m_gpuPollRunning)
        return;
    m_gpuPollRunning = true;
    call("GET", "/agent/status", {}, StatusDeadline,
         [this](int status, const QByteArray &body) {
             m_gpuPollRunning = false;
             if (status == 200)
                 emit gpusKnown(GpuReading::fromJson(QJsonDocument::fromJson(body).object().value("gpus"_L1).toArray()));
         },
         [this](const QString &) { m_gpuPollRunning = false; });
}

void AgentDriver::probe()
{
    if (!m_gpuPoll.isActive())
        m_gpuPoll.start();
    call("GET", "/agent/status", {}, StatusDeadline,
         [this](int status, const QByteArray &body) {
             if (status != 200) {
                 emit unreachable(errorFrom(status, body));
                 return;
             }
             const QJsonObject o = QJsonDocument::fromJson(body).object();
             if (o.isEmpty()) {
                 emit unreachable(u"the agent at %1 sent a status that is not JSON"_s.arg(m_host.agent.authority()));
                 return;
             }
             // "engine" is the engine that is up (null while none is): only that one can serve.
             m_running = o.value("engine"_L1).toString();
             learnProtocol(o.value("protocol"_L1).toInt(1));
             emit gpusKnown(GpuReading::fromJson(o.value("gpus"_L1).toArray()));
             emit statusKnown(m_running);
         },
         [this](const QString &reason) { emit unreachable(reason); });
}

void AgentDriver::learnProtocol(int protocol)
{
    if (protocol == m_protocol)
        return;
    m_protocol = protocol;
    if (protocol != BoxProtocol::Version) {
        qCWarning(lcEngines).noquote()
            << u"host %1: the agent at %2 speaks agent protocol %3, this relay %4: %5"_s.arg(
                   m_host.name, m_host.agent.authority())
                   .arg(protocol)
                   .arg(BoxProtocol::Version)
                   .arg(protocol < BoxProtocol::Version
                            ? u"this relay switches the box itself, and relays sharing it can cut each other's streams; update the agent"_s
                            : u"update this relay"_s);
        emit protocolMismatch(protocol);
    }
    if (protocol >= 2)
        watchBox();
}

AgentStream *AgentDriver::holdOnBox(const BoxAsk &ask, QObject *parent)
{
    if (!sharedBox())
        return nullptr;
    QJsonObject body{{"engine"_L1, ask.engine}, {"relay"_L1, ask.relay}, {"model"_L1, ask.model}};
    if (!ask.app.isEmpty())
        body.insert("app"_L1, ask.app);
    if (!ask.modelKey.isEmpty())
        body.insert("model_key"_L1, ask.modelKey);
    if (ask.command)
        body.insert("command"_L1, true);
    if (ask.sideCall)
        body.insert("side_call"_L1, true);
    AgentStream::Call call;
    call.agent = m_host.agent;
    call.token = m_token;
    call.method = "POST";
    call.path = BoxProtocol::HoldPath.toByteArray();
    call.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    call.connectTimeout = m_connectTimeout;
    auto *hold = new AgentStream(m_pool, call, parent);
    // An agent of protocol 1 has no /agent/hold: from now on this relay switches as before.
    connect(hold, &AgentStream::ended, this, [this](int status, const QByteArray &, const QString &) {
        if (status == 404)
            learnProtocol(1);
    });
    hold->start();
    return hold;
}

// What every relay sees of the box: a stream of its state, kept open while the agent is shared.
void AgentDriver::watchBox()
{
    if (m_events || !sharedBox())
        return;
    AgentStream::Call call;
    call.agent = m_host.agent;
    call.token = m_token;
    call.path = BoxProtocol::EventsPath.toByteArray();
    call.connectTimeout = m_connectTimeout;
    m_events = new AgentStream(m_pool, call, this);
    connect(m_events, &AgentStream::event, this, [this](const QByteArray &name, const QByteArray &data) {
        if (name != BoxProtocol::Box)
            return;
        const QJsonObject box = QJsonDocument::fromJson(data).object();
        const QString running = box.value("engine"_L1).toString();
        const bool changed = running != m_running;
        m_running = running;
        emit boxSeen(box);
        if (changed)
            emit statusKnown(running);
    });
    connect(m_events, &AgentStream::ended, this, [this](int status, const QByteArray &, const QString &) {
        m_events->deleteLater();
        m_events = nullptr;
        if (status == 404)
            learnProtocol(1);
        else
            m_eventsRetry.start();
    });
    m_events->start();
}

void AgentDriver::leaseBox(const QString &owner, std::chrono::seconds ttl, BoxLeaseDone done)
{
    const QJsonObject body{{"owner"_L1, owner}, {"ttl_s"_L1, double(ttl.count())}};
    call("POST", BoxProtocol::LeasePath.toByteArray(), QJsonDocument(body).toJson(QJsonDocument::Compact),
         LeaseDeadline,
         [done](int status, const QByteArray &answer) {
             if (done)
                 done(status, QJsonDocument::fromJson(answer).object().value("refusal"_L1).toObject(), {});
         },
         [done](const QString &reason) {
             if (done)
                 done(0, {}, reason);
         });
}

void AgentDriver::releaseBoxLease()
{
    call("POST", BoxProtocol::LeaseReleasePath.toByteArray(), "{}", StatusDeadline,
         [](int, const QByteArray &) {}, [](const QString &) {});
}

} // namespace switchyard
