#include "engines/agentservice.h"

#include "common/constanttime.h"

#include "engines/boxprotocol.h"
#include "engines/enginesupervisor.h"
#include "engines/gpustatsreader.h"
#include "http/httpserver.h"
#include "http/incomingrequest.h"
#include "http/responsewriter.h"
#include "journal/journalformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

ServerLimits agentLimits()
{
    ServerLimits limits;
    limits.maxBodyBytes = 64 * 1024;   // {"engine":"x"} is all anyone sends
    return limits;
}

QJsonValue nameOrNull(const QString &name)
{
    return name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(name);
}

} // namespace

AgentService::AgentService(const AgentConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_supervisor(new EngineSupervisor(config.engines,
                                        (config.stateDir.isEmpty() ? EngineSupervisor::defaultStateDir() : config.stateDir)
                                            + u'/' + stateFileName(),
                                        nullptr, this))
    , m_server(new HttpServer(agentLimits(), this, nullptr, this))
    , m_gpus(new GpuStatsReader(std::chrono::seconds(3), this))
{
    watchSupervisor();
    connect(m_gpus, &GpuStatsReader::finished, this, [this] {
        const QList<QPointer<ResponseWriter>> waiting = std::exchange(m_statusWaiting, {});
        const QByteArray body = statusJson();
        for (const QPointer<ResponseWriter> &w : waiting)
            replyJson(w, 200, body);
    });
}

AgentService::~AgentService()
{
    // The server goes first, so no request arrives while the engines are being stopped.
    delete m_server;
    m_supervisor->stopAllNow();
}

QString AgentService::stateFileName()
{
    return u"agent.json"_s;
}

bool AgentService::start(QString *error)
{
    EngineFailure failure;
    if (!m_supervisor->open(&failure)) {
        *error = failure.toString();
        return false;
    }
    if (!m_server->listenOn(m_config.listenAddress, m_config.listenPort)) {
        *error = tr("cannot listen on %1:%2: %3")
                     .arg(m_config.listenAddress.toString())
                     .arg(m_config.listenPort)
                     .arg(m_server->errorString());
        return false;
    }
    return true;
}

QUrl AgentService::endpoint() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(m_server->address().toString());
    url.setPort(m_server->port());
    return url;
}

void AgentService::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_server->stopAccepting();
    connect(m_supervisor, &EngineSupervisor::allStopped, this, &AgentService::shutdownFinished,
            Qt::SingleShotConnection);
    m_supervisor->stopAll();
}

void AgentService::watchSupervisor()
{
    connect(m_supervisor, &EngineSupervisor::stateChanged, this,
            [this](const QString &engine, EngineSupervisor::State state) {
                switch (state) {
                case EngineSupervisor::State::Starting:
                    m_startedAt[engine].start();
                    emit event(tr("engine %1: starting").arg(engine));
                    break;
                case EngineSupervisor::State::Ready: {
                    const auto took = std::chrono::milliseconds(m_startedAt.value(engine).elapsed());
                    emit event(tr("engine %1: up after %2")
                                   .arg(engine, JournalFormat::goDuration(JournalFormat::roundToMillisecond(took))));
                    break;
                }
                case EngineSupervisor::State::Stopping:
                    emit event(tr("engine %1: stopping").arg(engine));
                    break;
                case EngineSupervisor::State::Stopped:
                    emit event(tr("engine %1: stopped").arg(engine));
                    break;
                }
            });

    connect(m_supervisor, &EngineSupervisor::engineReady, this, [this](const QString &engine) {
        const QByteArray body = QJsonDocument(QJsonObject{{"engine"_L1, engine}, {"state"_L1, u"ready"_s}})
                                        .toJson(QJsonDocument::Compact);
        const QList<Waiting> waiting = m_switches;
        m_switches.removeIf([&](const Waiting &w) { return w.engine == engine; });
        for (const Waiting &w : waiting) {
            if (w.engine == engine && w.writer)
                replyJson(w.writer, 200, body);
        }
    });
    connect(m_supervisor, &EngineSupervisor::engineStartFailed, this,
            [this](const QString &engine, const QString &reason) {
                emit event(tr("engine %1: start failed: %2").arg(engine, reason));
                const QList<Waiting> waiting = m_switches;
                m_switches.removeIf([&](const Waiting &w) { return w.engine == engine; });
                for (const Waiting &w : waiting) {
                    if (w.engine == engine && w.writer)
                        replyError(w.writer, 424, reason);
                }
            });
    connect(m_supervisor, &EngineSupervisor::engineExited, this, [this](const QString &engine, const QString &reason) {
        emit event(tr("engine %1: exited on its own: %2").arg(engine, reason));
    });

    auto answerStops = [this](const QString &engine) {
        const QList<Waiting> waiting = m_stops;
        m_stops.removeIf([&](const Waiting &w) { return w.engine == engine; });
        const QByteArray body = QJsonDocument(QJsonObject{{"engine"_L1, nameOrNull(m_supervisor->readyEngine())}})
                                        .toJson(QJsonDocument::Compact);
        for (const Waiting &w : waiting) {
            if (w.engine == engine && w.writer)
                replyJson(w.writer, 200, body);
        }
    };
    connect(m_supervisor, &EngineSupervisor::engineStopped, this, answerStops);
    connect(m_supervisor, &EngineSupervisor::allStopped, this, [answerStops] { answerStops(QString()); });
}

