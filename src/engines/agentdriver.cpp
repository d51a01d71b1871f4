#include "engines/agentdriver.h"

#include "engines/agentrequest.h"
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
        return tr("the agent at %1 refused the token (401): check \"token\" in both configs")
            .arg(m_host.agent.authority());
    const QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject()
                                .value("message"_L1).toString();
    if (!message.isEmpty())
        return message;
    return tr("the agent at %1 answered %2").arg(m_host.agent.authority()).arg(status);
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
                 emit unreachable(tr("the agent at %1 sent a status that is not JSON").arg(m_host.agent.authority()));
                 return;
             }
             // "engine" is the engine that is up (null while none is): only that one can serve.
             m_running = o.value("engine"_L1).toString();
             emit gpusKnown(GpuReading::fromJson(o.value("gpus"_L1).toArray()));
             emit statusKnown(m_running);
         },
         [this](const QString &reason) { emit unreachable(reason); });
}

} // namespace switchyard
