#pragma once

#include "engines/agentcall.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamExchange;
class UpstreamPool;

// A long call to a `switchyard agent` whose answer is an event stream (agent protocol 2:
// /agent/hold, /agent/events): each "event: NAME / data: JSON" block is handed up as it arrives.
// Destroying it closes the connection, which is how the agent learns that a hold is given back.
class AgentStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentStream)

public:
    struct Call : AgentCall
    {
        // The agent sends a comment at least every AgentKeepalive: silence this long = gone.
        std::chrono::milliseconds silence{std::chrono::seconds(45)};
    };

    AgentStream(UpstreamPool *pool, Call call, QObject *parent = nullptr);
    ~AgentStream() override;

    void start();
    // Close the connection now, without another signal.
    void abort() { close(); }
    bool isOpen() const { return m_open; }

Q_SIGNALS:
    // The agent answered 200 with an event stream.
    void opened();
    void event(const QByteArray &name, const QByteArray &data);
    // Over: `status` is the agent's HTTP status (0 when none came), `body` its answer when that
    // was not a stream, `failure` why the connection ended when it broke.
    void ended(int status, const QByteArray &body, const QString &failure);

private:
    void consume(const QByteArray &data);
    void close();

    UpstreamPool *m_pool;
    Call m_call;
    QPointer<UpstreamExchange> m_exchange;
    QByteArray m_buffer;
    bool m_open = false;
    bool m_ended = false;
};

} // namespace switchyard
