#include "relay/proxiedrequest.h"

#include "http/responsewriter.h"
#include "common/basictimer.h"
#include "replies/clientreplies.h"
#include "relay/errorrewrite.h"
#include "relay/proxiedrequestlistener.h"
#include "relay/relaylogging.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QTimerEvent>

#include <utility>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
constexpr qsizetype MaxInspectedBody = 1024 * 1024;
}

using Event = RequestLifecycle::Event;
using State = RequestLifecycle::State;

ProxiedRequest::ProxiedRequest(UpstreamPool *pool, UpstreamExchange::Request request, ApiShape shape,
                               ResponseWriter *writer, Waiting waiting, ProxiedRequestListener *listener,
                               QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_request(std::move(request))
    , m_listener(listener)
    , m_writer(writer)
    , m_shape(shape)
    , m_waiting(std::move(waiting))
{
    connect(writer, &ResponseWriter::clientDisconnected, this, &ProxiedRequest::onClientLeft);
    connect(writer, &ResponseWriter::drained, this, [this] {
        if (m_exchange)
            m_exchange->setPaused(false);
    });
}

void ProxiedRequest::startExchange()
{
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->deleteLater();
    }
    m_exchange = new UpstreamExchange(m_pool, m_request, this);
    connect(m_exchange, &UpstreamExchange::responseHead, this, &ProxiedRequest::onResponseHead);
    connect(m_exchange, &UpstreamExchange::bodyData, this, &ProxiedRequest::onBodyData);
    connect(m_exchange, &UpstreamExchange::finished, this, &ProxiedRequest::onFinished);
    connect(m_exchange, &UpstreamExchange::failed, this, &ProxiedRequest::onFailed);
    m_exchange->start();
}

ProxiedRequest::~ProxiedRequest() = default;

void ProxiedRequest::retarget(UpstreamExchange::Request request)
{
    if (!move(Event::Retarget))
        return;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
    m_request = std::move(request);
}

bool ProxiedRequest::move(Event event)
{
    const State from = m_lifecycle.state();
    if (m_lifecycle.apply(event))
        return true;
    qCWarning(lcRelay).noquote() << "request" << m_request.method << m_request.target << "to"
                                 << m_request.base.toString() << ": no move" << RequestLifecycle::eventName(event)
                                 << "from" << RequestLifecycle::stateName(from) << "(a bug; the request stays there)";
    return false;
}

void ProxiedRequest::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_waitTimer.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    m_waitTimer.stop();
    if (RequestLifecycle::early200Out(m_lifecycle.state()))
        sendWaitingComment();
    else
        sendEarly200();
}

void ProxiedRequest::start()
{
    begin();   // the request's bytes first, the clock after
    waiting();
}

void ProxiedRequest::waiting()
{
    if (m_lifecycle.concluded())
        return;
    if (m_waiting.clientStreams && m_waiting.early200After.count() > 0 && !m_waitTimer.isActive())
        startBasicTimer(m_waitTimer, m_waiting.early200After, this);
}

void ProxiedRequest::begin()
{
    if (m_lifecycle.concluded())
        return;   // the client left, or a refusal came first, while the host decided
    const State from = m_lifecycle.state();
    if (m_localStatus) {
        if (!move(Event::Answer))
            return;
        m_waitTimer.stop();
        m_outcome.status = m_localStatus;
        if (m_writer) {
            if (RequestLifecycle::early200Out(from))
                m_writer->finish();
            else
                m_writer->respond(m_localStatus, {{"Content-Type", "application/json; charset=utf-8"}}, m_localAnswer);
        }
        conclude();
        return;
    }
    if (!move(Event::Begin))
        return;
    startExchange();
    // Rerouting is a failover's second admission: the request was sent before.
    if (from == State::Admitting || from == State::AdmittingEarly200)
        m_listener->requestSent(this);
}

void ProxiedRequest::refuse(const ClientReply &reply)
{
    if (m_lifecycle.concluded())
        return;   // the client left while its host decided
    const State from = m_lifecycle.state();
    if (!move(Event::Answer))
        return;
    m_waitTimer.stop();
    m_outcome.relayError = reply.message;
    m_outcome.relayFacts = reply.facts;
    answer(reply, from);
    conclude();
}

void ProxiedRequest::setReplyForm(ClientReplies::ReplyForm form)
{
    m_replyForm = form;
    if (form == ClientReplies::ReplyForm::ClaudeCode && m_shape == ApiShape::Anthropic)
        m_messagesClose.emplace();
}

