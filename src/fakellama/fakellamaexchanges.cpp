// FakeLlamaServer, continued: what happens to a request for a model (waiting for its load,
// dispatch, generation) and how every answer is sent and logged. The routes and the router's
// own endpoints are in fakellamaserver.cpp; the class is split in two files so each stays short.
#include "fakellamaserver.h"

#include "fakecompletionjob.h"
#include "fakeerrors.h"
#include "fakehttpconnection.h"
#include "fakehttphead.h"
#include "fakehttprequest.h"
#include "fakejsonsyntax.h"
#include "fakelogging.h"
#include "fakemodelregistry.h"
#include "fakemodelsjson.h"
#include "fakerequestlog.h"
#include "fakeslots.h"

#include "common/jsonwriter.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace switchyard::fake {

namespace {

using After = FakeHttpConnection::After;

} // namespace

// ---- requests for a model ------------------------------------------------------

void FakeLlamaServer::handleModelRequest(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request,
                                         Route route, std::optional<FakeApi> api,
                                         std::optional<FakeFailure> failure)
{
    Exchange exchange;
    exchange.seq = seq;
    exchange.connection = connection;
    exchange.route = route;
    exchange.wantsClose = request.wantsClose();
    exchange.failure = failure;

    if (route == Route::Inference) {
        // llama-server's JSON parser refuses the body with a 500; valid JSON that is no object
        // names no model.
        if (const std::optional<QString> syntax = jsonSyntaxError(request.body)) {
            answerError(seq, connection, 500, fakeerrors::serverError(*syntax));
            return;
        }
        exchange.inference = FakeInferenceRequest::parse(*api, QJsonDocument::fromJson(request.body).object());
        exchange.model = exchange.inference.model;
    } else if (route == Route::Slots && request.method == "POST") {
        // The router forwards POST /slots/{id} by the body's "model", like an inference.
        if (const std::optional<QString> syntax = jsonSyntaxError(request.body)) {
            answerError(seq, connection, 500, fakeerrors::serverError(*syntax));
            return;
        }
        exchange.model = QJsonDocument::fromJson(request.body).object().value(u"model"_s).toString();
        exchange.slotId = QString::fromUtf8(request.path.mid(int(qstrlen("/slots/"))));
        exchange.slotAction = request.queryItem(u"action"_s);
        exchange.body = request.body;
    } else {
        exchange.model = request.queryItem(u"model"_s);
    }

    if (m_options.singleModel) {
        // A plain llama-server serves whatever "model" says.
        exchange.model = m_options.models.constFirst();
        m_exchanges.insert(seq, exchange);
        dispatch(seq);
        return;
    }

    if (exchange.model.isEmpty()) {
        answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model name is missing from the request"_s));
        return;
    }
    const FakeModelState *state = m_registry->model(exchange.model);
    if (!state) {
        answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model '%1' not found"_s.arg(exchange.model)));
        return;
    }

    const bool autoload = request.hasQueryItem(u"autoload"_s)
        ? request.queryItem(u"autoload"_s) != u"false" && request.queryItem(u"autoload"_s) != u"0"
        : m_options.autoload;

    switch (state->status) {
    case FakeModelStatus::Loaded:
        m_exchanges.insert(seq, exchange);
        dispatch(seq);
        return;
    case FakeModelStatus::Sleeping:
        m_exchanges.insert(seq, exchange);
        if (route == Route::Props) {
            dispatch(seq); // props of a sleeping model do not wake it (transcript 58)
            return;
        }
        m_exchanges[seq].waiting = true;
        m_registry->wake(exchange.model);
        return;
    case FakeModelStatus::Loading:
        exchange.waiting = true;
        m_exchanges.insert(seq, exchange);
        return;
    case FakeModelStatus::Unloaded:
        if (!autoload) {
            answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model is not loaded"_s));
            return;
        }
        if (m_registry->load(exchange.model) == FakeModelRegistry::LoadResult::LimitReached) {
            answerError(seq, connection, 500, fakeerrors::serverError(u"model limit reached, try again later"_s));
            return;
        }
        // The router now holds the request in silence until the model is up.
        exchange.waiting = true;
        m_exchanges.insert(seq, exchange);
        return;
    }
}

