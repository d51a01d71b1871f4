#include "engines/agentrequest.h"

#include "engines/engineprocess.h"
#include "upstream/upstreamexchange.h"

namespace switchyard {

using namespace Qt::StringLiterals;

AgentRequest::AgentRequest(UpstreamPool *pool, Call call, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_call(std::move(call))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        finish();
        emit failed(u"no answer from the agent at %1 to %2 within %3"_s
                        .arg(m_call.agent.authority(), QString::fromLatin1(m_call.path),
                             EngineProcess::secondsText(m_call.deadline)));
    });
}

AgentRequest::~AgentRequest()
{
    finish();
}

void AgentRequest::start()
{
    const UpstreamExchange::Request request = m_call.request("application/json");
    m_body.clear();
    m_exchange = new UpstreamExchange(m_pool, request, this);
    connect(m_exchange, &UpstreamExchange::bodyData, this, [this](const QByteArray &data) { m_body += data; });
    connect(m_exchange, &UpstreamExchange::finished, this, [this] {
        const int status = m_exchange->status();
        finish();
        emit answered(status, m_body);
    });
    connect(m_exchange, &UpstreamExchange::failed, this, [this](UpstreamExchange::Failure, const QString &message) {
        finish();
        emit failed(u"the agent at %1 did not answer: %2"_s.arg(m_call.agent.authority(), message));
    });
    m_deadline.start(m_call.deadline);
    m_exchange->start();
}

void AgentRequest::finish()
{
    m_deadline.stop();
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

} // namespace switchyard