QByteArray ProxiedRequest::beforeErrorEvent(const QString &message)
{
    return m_messagesClose ? m_messagesClose->beforeError(message) : QByteArray();
}

void ProxiedRequest::answer(const ClientReply &reply, State from)
{
    if (m_writer && RequestLifecycle::early200Out(from)) {
        m_writer->writeBody(beforeErrorEvent(reply.message) + reply.sseEvent(m_shape));
        m_writer->finish();
    } else if (m_writer) {
        const ClientReply sent = ClientReplies::inForm(reply, m_replyForm);
        m_outcome.status = sent.httpStatus();
        m_writer->respond(sent.httpStatus(), sent.headers(), sent.body(m_shape));
    }
}

void ProxiedRequest::sendEarly200()
{
    if (!m_writer || m_writer->headWritten())
        return;
    if (!move(Event::Early200))
        return;
    m_outcome.status = 200;
    m_writer->writeHead(200, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"},
                              {"X-Accel-Buffering", "no"}});
    sendWaitingComment();
}

void ProxiedRequest::sendWaitingComment()
{
    if (!m_writer)
        return;
    const QString what = m_listener->requestWaitingFor(this);
    m_writer->writeBody(ClientReplies::waitingComment(what.isEmpty() ? ClientReplies::waitingForUpstream() : what));
    startBasicTimer(m_waitTimer, m_waiting.commentEvery, this);
}

QString ProxiedRequest::upstreamErrorMessage() const
{
    const QJsonObject o = QJsonDocument::fromJson(m_buffered).object();
    const QJsonValue error = o.value("error"_L1);
    if (error.isObject() && error.toObject().value("message"_L1).isString())
        return error.toObject().value("message"_L1).toString();
    if (error.isString())
        return error.toString();
    const QString text = QString::fromUtf8(m_buffered.left(500)).trimmed();
    return text.isEmpty() ? u"upstream answered %1"_s.arg(m_exchange->status()) : text;
}

void ProxiedRequest::onResponseHead()
{
    m_waitTimer.stop();
    const int status = m_exchange->status();
    m_listener->requestAnswering(this, status);
    const HeaderList &upstream = m_exchange->headers();
    const QByteArray contentType = HttpHeaders::value(upstream, "content-type");
    m_eventStream = contentType.startsWith("text/event-stream");
    if (RequestLifecycle::early200Out(m_lifecycle.state())) {
        // Our 200 is already out: pass the stream on, or turn a refusal into an error event.
        if (status >= 400 || !m_eventStream) {
            if (!move(Event::HoldAfterEarly200))
                return;
            m_outcome.relayError = u"upstream answered %1 after the early 200"_s.arg(status);
        } else if (!move(Event::ContinueStream)) {
            return;
        }
        m_eventStream = true;
        return;
    }
    if ((status >= 500 && status != 503) || (contentType.contains("json") && m_shape == ApiShape::Anthropic && status >= 400)) {
        // Hold the answer: it may need rewriting into words Claude Code acts on, or be a failed
        // load that no retry will fix.
        if (move(Event::HoldHead))
            m_outcome.status = status;
        return;
    }
    const bool chunked = HttpHeaders::hasToken(HttpHeaders::value(upstream, "transfer-encoding"), "chunked");
    qint64 length = -1;
    if (!chunked) {
        bool ok = false;
        const qint64 l = HttpHeaders::value(upstream, "content-length").toLongLong(&ok);
        if (ok)
            length = l;
    }
    // Small JSON answers are inspected whole for their usage.
    if (!move(!m_eventStream && contentType.contains("json") ? Event::InspectHead : Event::PassHead))
        return;
    m_outcome.status = status;
    // A stream of known length goes on byte for byte: a rewrite would change its length.
    m_rewriteStreamErrors = m_eventStream && m_shape != ApiShape::Anthropic && length < 0;
    m_streamErrors = StreamErrorRewrite(m_shape);
    m_closeMessagesStream = m_messagesClose && m_eventStream && length < 0;
    // The first body bytes of this read follow at once (onBodyData): one write() for both. A
    // stream's head that came alone waits a moment for its first event, as nginx's
    // postpone_output holds a lone header: the client wakes once, for both.
    ResponseWriter::Flush flush = ResponseWriter::Flush::Now;
    if (m_exchange->bodyInThisRead())
        flush = ResponseWriter::Flush::WithNext;
    else if (m_eventStream)
        flush = ResponseWriter::Flush::Hold;
    if (m_writer)
        m_writer->writeHead(status, HttpHeaders::forwardable(upstream), length, flush);
}

