#pragma once

#include "engines/agentcall.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamExchange;
class UpstreamPool;

// One call from the relay to a `switchyard agent`: a request with the shared token, the whole
// answer collected, and a deadline for all of it (a switch may take minutes, but not forever).
class AgentRequest final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentRequest)

public:
    struct Call : AgentCall
    {
        std::chrono::milliseconds deadline{std::chrono::seconds(30)};
    };

    AgentRequest(UpstreamPool *pool, Call call, QObject *parent = nullptr);
    ~AgentRequest() override;

    void start();

Q_SIGNALS:
    // An HTTP answer of any status.
    void answered(int status, const QByteArray &body);
    // No answer: unreachable, dropped, or past the deadline.
    void failed(const QString &reason);

private:
    void finish();

    UpstreamPool *m_pool;
    Call m_call;
    QPointer<UpstreamExchange> m_exchange;
    QByteArray m_body;
    QTimer m_deadline;
};

} // namespace switchyard
