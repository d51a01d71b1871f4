#include "engines/agentstream.h"

#include "upstream/upstreamexchange.h"

namespace switchyard {

using namespace Qt::StringLiterals;

AgentStream::AgentStream(UpstreamPool *pool, Call call, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_call(std::move(call))
{
}

AgentStream::~AgentStream()
{
    close();
}

void AgentStream::start()
{
    UpstreamExchange::Request request = m_call.request("text/event-stream");
    request.inactivityTimeout = m_call.silence;
    m_exchange = new UpstreamExchange(m_pool, request, this);
    connect(m_exchange, &UpstreamExchange::responseHead, this, [this] {
        if (m_exchange->status() == 200) {
            m_open = true;
            emit opened();
        }
    });
    connect(m_exchange, &UpstreamExchange::bodyData, this, [this](const QByteArray &data) {
        if (m_open)
            consume(data);
        else
            m_buffer += data;   // an error's JSON
    });
    connect(m_exchange, &UpstreamExchange::finished, this, [this] {
        const int status = m_exchange->status();
        const QByteArray body = m_open ? QByteArray() : std::exchange(m_buffer, {});
        close();
        emit ended(status, body, m_open ? u"the agent at %1 ended the stream"_s.arg(m_call.agent.authority())
                                        : QString());
    });
    connect(m_exchange, &UpstreamExchange::failed, this, [this](UpstreamExchange::Failure, const QString &message) {
        const int status = m_exchange->headReceived() ? m_exchange->status() : 0;
        close();
        emit ended(status, {}, u"the agent at %1 did not answer: %2"_s.arg(m_call.agent.authority(), message));
    });
    m_exchange->start();
}

// Server-sent events: blocks end with an empty line; ':' lines are keepalive comments.
void AgentStream::consume(const QByteArray &data)
{
    m_buffer += data;
    m_buffer.replace("\r\n", "\n");
    for (qsizetype end = m_buffer.indexOf("\n\n"); end >= 0 && !m_ended; end = m_buffer.indexOf("\n\n")) {
        const QByteArray block = m_buffer.left(end);
        m_buffer.remove(0, end + 2);
        QByteArray name = "message";
        QByteArray payload;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith("event:"))
                name = line.mid(6).trimmed();
            else if (line.startsWith("data:"))
                payload += (payload.isEmpty() ? QByteArray() : QByteArray("\n")) + line.mid(5).trimmed();
        }
        if (payload.isEmpty() && name == "message")
            continue;
        const QPointer<AgentStream> alive(this);   // a listener may delete the stream
        emit event(name, payload);
        if (!alive)
            return;
    }
}

void AgentStream::close()
{
    m_ended = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

} // namespace switchyard