bool AgentService::tokenMatches(QByteArrayView presented, QByteArrayView expected)
{
    return constantTimeEquals(presented, expected);
}

bool AgentService::authorized(const IncomingRequest &request) const
{
    if (m_config.token.isEmpty())
        return true;
    const QByteArray header = request.header("authorization");
    const QByteArray scheme = "Bearer ";
    const bool bearer = header.size() > scheme.size() && header.left(scheme.size()).compare(scheme, Qt::CaseInsensitive) == 0;
    // Compare even when the scheme is wrong, so the time taken says nothing either way.
    const bool matches = tokenMatches(bearer ? QByteArrayView(header).sliced(scheme.size()) : QByteArrayView(),
                                      m_config.token.toUtf8());
    return bearer && matches;
}

void AgentService::handleRequest(const IncomingRequest &request, ResponseWriter *writer)
{
    const QString &path = request.path;
    const QByteArray &method = request.method;
    const bool read = method == "GET" || method == "HEAD";

    if (path == "/health"_L1 && read) {
        replyJson(writer, 200, R"({"status":"ok"})");
        return;
    }
    if (!path.startsWith("/agent/"_L1)) {
        replyError(writer, 404, u"no such path: %1"_s.arg(path));
        return;
    }
    if (!authorized(request)) {
        replyError(writer, 401, u"missing or wrong token"_s, {{"WWW-Authenticate", "Bearer"}});
        return;
    }
    if (path == "/agent/status"_L1) {
        if (read)
            status(writer);
        else
            replyError(writer, 405, u"use GET"_s, {{"Allow", "GET, HEAD"}});
        return;
    }
    if (path == "/agent/switch"_L1 || path == "/agent/stop"_L1)
        noteOldRelay(request);
    if (m_arbiter && m_arbiter->handles(path)) {
        if (m_shuttingDown) {
            replyError(writer, 503, u"the agent is shutting down"_s);
            return;
        }
        m_arbiter->handle(request, writer);
        return;
    }
    if (path == "/agent/switch"_L1 || path == "/agent/stop"_L1) {
        if (method != "POST") {
            replyError(writer, 405, u"use POST"_s, {{"Allow", "POST"}});
            return;
        }
        if (m_shuttingDown) {
            replyError(writer, 503, u"the agent is shutting down"_s);
            return;
        }
        if (path == "/agent/switch"_L1)
            switchEngine(request, writer);
        else
            stopEngine(request, writer);
        return;
    }
    replyError(writer, 404, u"no such path: %1"_s.arg(path));
}

// The GPU figures are at most GpuMaxAge old: a status waits for one read (bounded by the
// reader's timeout) rather than run nvidia-smi on a timer of its own.
void AgentService::status(ResponseWriter *writer)
{
    if (m_gpus->isFresh(GpuMaxAge)) {
        replyJson(writer, 200, statusJson());
        return;
    }
    m_statusWaiting.append(writer);
    m_gpus->refresh();
}