void FakeLlamaServer::onModelReady(const QString &model)
{
    const QList<qint64> seqs = m_exchanges.keys();
    for (const qint64 seq : seqs) {
        const auto it = m_exchanges.constFind(seq);
        if (it != m_exchanges.cend() && it->waiting && it->model == model) {
            m_exchanges[seq].waiting = false;
            dispatch(seq);
        }
    }
}

void FakeLlamaServer::onModelLoadFailed(const QString &model)
{
    const QList<qint64> seqs = m_exchanges.keys();
    for (const qint64 seq : seqs) {
        const auto it = m_exchanges.constFind(seq);
        if (it == m_exchanges.cend() || !it->waiting || it->model != model)
            continue;
        const QPointer<FakeHttpConnection> connection = it->connection;
        m_exchanges.remove(seq);
        if (connection)
            answerError(seq, connection, 500, fakeerrors::serverError(u"model name=%1 failed to load"_s.arg(model)));
    }
}

void FakeLlamaServer::onModelStopped(const QString &model)
{
    m_slots->clear(model);
    // Its child server is gone: the router's proxied answers are cut short.
    const QList<qint64> seqs = m_exchanges.keys();
    for (const qint64 seq : seqs) {
        const auto it = m_exchanges.constFind(seq);
        if (it == m_exchanges.cend() || it->model != model || !it->job)
            continue;
        const QPointer<FakeCompletionJob> job = it->job;
        m_exchanges.remove(seq);
        job->abort();
        markFinished(seq);
    }
}

void FakeLlamaServer::dispatch(qint64 seq)
{
    const auto it = m_exchanges.find(seq);
    if (it == m_exchanges.end())
        return;
    if (!it->connection || !it->connection->isAnswering()) {
        m_exchanges.erase(it);
        return;
    }
    const Exchange exchange = *it;
    FakeHttpConnection *connection = exchange.connection;
    const FakeModelState *state = m_registry->model(exchange.model);
    m_registry->markUsed(exchange.model);

    if (exchange.route == Route::Slots) {
        answerSlots(exchange);
        return;
    }
    if (exchange.route == Route::Props) {
        m_exchanges.remove(seq);
        answerRouted(seq, connection, exchange.wantsClose, fakemodelsjson::childProps(*state));
        return;
    }

    const FakeInferenceRequest &inference = exchange.inference;
    if (inference.api == FakeApi::CountTokens) {
        m_exchanges.remove(seq);
        FakeGenerationStats stats;
        stats.promptTokens = inference.promptTokens;
        answerRouted(seq, connection, exchange.wantsClose,
                     FakeCompletionFormat(FakeApi::CountTokens, exchange.model, false).body(stats));
        return;
    }
    if (m_options.rejectLateSystem && inference.lateSystemMessage) {
        m_exchanges.remove(seq);
        answerChildError(seq, connection, 500,
                         fakeerrors::serverError(u"Jinja Exception: System message must be at the beginning."_s));
        return;
    }
    if (inference.promptTokens > state->contextSize) {
        m_exchanges.remove(seq);
        JsonWriter json;
        json.beginObject().key("error").beginObject();
        json.key("code").integer(400);
        json.key("message").string(
            u"request (%1 tokens) exceeds the available context size (%2 tokens), try increasing it"_s
                .arg(inference.promptTokens)
                .arg(state->contextSize));
        json.key("type").string("exceed_context_size_error");
        json.key("n_prompt_tokens").integer(inference.promptTokens).key("n_ctx").integer(state->contextSize);
        json.endObject().endObject();
        answerChildError(seq, connection, 400, json.take());
        return;
    }
    startGeneration(*it);
}

