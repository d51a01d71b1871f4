#pragma once

#include "config/config.h"
#include "http/httpheaders.h"
#include "http/requesthandler.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QJsonObject>
#include <QPointer>
#include <QSet>
#include <QUrl>

namespace switchyard {

class EngineSupervisor;
struct IncomingRequest;
class GpuStatsReader;
class HttpServer;
class ResponseWriter;

// What decides for a box that several relays share (agent protocol 2, BoxProtocol): the agent
// hands it the paths it handles, after the token check, and shows its box in /agent/status.
class BoxArbitration
{
public:
    virtual ~BoxArbitration() = default;
    virtual bool handles(const QString &path) const = 0;
    virtual void handle(const IncomingRequest &request, ResponseWriter *writer) = 0;
    virtual QJsonObject boxJson() const = 0;
};

// What `switchyard agent` serves on a GPU box: an EngineSupervisor for the box's engines and
// its HTTP API for the relay (docs/CONFIG.md, "The agent"):
//   GET  /agent/status                → {"engine", "state", "target", "engines": [...], "gpus": [...]}
//   POST /agent/switch {"engine":"x"} → 200 {"engine":"x"} once it is up, 424 when it failed
//   POST /agent/stop [{"engine":"x"}] → 200 once it (or, without a body, every engine) is down
// With a token configured every /agent/ path needs "Authorization: Bearer TOKEN", else 401.
// GET /health answers without one.
class AgentService final : public QObject, public RequestHandler
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentService)

public:
    explicit AgentService(const AgentConfig &config, QObject *parent = nullptr);
    ~AgentService() override;

    // Opens the supervisor (stopping strays of an earlier run) and listens.
    bool start(QString *error);
    QUrl endpoint() const;
    EngineSupervisor *supervisor() const { return m_supervisor; }
    // Stop accepting and stop every engine; shutdownFinished() once they are down.
    void shutdown();

    void handleRequest(const IncomingRequest &request, ResponseWriter *writer) override;
    // With an arbiter the agent speaks protocol 2: /agent/hold, /agent/events, /agent/lease and
    // /agent/switch are its. Without one, protocol 1 (the relay switches).
    void setArbiter(BoxArbitration *arbiter) { m_arbiter = arbiter; }
    int protocol() const;

    // A status waits for a fresh GPU read when the last one is older than this.
    static constexpr std::chrono::milliseconds GpuMaxAge{std::chrono::seconds(2)};

    static QString stateFileName();
    // Compares in constant time (through SHA-256, so not even the length leaks).
    static bool tokenMatches(QByteArrayView presented, QByteArrayView expected);

Q_SIGNALS:
    // A line for the console: "engine fork: up after 2.1s".
    void event(const QString &text);
    void shutdownFinished();

private:
    void status(ResponseWriter *writer);
    QByteArray statusJson() const;
    void switchEngine(const IncomingRequest &request, ResponseWriter *writer);
    void stopEngine(const IncomingRequest &request, ResponseWriter *writer);
    bool authorized(const IncomingRequest &request) const;
    void replyJson(ResponseWriter *writer, int status, const QByteArray &json, const HeaderList &extra = {});
    void replyError(ResponseWriter *writer, int status, const QString &message, const HeaderList &extra = {});
    // The engine named in a JSON body; empty body = *engine stays empty. False after answering 400.
    bool readEngine(const IncomingRequest &request, ResponseWriter *writer, bool required, QString *engine);
    void watchSupervisor();

    struct Waiting
    {
        QString engine;   // empty: a stop of every engine
        QPointer<ResponseWriter> writer;
    };

    AgentConfig m_config;
    EngineSupervisor *m_supervisor;
    HttpServer *m_server;
    QList<Waiting> m_switches;
    QList<Waiting> m_stops;
    GpuStatsReader *m_gpus;
    QList<QPointer<ResponseWriter>> m_statusWaiting;   // for the GPU read under way
    QHash<QString, QElapsedTimer> m_startedAt;
    bool m_shuttingDown = false;
    BoxArbitration *m_arbiter = nullptr;
    QSet<QString> m_oldRelays;   // relays of protocol 1 already named in the log
    void noteOldRelay(const IncomingRequest &request);
};

} // namespace switchyard