void ProxiedRequest::onBodyData(const QByteArray &data)
{
    if (!m_writer)
        return;
    const State state = m_lifecycle.state();
    if (state == State::ErrorAfterEarly200 || state == State::HoldingError) {
        if (m_buffered.size() < MaxInspectedBody)
            m_buffered += data;
        return;
    }
    if (m_firstByte == std::chrono::steady_clock::time_point())
        m_firstByte = std::chrono::steady_clock::now();
    // When this read ended the response, onFinished follows at once: its terminator leaves in
    // the same write().
    const QByteArray out = m_rewriteStreamErrors ? m_streamErrors.feed(data) : data;
    m_writer->writeBody(m_closeMessagesStream ? m_messagesClose->feed(out) : out,
                        m_exchange->responseComplete() ? ResponseWriter::Flush::WithNext : ResponseWriter::Flush::Now);
    if (m_eventStream && m_exchange->responseComplete()) {
        m_lastEvents = data;   // counted once the client has them (onFinished)
    } else if (m_eventStream) {
        m_stats.feed(data);
        countEvents(data);
    } else if (state == State::Inspecting) {
        if (m_buffered.size() + data.size() <= MaxInspectedBody)
            m_buffered += data;
        else
            move(Event::StopInspecting);
    }
    if (m_writer && m_writer->congested())
        m_exchange->setPaused(true);
}

void ProxiedRequest::countEvents(const QByteArray &data)
{
    // About one event per token: a count that rises while it streams (the exact one comes at
    // the end, from the stream's usage). Reported a few times a second, not per event.
    m_events += QByteArrayView(data).count("data:");
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastTokenReport < TokenReportInterval)
        return;
    m_lastTokenReport = now;
    m_listener->requestStreamed(this, m_events);
}

void ProxiedRequest::onFinished()
{
    const State from = m_lifecycle.state();
    if (!move(Event::Answer))
        return;
    if (from == State::HoldingError) {
        const int status = m_exchange->status();
        if (m_writer && status >= 500 && upstreamErrorMessage().contains("failed to load"_L1)) {
            // The relay's 424 with the engine's reason stops the retries (DESIGN's error policy).
            m_outcome.relayError = u"rewrote upstream %1: %2"_s.arg(status).arg(upstreamErrorMessage());
            answer(ClientReplies::engineCouldNotLoad(upstreamErrorMessage()), from);
        } else if (m_writer) {
            const auto rewritten = m_shape == ApiShape::Anthropic ? ErrorRewrite::forAnthropic(status, m_buffered)
                                                                  : std::nullopt;
            if (status >= 500 && !rewritten) {
                // Every client retries a 5xx, and the same request meets the same engine. A 503
                // (a plain llama-server still loading its model) is passed on: a retry helps there.
                m_outcome.relayError = u"rewrote upstream %1: %2"_s.arg(status).arg(upstreamErrorMessage());
                answer(ClientReplies::engineFailed(upstreamErrorMessage()), from);
            } else if (rewritten) {
                m_outcome.status = rewritten->status;
                m_outcome.relayError = u"rewrote upstream %1: %2"_s.arg(status).arg(upstreamErrorMessage());
                m_writer->respond(rewritten->status, ErrorReply::headers(), rewritten->body);
            } else if (m_replyForm == ClientReplies::ReplyForm::ClaudeCode && (status == 400 || status == 422)) {
                // Claude Code sends a 400 it has no handler for five more times (forClaudeCode).
                m_outcome.relayError = u"rewrote upstream %1: %2"_s.arg(status).arg(upstreamErrorMessage());
                answer(ClientReplies::engineRefusedRequest(status, upstreamErrorMessage()), from);
            } else {
                HeaderList headers = HttpHeaders::forwardable(m_exchange->headers());
                m_writer->respond(status, headers, m_buffered);
            }
        }
        m_buffered.clear();
        conclude();
        return;
    }
    if (from == State::ErrorAfterEarly200) {
        if (m_writer) {
            m_writer->writeBody(beforeErrorEvent(upstreamErrorMessage())
                                + ErrorReply::sseEvent(m_shape, m_exchange->status(), upstreamErrorMessage()));
            m_writer->finish();
        }
        m_buffered.clear();
        conclude();
        return;
    }
    // The client's bytes first; counting the tokens can wait.
    if (m_writer) {
        QByteArray rest = m_streamErrors.flush();
        if (m_closeMessagesStream)
            rest = m_messagesClose->feed(rest) + m_messagesClose->flush();
        m_writer->writeBody(rest, ResponseWriter::Flush::WithNext);
        m_writer->finish();
    }
    if (m_streamErrors.rewrote() && m_outcome.relayError.isEmpty())
        m_outcome.relayError = u"the engine's error event went out as a 424"_s;
    if (from == State::Inspecting)
        m_stats.feedWholeBody(m_buffered);
    m_buffered.clear();
    m_stats.feed(m_lastEvents);
    m_lastEvents.clear();
    conclude();
}