QByteArray AgentService::statusJson() const
{
    QJsonArray engines;
    bool anyStopping = false;
    for (const QString &name : m_supervisor->engineNames()) {
        const EngineSupervisor::State state = m_supervisor->state(name);
        anyStopping = anyStopping || state == EngineSupervisor::State::Stopping;
        QJsonObject engine{{"name"_L1, name},
                           {"url"_L1, m_supervisor->engineConfig(name)->url.toString()},
                           {"state"_L1, EngineProcess::stateName(state)}};
        if (const qint64 pid = m_supervisor->pid(name))
            engine.insert("pid"_L1, pid);
        engines.append(engine);
    }
    const QString ready = m_supervisor->readyEngine();
    const QString target = m_supervisor->targetEngine();
    QString state = u"stopped"_s;
    if (!target.isEmpty())
        state = EngineProcess::stateName(m_supervisor->state(target));
    else if (!ready.isEmpty())
        state = u"ready"_s;
    else if (anyStopping)
        state = u"stopping"_s;
    const QJsonObject root{{"engine"_L1, nameOrNull(ready)},
                           {"state"_L1, state},
                           {"target"_L1, nameOrNull(target)},
                           {"engines"_L1, engines},
                           {"gpus"_L1, GpuReading::toJson(m_gpus->readings())},
                           {"version"_L1, QStringLiteral(SWITCHYARD_VERSION)},
                           {"protocol"_L1, protocol()}};
    QJsonObject withBox = root;
    if (m_arbiter)
        withBox.insert("box"_L1, m_arbiter->boxJson());
    return QJsonDocument(withBox).toJson(QJsonDocument::Compact);
}

bool AgentService::readEngine(const IncomingRequest &request, ResponseWriter *writer, bool required, QString *engine)
{
    if (request.body.trimmed().isEmpty() && !required)
        return true;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &error);
    if (!document.isObject()) {
        replyError(writer, 400, u"expected a JSON object like {\"engine\":\"NAME\"}"_s);
        return false;
    }
    const QJsonValue value = document.object().value("engine"_L1);
    if (value.isUndefined() || value.isNull()) {
        if (!required)
            return true;
        replyError(writer, 400, u"\"engine\" is missing"_s);
        return false;
    }
    if (!value.isString()) {
        replyError(writer, 400, u"\"engine\" must be a string"_s);
        return false;
    }
    *engine = value.toString();
    if (!m_supervisor->hasEngine(*engine)) {
        replyError(writer, 404, u"no engine called %1 on this agent (engines: %2)"_s
                                    .arg(*engine, m_supervisor->engineNames().join(u", "_s)));
        return false;
    }
    return true;
}

void AgentService::switchEngine(const IncomingRequest &request, ResponseWriter *writer)
{
    QString engine;
    if (!readEngine(request, writer, true, &engine))
        return;
    // Answered by engineReady or engineStartFailed; a client that leaves does not cancel the switch.
    m_switches.append({engine, writer});
    m_supervisor->switchTo(engine);
}

void AgentService::stopEngine(const IncomingRequest &request, ResponseWriter *writer)
{
    QString engine;
    if (!readEngine(request, writer, false, &engine))
        return;
    m_stops.append({engine, writer});
    if (engine.isEmpty())
        m_supervisor->stopAll();
    else
        m_supervisor->stop(engine);
}

void AgentService::replyJson(ResponseWriter *writer, int status, const QByteArray &json, const HeaderList &extra)
{
    if (!writer || writer->isFinished())
        return;
    HeaderList headers = {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}};
    headers.append(extra);
    writer->respond(status, headers, json);
}

void AgentService::replyError(ResponseWriter *writer, int status, const QString &message, const HeaderList &extra)
{
    const QJsonObject error{{"message"_L1, message},
                            {"code"_L1, status},
                            {"source"_L1, u"switchyard-agent"_s}};
    replyJson(writer, status, QJsonDocument(QJsonObject{{"error"_L1, error}}).toJson(QJsonDocument::Compact), extra);
}

int AgentService::protocol() const
{
    return m_arbiter ? BoxProtocol::Version : 1;
}

// A relay that does not say its protocol is of release 1: it switches this box by itself, so
// it can cut the streams of relays that share the box. Said once per relay address.
void AgentService::noteOldRelay(const IncomingRequest &request)
{
    if (!request.header(BoxProtocol::Header).isEmpty() || m_oldRelays.contains(request.clientAddress))
        return;
    m_oldRelays.insert(request.clientAddress);
    emit event(u"relay at %1 speaks agent protocol 1, this agent %2: it switches engines without "
               "holding them while it streams, so it can cut other relays' streams; update that relay"_s
                   .arg(request.clientAddress)
                   .arg(protocol()));
}

} // namespace switchyard
