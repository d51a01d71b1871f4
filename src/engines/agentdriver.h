#pragma once

#include "config/config.h"
#include "engines/enginedriver.h"

#include <QByteArray>
#include <QTimer>

#include <chrono>
#include <functional>

namespace switchyard {

class AgentStream;
class UpstreamPool;

// driver "agent": asks `switchyard agent` on the GPU box over HTTP (see docs/CONFIG.md):
// GET /agent/status, POST /agent/switch {"engine"} (answers once the engine is up or has
// failed), POST /agent/stop {"engine"}. The token goes in "Authorization: Bearer" and nowhere else.
// A stop the agent cannot confirm ends in unreachable(), not engineStopped().
class AgentDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentDriver)

public:
    AgentDriver(const HostConfig &host, const QString &token, UpstreamPool *pool,
                std::chrono::milliseconds connectTimeout, QObject *parent = nullptr);
    ~AgentDriver() override;

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }
    // Until the agent says otherwise it is taken to arbitrate (protocol 2); an agent that says 1,
    // or answers /agent/hold with 404, makes this relay switch the box itself, as before.
    bool sharedBox() const override { return m_protocol != 1; }
    AgentStream *holdOnBox(const BoxAsk &ask, QObject *parent) override;
    void leaseBox(const QString &owner, std::chrono::seconds ttl, BoxLeaseDone done) override;
    void releaseBoxLease() override;
    int agentProtocol() const override { return m_protocol; }   // 0 until the agent said
    // Asks the agent for its GPUs now: gpusKnown() (nothing when the agent does not answer).
    // After the first probe() this runs every GpuPollInterval.
    void pollGpus();

    // Slack on top of the engines' own timeouts for how long a switch may take on the box.
    static constexpr std::chrono::milliseconds Slack{std::chrono::seconds(30)};
    static constexpr std::chrono::milliseconds StatusDeadline{std::chrono::seconds(15)};
    static constexpr std::chrono::milliseconds GpuPollInterval{std::chrono::seconds(15)};
    static constexpr std::chrono::milliseconds LeaseDeadline{std::chrono::minutes(15)};
    static constexpr std::chrono::milliseconds EventsRetry{std::chrono::seconds(1)};

private:
    using Answer = std::function<void(int status, const QByteArray &body)>;
    using Failure = std::function<void(const QString &reason)>;
    void call(const QByteArray &method, const QByteArray &path, const QByteArray &body,
              std::chrono::milliseconds deadline, Answer answer, Failure failure);
    QString errorFrom(int status, const QByteArray &body) const;
    std::chrono::milliseconds switchDeadline(const QString &engine) const;
    void learnProtocol(int protocol);
    void watchBox();

    int m_protocol = 0;
    AgentStream *m_events = nullptr;
    QTimer m_eventsRetry;

    HostConfig m_host;
    QByteArray m_token;
    UpstreamPool *m_pool;
    std::chrono::milliseconds m_connectTimeout;
    QString m_running;
    QTimer m_gpuPoll;
    bool m_gpuPollRunning = false;
};

} // namespace switchyard
