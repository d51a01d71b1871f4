#include "fakecompletionjob.h"

#include "fakeerrors.h"
#include "fakehttpconnection.h"
#include "fakehttphead.h"

#include <cmath>

using namespace std::chrono_literals;

namespace switchyard::fake {

namespace {
// At "as fast as possible" tokens still go out in bursts of this many per
// event-loop turn, so a client that leaves is noticed between bursts.
constexpr int kBurst = 64;
} // namespace

const QByteArray FakeCompletionJob::PingFrame = QByteArrayLiteral(":\n\n");

FakeCompletionJob::FakeCompletionJob(FakeHttpConnection *connection, FakeGenerationPlan plan, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_plan(std::move(plan))
{
    m_tickTimer.setSingleShot(true);
    m_tickTimer.setTimerType(Qt::PreciseTimer);
    m_prefillTimer.setSingleShot(true);
    m_prefillTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_tickTimer, &QTimer::timeout, this, &FakeCompletionJob::onTick);
    connect(&m_prefillTimer, &QTimer::timeout, this, &FakeCompletionJob::beginTokens);
    connect(&m_pingTimer, &QTimer::timeout, this, [this] {
        if (m_connection)
            m_connection->sendChunk(PingFrame);
    });
}

FakeCompletionJob::~FakeCompletionJob() = default;

void FakeCompletionJob::start()
{
    if (!m_connection)
        return;
    m_running = true;
    if (m_plan.stream) {
        const QByteArray type = FakeHttpHead::EventStreamType;
        m_connection->startChunked(m_plan.routed ? FakeHttpHead::routed(200, type) : FakeHttpHead::stream(type));
        emit headersSent(200);
    }
    if (m_plan.prefill > 0ms) {
        if (m_plan.stream && m_plan.pingInterval > 0ms)
            m_pingTimer.start(m_plan.pingInterval);
        m_prefillTimer.start(m_plan.prefill);
        return;
    }
    beginTokens();
}

void FakeCompletionJob::stop()
{
    m_running = false;
    m_tickTimer.stop();
    m_prefillTimer.stop();
    m_pingTimer.stop();
}

void FakeCompletionJob::abort()
{
    const bool wasRunning = m_running;
    stop();
    if (wasRunning && m_connection)
        m_connection->drop();
}

void FakeCompletionJob::beginTokens()
{
    m_pingTimer.stop();
    m_clock.start();
    scheduleNext();
}

double FakeCompletionJob::dueMs(int index) const
{
    return m_plan.tokensPerSecond > 0 ? (index + 1) * 1000.0 / m_plan.tokensPerSecond : 0.0;
}

void FakeCompletionJob::scheduleNext()
{
    if (!m_running)
        return;
    if (m_sent >= m_plan.completionTokens) {
        if (m_plan.failure && m_plan.failure->afterEvents >= m_sent)
            failNow();
        else
            complete();
        return;
    }
    const double elapsed = m_clock.nsecsElapsed() / 1e6;
    const double wait = dueMs(m_sent) - elapsed;
    m_tickTimer.start(wait > 0 ? int(std::ceil(wait)) : 0);
}

void FakeCompletionJob::onTick()
{
    const double elapsed = m_clock.nsecsElapsed() / 1e6;
    int burst = 0;
    while (m_running && m_sent < m_plan.completionTokens && dueMs(m_sent) <= elapsed + 0.05 && burst < kBurst) {
        if (m_plan.failure && m_plan.failure->afterEvents == m_sent) {
            failNow();
            return;
        }
        emitToken();
        ++burst;
    }
    scheduleNext();
}

void FakeCompletionJob::emitToken()
{
    if (m_plan.stream && m_connection) {
        QByteArray payload;
        if (m_sent == 0)
            payload = m_plan.format.opening(m_plan.promptTokens);
        payload += m_plan.format.token(m_sent, m_plan.promptTokens);
        m_connection->sendChunk(payload);
    }
    ++m_sent;
    emit tokenSent(m_sent);
}

FakeGenerationStats FakeCompletionJob::stats() const
{
    FakeGenerationStats s;
    s.promptTokens = m_plan.promptTokens;
    s.cachedTokens = m_plan.cachedTokens;
    s.completionTokens = m_sent;
    s.hitLimit = m_plan.hitLimit;
    // Nominal numbers, so a test can check them against the configured rate;
    // microsecond resolution like llama.cpp's.
    auto micros = [](double ms) { return std::round(ms * 1000.0) / 1000.0; };
    s.promptMs = micros(m_plan.prefill > 0ms ? double(m_plan.prefill.count())
                                             : (m_plan.promptTokens - m_plan.cachedTokens) * 0.1);
    s.predictedMs = micros(m_plan.tokensPerSecond > 0 ? m_sent * 1000.0 / m_plan.tokensPerSecond
                                                      : m_clock.nsecsElapsed() / 1e6);
    return s;
}

QByteArray FakeCompletionJob::jsonHead(int status) const
{
    return m_plan.routed ? FakeHttpHead::routed(status, FakeHttpHead::JsonType) : QByteArray();
}

void FakeCompletionJob::complete()
{
    stop();
    if (!m_connection)
        return;
    const FakeGenerationStats s = stats();
    const auto after = m_plan.keepAlive ? FakeHttpConnection::After::KeepAlive : FakeHttpConnection::After::Close;
    if (m_plan.stream) {
        QByteArray closing;
        if (m_sent == 0)
            closing = m_plan.format.opening(m_plan.promptTokens);
        closing += m_plan.format.closing(s);
        m_connection->sendChunk(closing);
        m_connection->sendChunk(m_plan.format.done());
        m_connection->finishChunked(after);
    } else {
        emit headersSent(200);
        const QByteArray body = m_plan.format.body(s);
        if (m_plan.routed) {
            m_connection->sendChunkedResponse(jsonHead(200), body, after);
        } else {
            const auto connection =
                m_plan.keepAlive ? FakeHttpHead::Connection::KeepAlive : FakeHttpHead::Connection::Close;
            m_connection->sendResponse(FakeHttpHead::fixed(200, FakeHttpHead::JsonType, body.size(), connection),
                                       body, after);
        }
    }
    emit finished();
}

void FakeCompletionJob::failNow()
{
    stop();
    if (!m_connection)
        return;
    const FakeFailure failure = *m_plan.failure;
    if (failure.mode == FakeFailure::Mode::ErrorMidStream) {
        const QString message = QStringLiteral("fake: generation failed");
        if (m_plan.stream) {
            m_connection->sendChunk(m_plan.format.streamError(500, message, "server_error"));
            m_connection->finishChunked(FakeHttpConnection::After::Close);
        } else {
            emit headersSent(500);
            const QByteArray body = fakeerrors::serverError(message);
            if (m_plan.routed)
                m_connection->sendChunkedResponse(FakeHttpHead::routedError(500), body,
                                                  FakeHttpConnection::After::Close);
            else
                m_connection->sendResponse(FakeHttpHead::fixed(500, FakeHttpHead::JsonType, body.size(),
                                                               FakeHttpHead::Connection::Close),
                                           body, FakeHttpConnection::After::Close);
        }
    } else {
        m_connection->drop();
    }
    emit finished();
}

} // namespace switchyard::fake