void FakeLlamaServer::startGeneration(Exchange &exchange)
{
    const FakeInferenceRequest &inference = exchange.inference;
    const FakeModelState *state = m_registry->model(exchange.model);
    const qint64 seq = exchange.seq;

    int tokens = inference.maxTokens >= 0 ? inference.maxTokens : m_options.defaultMaxTokens;
    bool hitLimit = inference.maxTokens >= 0;
    if (m_options.maxReplyTokens > 0 && tokens > m_options.maxReplyTokens) {
        tokens = m_options.maxReplyTokens;
        hitLimit = false;
    }
    const int room = qMax(0, state->contextSize - inference.promptTokens);
    if (tokens > room) {
        tokens = room; // the generation runs into the end of the context (transcript 55)
        hitLimit = true;
    }

    const FakeSlots::Taken slot = m_slots->take(exchange.model, inference);
    exchange.slot = slot.slot;

    FakeGenerationPlan plan;
    plan.cachedTokens = slot.cachedTokens;
    plan.format = FakeCompletionFormat(inference.api, exchange.model, inference.includeUsage);
    plan.stream = inference.stream;
    plan.promptTokens = inference.promptTokens;
    plan.completionTokens = tokens;
    plan.hitLimit = hitLimit;
    plan.tokensPerSecond = m_options.tokensPerSecond;
    plan.prefill = m_options.prefillDelay;
    plan.pingInterval = m_options.pingInterval;
    plan.routed = !m_options.singleModel;
    plan.keepAlive = m_options.singleModel && !exchange.wantsClose;
    plan.failure = exchange.failure;

    auto *job = new FakeCompletionJob(exchange.connection, plan, exchange.connection);
    exchange.job = job;
    connect(job, &FakeCompletionJob::headersSent, this, [this, seq](int status) { markStatus(seq, status); });
    connect(job, &FakeCompletionJob::tokenSent, this, [this, seq](int total) {
        if (ReceivedRequest *record = m_log->find(seq))
            record->tokensSent = total;
    });
    connect(job, &FakeCompletionJob::finished, this, [this, seq, model = exchange.model, slot = slot.slot] {
        const ReceivedRequest *record = m_log->find(seq);
        m_slots->finish(model, slot, record ? record->tokensSent : 0);
        m_exchanges.remove(seq);
        markFinished(seq);
    });
    job->start(); // may finish at once; `exchange` must not be used after this
}

// ---- answers -------------------------------------------------------------------

void FakeLlamaServer::answerOwn(qint64 seq, FakeHttpConnection *connection, bool wantsClose, int status,
                                const QByteArray &body, const QByteArray &contentType)
{
    // cpp-httplib closes after an error, and after a request that asked to.
    const bool keep = status < 400 && !wantsClose;
    connection->sendResponse(
        FakeHttpHead::fixed(status, contentType, body.size(),
                            keep ? FakeHttpHead::Connection::KeepAlive : FakeHttpHead::Connection::Close),
        body, keep ? After::KeepAlive : After::Close);
    markStatus(seq, status);
    markFinished(seq);
}

void FakeLlamaServer::answerError(qint64 seq, FakeHttpConnection *connection, int status, const QByteArray &body)
{
    answerOwn(seq, connection, true, status, body, FakeHttpHead::JsonType);
}

void FakeLlamaServer::answerRouted(qint64 seq, FakeHttpConnection *connection, bool wantsClose,
                                   const QByteArray &body)
{
    if (m_options.singleModel) {
        answerOwn(seq, connection, wantsClose, 200, body, FakeHttpHead::JsonType);
        return;
    }
    connection->sendChunkedResponse(FakeHttpHead::routed(200, FakeHttpHead::JsonType), body, After::Close);
    markStatus(seq, 200);
    markFinished(seq);
}

void FakeLlamaServer::answerChildError(qint64 seq, FakeHttpConnection *connection, int status,
                                       const QByteArray &body)
{
    if (m_options.singleModel) {
        answerError(seq, connection, status, body);
        return;
    }
    connection->sendChunkedResponse(FakeHttpHead::routedError(status), body, After::Close);
    markStatus(seq, status);
    markFinished(seq);
}

void FakeLlamaServer::markStatus(qint64 seq, int status)
{
    if (ReceivedRequest *record = m_log->find(seq))
        record->status = status;
}

void FakeLlamaServer::markFinished(qint64 seq)
{
    for (auto it = m_currentSeq.begin(); it != m_currentSeq.end();) {
        if (it.value() == seq)
            it = m_currentSeq.erase(it);
        else
            ++it;
    }
    ReceivedRequest *record = m_log->find(seq);
    if (!record || !record->isOpen())
        return;
    record->finishedAtMs = nowMs();
    emit requestFinished(seq);
}

} // namespace switchyard::fake