void ProxiedRequest::onFailed(UpstreamExchange::Failure failure, const QString &message)
{
    const bool nothingSent = m_writer && !m_writer->headWritten();
    const bool neverAnswered = failure == UpstreamExchange::Failure::Refused || failure == UpstreamExchange::Failure::Dropped;
    const bool unreachable = neverAnswered || failure == UpstreamExchange::Failure::ConnectTimeout
        || failure == UpstreamExchange::Failure::HostNotFound;
    // With replicas, the next one answers instead: the client has seen nothing of this one (at
    // most the relay's own early 200 and comments), so it gets one normal answer. The lifecycle
    // allows a retarget only while no upstream has answered.
    if (unreachable && m_writer && m_lifecycle.allows(Event::Retarget) && m_listener->requestFailover(this, message))
        return;
    if (nothingSent && neverAnswered && m_lifecycle.allows(Event::Retry)) {
        // Recover once while the client has seen nothing: an engine restarting or a connection
        // the upstream dropped on its side deserve one more try before a 502.
        move(Event::Retry);
        QTimer::singleShot(RetryDelay, this, [this] {
            // Still waiting for that answer (the early 200 may have gone out meanwhile).
            const State state = m_lifecycle.state();
            if (m_writer && (state == State::UpstreamRetried || state == State::UpstreamEarly200))
                startExchange();
        });
        return;
    }
    const State from = m_lifecycle.state();
    if (!move(Event::Answer))
        return;
    m_waitTimer.stop();
    m_outcome.relayError = message;
    if (RequestLifecycle::early200Out(from))
        m_eventStream = true;
    if (unreachable && m_writer && (!m_writer->headWritten() || RequestLifecycle::early200Out(from))) {
        // The host is down: the relay's 424, which no client retries (DESIGN: no 5xx for a
        // host that is down), or its error event when our early 200 is already out.
        const ClientReply reply{424, m_listener->requestUnreachable(this, message), {}};
        m_outcome.relayError = reply.message;
        answer(reply, from);
    } else if (m_writer && !m_writer->headWritten() && failure == UpstreamExchange::Failure::Inactivity) {
        answer(ClientReplies::upstreamSilent(message), from);
    } else if (m_writer && !m_writer->headWritten()) {
        answer(ClientReplies::upstreamFailedBeforeAnswering(message), from);
    } else if (m_writer && m_eventStream) {
        // The stream already started: end it with an error event the client's parser reads.
        const ClientReply brokeOff = ClientReplies::streamBrokeOff(message);
        m_writer->writeBody(beforeErrorEvent(brokeOff.message) + brokeOff.sseEvent(m_shape));
        m_writer->finish();
    } else if (m_writer) {
        m_writer->abort();
    }
    conclude();
}

void ProxiedRequest::onClientLeft()
{
    if (m_lifecycle.concluded())
        return;   // answered already: the connection closing after it is no news
    if (!move(Event::ClientLeft))
        return;
    m_waitTimer.stop();
    if (m_exchange)
        m_exchange->abort();
    m_outcome.clientLeft = true;
    if (m_outcome.relayError.isEmpty())
        m_outcome.relayError = u"client closed the connection"_s;
    conclude();
}

void ProxiedRequest::conclude()
{
    m_outcome.tokens = m_stats.tokens();
    m_outcome.promptTokens = m_stats.promptTokens();
    const auto sinceFirst = m_firstByte == std::chrono::steady_clock::time_point()
        ? std::chrono::nanoseconds(0)
        : std::chrono::steady_clock::now() - m_firstByte;
    m_outcome.tokensPerSecond = m_stats.tokensPerSecond(sinceFirst);
    m_outcome.refusedMoves = m_lifecycle.refusedMoves();
    m_ticket.release();
    m_listener->requestConcluded(this, m_outcome);
    deleteLater();
}

} // namespace switchyard
