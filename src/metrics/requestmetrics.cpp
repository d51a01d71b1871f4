#include "metrics/requestmetrics.h"

#include "journal/clientapp.h"
#include "journal/requestrecord.h"

#include <chrono>

namespace switchyard {

namespace {

double seconds(std::chrono::nanoseconds d)
{
    return std::chrono::duration<double>(d).count();
}

const QList<QByteArray> hostAlias{"host", "alias"};

} // namespace

QString requestKind(const QString &method, const QString &path)
{
    QStringView p = path;
    if (p.startsWith(u"/v1/"))
        p = p.mid(3);
    if (method == u"POST") {
        if (p == u"/chat/completions")
            return QStringLiteral("chat");
        if (p == u"/messages" || p == u"/messages/count_tokens")
            return QStringLiteral("messages");
        if (p == u"/responses")
            return QStringLiteral("responses");
        if (p == u"/completions" || p == u"/completion" || p == u"/infill")
            return QStringLiteral("completions");
        if (p == u"/models/load")
            return QStringLiteral("load");
        if (p == u"/models/unload")
            return QStringLiteral("unload");
    }
    if (method == u"GET" && (p == u"/models" || p.startsWith(u"/models/")))
        return QStringLiteral("models");
    return QStringLiteral("other");
}

QString statusClass(int status)
{
    if (status < 100 || status > 599)
        return QStringLiteral("none");
    return QString::number(status / 100) + QStringLiteral("xx");
}

RequestMetrics::RequestMetrics()
    : m_requests("switchyard_requests_total", "Requests the relay answered.",
                 {"host", "engine", "alias", "kind", "status_class", "client_app", "key"})
    , m_streamedTokens("switchyard_streamed_tokens_total", "Tokens streamed to clients.", hostAlias)
    , m_promptTokens("switchyard_prompt_tokens_total", "Prompt tokens of answered requests (cached ones included).", hostAlias)
    , m_bytesOut("switchyard_response_bytes_total", "Body bytes sent to clients.", hostAlias)
    , m_firstByte("switchyard_request_first_byte_seconds", "Time from a request's arrival to the first byte of its answer.",
                  hostAlias, {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300})
    , m_duration("switchyard_request_duration_seconds", "Time from a request's arrival to the end of its answer.",
                 hostAlias, {0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800})
    , m_tokensPerSecond("switchyard_stream_tokens_per_second", "Generation speed of streamed answers.",
                        hostAlias, {1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000})
    , m_waited("switchyard_request_wait_seconds",
               "Time a request waited before going upstream (a switch, a model load, a queue, a lease).",
               hostAlias, {0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600})
    , m_bytesIn("switchyard_request_bytes_total", "Body bytes received from clients.", hostAlias)
{
}

void RequestMetrics::record(const RequestRecord &r, const QString &alias)
{
    const QStringList where{r.host, alias};
    m_requests.add({r.host, r.engine, alias, requestKind(r.method, r.path), statusClass(r.status),
                    clientAppName(clientAppFromUserAgent(r.userAgent)), r.keyName});
    m_bytesOut.add(where, double(r.bytesOut));
    m_duration.observe(where, seconds(r.duration));
    if (r.timeToFirstByte)
        m_firstByte.observe(where, seconds(*r.timeToFirstByte));
    if (r.streamedTokens)
        m_streamedTokens.add(where, double(*r.streamedTokens));
    if (r.promptTokens)
        m_promptTokens.add(where, double(*r.promptTokens));
    if (r.tokensPerSecond)
        m_tokensPerSecond.observe(where, *r.tokensPerSecond);
    m_bytesIn.add(where, double(r.bytesIn));
    if (!r.host.isEmpty())
        m_waited.observe(where, seconds(r.waited));   // requests that went to no host never wait
}

void RequestMetrics::write(PrometheusText &out) const
{
    m_requests.write(out);
    m_streamedTokens.write(out);
    m_promptTokens.write(out);
    m_bytesOut.write(out);
    m_firstByte.write(out);
    m_duration.write(out);
    m_tokensPerSecond.write(out);
    m_waited.write(out);
    m_bytesIn.write(out);
}

} // namespace switchyard
