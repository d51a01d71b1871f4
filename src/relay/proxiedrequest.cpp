#include "relay/proxiedrequest.h"

#include "http/responsewriter.h"

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
constexpr qsizetype MaxInspectedBody = 1024 * 1024;
}

ProxiedRequest::ProxiedRequest(UpstreamPool *pool, UpstreamExchange::Request request, ApiShape shape,
                               ResponseWriter *writer, QObject *parent)
    : QObject(parent)
    , m_exchange(new UpstreamExchange(pool, std::move(request), this))
    , m_writer(writer)
    , m_shape(shape)
{
    connect(m_exchange, &UpstreamExchange::responseHead, this, &ProxiedRequest::onResponseHead);
    connect(m_exchange, &UpstreamExchange::bodyData, this, &ProxiedRequest::onBodyData);
    connect(m_exchange, &UpstreamExchange::finished, this, &ProxiedRequest::onFinished);
    connect(m_exchange, &UpstreamExchange::failed, this, &ProxiedRequest::onFailed);
    connect(writer, &ResponseWriter::clientDisconnected, this, &ProxiedRequest::onClientLeft);
    connect(writer, &ResponseWriter::drained, this, [this] { m_exchange->setPaused(false); });
}

ProxiedRequest::~ProxiedRequest() = default;

void ProxiedRequest::start()
{
    m_exchange->start();
}

void ProxiedRequest::onResponseHead()
{
    const int status = m_exchange->status();
    m_outcome.status = status;
    if (m_onHead)
        m_onHead(status);
    if (!m_writer)
        return;
    const HeaderList &upstream = m_exchange->headers();
    const QByteArray contentType = HttpHeaders::value(upstream, "content-type");
    m_eventStream = contentType.startsWith("text/event-stream");
    const bool chunked = HttpHeaders::hasToken(HttpHeaders::value(upstream, "transfer-encoding"), "chunked");
    qint64 length = -1;
    if (!chunked) {
        bool ok = false;
        const qint64 l = HttpHeaders::value(upstream, "content-length").toLongLong(&ok);
        if (ok)
            length = l;
    }
    m_buffering = !m_eventStream && contentType.contains("json");
    m_writer->writeHead(status, HttpHeaders::forwardable(upstream), length);
}

void ProxiedRequest::onBodyData(const QByteArray &data)
{
    if (!m_writer)
        return;
    if (m_firstByte == std::chrono::steady_clock::time_point())
        m_firstByte = std::chrono::steady_clock::now();
    m_writer->writeBody(data);
    if (m_eventStream) {
        m_stats.feed(data);
    } else if (m_buffering) {
        if (m_buffered.size() + data.size() <= MaxInspectedBody)
            m_buffered += data;
        else
            m_buffering = false;
    }
    if (m_writer && m_writer->congested())
        m_exchange->setPaused(true);
}

void ProxiedRequest::onFinished()
{
    if (m_buffering)
        m_stats.feedWholeBody(m_buffered);
    m_buffered.clear();
    if (m_writer)
        m_writer->finish();
    conclude();
}

void ProxiedRequest::onFailed(UpstreamExchange::Failure failure, const QString &message)
{
    Q_UNUSED(failure);
    m_outcome.relayError = message;
    if (m_writer && !m_writer->headWritten()) {
        // Nothing has reached the client yet: say what happened, as the relay's own 502.
        m_outcome.status = 502;
        const QString text = u"upstream failed before answering: %1"_s.arg(message);
        m_writer->respond(502, ErrorReply::headers(), ErrorReply::body(m_shape, 502, text));
    } else if (m_writer && m_eventStream) {
        // The stream already started: end it with an error event the client's parser reads.
        m_writer->writeBody(ErrorReply::sseEvent(m_shape, 502, u"upstream stream broke off: %1"_s.arg(message)));
        m_writer->finish();
    } else if (m_writer) {
        m_writer->abort();
    }
    conclude();
}

void ProxiedRequest::onClientLeft()
{
    m_exchange->abort();
    m_outcome.clientLeft = true;
    if (m_outcome.relayError.isEmpty())
        m_outcome.relayError = u"client closed the connection"_s;
    conclude();
}

void ProxiedRequest::conclude()
{
    if (m_concluded)
        return;
    m_concluded = true;
    m_outcome.tokens = m_stats.tokens();
    const auto sinceFirst = m_firstByte == std::chrono::steady_clock::time_point()
        ? std::chrono::nanoseconds(0)
        : std::chrono::steady_clock::now() - m_firstByte;
    m_outcome.tokensPerSecond = m_stats.tokensPerSecond(sinceFirst);
    emit done(m_outcome);
    deleteLater();
}

} // namespace switchyard
