#include "fakellamaserver.h"

#include "fakecompletionjob.h"
#include "fakecontrolapi.h"
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
#include "fakessehub.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace switchyard::fake {

namespace {

using After = FakeHttpConnection::After;

const QByteArray kSuccess = QByteArrayLiteral(R"({"success":true})");
const QByteArray kHtmlType = QByteArrayLiteral("text/html; charset=utf-8");
const QByteArray kRootPage = QByteArrayLiteral(
    "<!doctype html><html><head><title>llama.cpp</title></head>"
    "<body>fake llama.cpp server (switchyard test fake)</body></html>");

std::optional<QJsonObject> jsonObject(const QByteArray &body)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return doc.object();
}

std::optional<FakeApi> inferenceApi(const QByteArray &path)
{
    if (path == "/v1/chat/completions" || path == "/chat/completions")
        return FakeApi::ChatCompletions;
    if (path == "/v1/completions" || path == "/completions")
        return FakeApi::Completions;
    if (path == "/completion")
        return FakeApi::NativeCompletion;
    if (path == "/v1/messages")
        return FakeApi::Messages;
    if (path == "/v1/messages/count_tokens")
        return FakeApi::CountTokens;
    if (path == "/v1/responses" || path == "/responses")
        return FakeApi::Responses;
    return std::nullopt;
}

} // namespace

FakeLlamaServer::FakeLlamaServer(FakeOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_registry(std::make_unique<FakeModelRegistry>(m_options))
    , m_sseHub(std::make_unique<FakeSseHub>())
    , m_log(std::make_unique<FakeRequestLog>())
    , m_control(std::make_unique<FakeControlApi>(*this))
    , m_slots(std::make_unique<FakeSlots>(m_options))
{
    connect(&m_tcpServer, &QTcpServer::newConnection, this, &FakeLlamaServer::onNewConnection);
    connect(m_registry.get(), &FakeModelRegistry::event, this,
            [this](const QByteArray &payload) { m_sseHub->broadcast(payload); });
    connect(m_registry.get(), &FakeModelRegistry::modelReady, this, &FakeLlamaServer::onModelReady);
    connect(m_registry.get(), &FakeModelRegistry::modelLoadFailed, this, &FakeLlamaServer::onModelLoadFailed);
    connect(m_registry.get(), &FakeModelRegistry::modelStopped, this, &FakeLlamaServer::onModelStopped);
}

FakeLlamaServer::~FakeLlamaServer()
{
    // Connections die before the registry and the log they report to.
    const auto connections = std::exchange(m_connections, {});
    for (const QPointer<FakeHttpConnection> &connection : connections) {
        if (connection) {
            disconnect(connection, nullptr, this, nullptr);
            delete connection.data();
        }
    }
}

qint64 FakeLlamaServer::nowMs()
{
    QElapsedTimer clock;
    clock.start();
    return clock.msecsSinceReference();
}

bool FakeLlamaServer::listen(const QHostAddress &address, quint16 port)
{
    if (!m_tcpServer.listen(address, port))
        return false;
    // A plain llama-server loads its one model at start and answers 503 until then.
    if (m_options.singleModel && modelStatus(m_options.models.constFirst()) == FakeModelStatus::Unloaded)
        m_registry->load(m_options.models.constFirst());
    qCDebug(lcFake) << "listening on" << baseUrl();
    return true;
}

bool FakeLlamaServer::isListening() const
{
    return m_tcpServer.isListening();
}

quint16 FakeLlamaServer::port() const
{
    return m_tcpServer.serverPort();
}

QUrl FakeLlamaServer::baseUrl() const
{
    QHostAddress host = m_tcpServer.serverAddress();
    if (host == QHostAddress::Any || host == QHostAddress::AnyIPv4 || host == QHostAddress::AnyIPv6)
        host = QHostAddress(QHostAddress::LocalHost);
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(host.toString());
    url.setPort(port());
    return url;
}

QString FakeLlamaServer::errorString() const
{
    return m_tcpServer.errorString();
}

void FakeLlamaServer::close()
{
    m_tcpServer.close();
    for (Exchange &exchange : m_exchanges) {
        if (exchange.job)
            exchange.job->stop();
    }
    m_exchanges.clear();
    const auto open = std::exchange(m_currentSeq, {});
    for (const qint64 seq : open)
        markFinished(seq);
    // A copy: a socket with nothing left to write closes at once, and its
    // closed() handler edits m_connections.
    const QList<QPointer<FakeHttpConnection>> connections = m_connections;
    for (const QPointer<FakeHttpConnection> &connection : connections) {
        if (connection)
            connection->drop();
    }
    m_registry->reset();
    m_slots->clearAll();
}

void FakeLlamaServer::setTokensPerSecond(double rate)
{
    m_options.tokensPerSecond = qMax(0.0, rate);
}

void FakeLlamaServer::setLoadDelay(std::chrono::milliseconds delay)
{
    m_options.loadDelay = delay;
    m_registry->setLoadDelay(delay);
}

void FakeLlamaServer::setUnloadDelay(std::chrono::milliseconds delay)
{
    m_options.unloadDelay = delay;
    m_registry->setUnloadDelay(delay);
}

void FakeLlamaServer::setPrefillDelay(std::chrono::milliseconds delay)
{
    m_options.prefillDelay = delay;
}

void FakeLlamaServer::setPingInterval(std::chrono::milliseconds interval)
{
    m_options.pingInterval = interval;
}

void FakeLlamaServer::setAutoload(bool on)
{
    m_options.autoload = on;
}

void FakeLlamaServer::setMaxModels(int count)
{
    m_options.maxModels = count;
    m_registry->setMaxModels(count);
}

void FakeLlamaServer::setRejectLateSystem(bool on)
{
    m_options.rejectLateSystem = on;
}

void FakeLlamaServer::setMaxReplyTokens(int count)
{
    m_options.maxReplyTokens = qMax(0, count);
}

void FakeLlamaServer::setModelStatus(const QString &model, FakeModelStatus status)
{
    m_registry->setStatus(model, status);
}

void FakeLlamaServer::setFailLoad(const QString &model, bool fail)
{
    m_registry->setFailsToLoad(model, fail);
}

void FakeLlamaServer::failNextRequests(int count, const FakeFailure &failure)
{
    for (int i = 0; i < count; ++i)
        m_failures.append(failure);
}

void FakeLlamaServer::failNextRequests(int count, FakeFailure::Mode mode)
{
    FakeFailure failure;
    failure.mode = mode;
    failNextRequests(count, failure);
}

void FakeLlamaServer::clearFailures()
{
    m_failures.clear();
}

FakeModelStatus FakeLlamaServer::modelStatus(const QString &model) const
{
    const FakeModelState *state = m_registry->model(model);
    return state ? state->status : FakeModelStatus::Unloaded;
}

int FakeLlamaServer::activeGenerations() const
{
    return int(std::count_if(m_exchanges.cbegin(), m_exchanges.cend(),
                             [](const Exchange &e) { return e.job && e.job->isRunning(); }));
}

int FakeLlamaServer::sseSubscribers() const
{
    return m_sseHub->subscriberCount();
}

const QList<ReceivedRequest> &FakeLlamaServer::received() const
{
    return m_log->all();
}

const ReceivedRequest *FakeLlamaServer::request(qint64 seq) const
{
    return std::as_const(*m_log).find(seq);
}

void FakeLlamaServer::clearReceived()
{
    m_log->clear();
}

// ---- connections -----------------------------------------------------------

void FakeLlamaServer::onNewConnection()
{
    while (QTcpSocket *socket = m_tcpServer.nextPendingConnection()) {
        auto *connection = new FakeHttpConnection(socket, this);
        m_connections.append(connection);
        connect(connection, &FakeHttpConnection::requestReady, this,
                [this, connection](const FakeHttpRequest &request) { onRequest(connection, request); });
        connect(connection, &FakeHttpConnection::peerClosed, this,
                [this, connection] { onPeerClosed(connection); });
        connect(connection, &FakeHttpConnection::closed, this, [this, connection] {
            m_currentSeq.remove(connection);
            m_sseHub->unsubscribe(connection);
            m_connections.removeIf(
                [connection](const QPointer<FakeHttpConnection> &c) { return !c || c == connection; });
        });
    }
}

void FakeLlamaServer::onPeerClosed(FakeHttpConnection *connection)
{
    m_sseHub->unsubscribe(connection);
    const auto it = m_currentSeq.constFind(connection);
    if (it == m_currentSeq.cend())
        return;
    const qint64 seq = it.value();
    m_currentSeq.erase(it);
    if (const auto exchange = m_exchanges.find(seq); exchange != m_exchanges.end()) {
        if (exchange->job)
            exchange->job->stop(); // the box stops generating for nobody
        if (exchange->slot >= 0)
            m_slots->finish(exchange->model, exchange->slot, 0);
        m_exchanges.erase(exchange);
    }
    ReceivedRequest *record = m_log->find(seq);
    if (record && record->isOpen()) {
        record->cancelledAtMs = nowMs();
        qCDebug(lcFake) << "request" << seq << "cancelled by the client";
        emit requestCancelled(seq);
    }
}

FakeLlamaServer::Route FakeLlamaServer::routeFor(const FakeHttpRequest &request, std::optional<FakeApi> *api) const
{
    const QByteArray &path = request.path;
    const QByteArray &method = request.method;
    const bool get = method == "GET";
    const bool getOrHead = get || method == "HEAD"; // HEAD only where the answer has a length
    const bool router = !m_options.singleModel;

    if (method == "OPTIONS")
        return Route::Options;
    if (getOrHead && path == "/")
        return Route::Root;
    if (getOrHead && (path == "/health" || path == "/v1/health"))
        return Route::Health;
    if (getOrHead && (path == "/models" || path == "/v1/models"))
        return Route::ModelsList;
    if (router && get && path == "/models/sse")
        return Route::ModelsSse;
    if (router && method == "POST" && path == "/models/load")
        return Route::ModelsLoad;
    if (router && method == "POST" && path == "/models/unload")
        return Route::ModelsUnload;
    if (get && path == "/props")
        return Route::Props;
    if ((get && path == "/slots") || (method == "POST" && path.startsWith("/slots/")))
        return Route::Slots;
    if (method == "POST") {
        *api = inferenceApi(path);
        if (*api)
            return Route::Inference;
    }
    return Route::NotFound;
}

bool FakeLlamaServer::isModelRoute(Route route, const FakeHttpRequest &request) const
{
    return route == Route::Inference || (route == Route::Props && !request.queryItem(u"model"_s).isEmpty());
}

std::optional<FakeFailure> FakeLlamaServer::takeFailure(Route route, const FakeHttpRequest &request)
{
    for (qsizetype i = 0; i < m_failures.size(); ++i) {
        const FakeFailure &f = m_failures.at(i);
        if (f.path.isEmpty() ? isModelRoute(route, request) : f.path == request.path)
            return m_failures.takeAt(i);
    }
    return std::nullopt;
}

void FakeLlamaServer::onRequest(FakeHttpConnection *connection, const FakeHttpRequest &request)
{
    if (request.path.startsWith("/__fake/")) {
        handleControl(connection, request);
        return;
    }

    const qint64 seq = m_log->add(request, nowMs());
    m_currentSeq.insert(connection, seq);
    emit requestReceived(seq);

    std::optional<FakeApi> api;
    const Route route = routeFor(request, &api);
    const bool wantsClose = request.wantsClose();

    if (m_options.singleModel) {
        const FakeModelStatus status = modelStatus(m_options.models.constFirst());
        if (status != FakeModelStatus::Loaded && status != FakeModelStatus::Sleeping) {
            answerError(seq, connection, 503, fakeerrors::unavailable(u"Loading model"_s));
            return;
        }
    }

    std::optional<FakeFailure> failure = takeFailure(route, request);
    if (failure && failure->mode != FakeFailure::Mode::CrashMidStream
        && failure->mode != FakeFailure::Mode::ErrorMidStream) {
        applyImmediateFailure(seq, connection, request, *failure);
        return;
    }

    switch (route) {
    case Route::NotFound:
        answerError(seq, connection, 404, fakeerrors::notFound());
        return;
    case Route::Options:
        connection->sendResponse(FakeHttpHead::options(), {}, wantsClose ? After::Close : After::KeepAlive);
        markStatus(seq, 200);
        markFinished(seq);
        return;
    case Route::Root:
        answerOwn(seq, connection, wantsClose, 200, kRootPage, kHtmlType);
        return;
    case Route::Health:
        answerOwn(seq, connection, wantsClose, 200, QByteArrayLiteral(R"({"status":"ok"})"),
                  FakeHttpHead::JsonType);
        return;
    case Route::ModelsList: {
        const QByteArray list = m_options.singleModel
            ? fakemodelsjson::singleModelList(*m_registry->model(m_options.models.constFirst()))
            : fakemodelsjson::routerList(m_registry->models());
        answerOwn(seq, connection, wantsClose, 200, list, FakeHttpHead::JsonType);
        return;
    }
    case Route::ModelsSse:
        handleSse(seq, connection);
        return;
    case Route::ModelsLoad:
        handleLoad(seq, connection, request);
        return;
    case Route::ModelsUnload:
        handleUnload(seq, connection, request);
        return;
    case Route::Props:
        if (m_options.singleModel) {
            answerOwn(seq, connection, wantsClose, 200,
                      fakemodelsjson::childProps(*m_registry->model(m_options.models.constFirst())),
                      FakeHttpHead::JsonType);
            return;
        }
        if (request.queryItem(u"model"_s).isEmpty()) {
            answerOwn(seq, connection, wantsClose, 200,
                      fakemodelsjson::routerProps(m_registry->maxModels(), m_options.autoload),
                      FakeHttpHead::JsonType);
            return;
        }
        handleModelRequest(seq, connection, request, route, api, failure);
        return;
    case Route::Inference:
    case Route::Slots:
        handleModelRequest(seq, connection, request, route, api, failure);
        return;
    }
}

// ---- router endpoints --------------------------------------------------------

void FakeLlamaServer::handleLoad(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request)
{
    if (const std::optional<QString> syntax = jsonSyntaxError(request.body)) {
        answerError(seq, connection, 500, fakeerrors::serverError(*syntax));
        return;
    }
    const QString model = jsonObject(request.body).value_or(QJsonObject()).value(u"model"_s).toString();
    switch (m_registry->load(model)) {
    case FakeModelRegistry::LoadResult::Started:
        answerOwn(seq, connection, request.wantsClose(), 200, kSuccess, FakeHttpHead::JsonType);
        return;
    case FakeModelRegistry::LoadResult::AlreadyRunning:
        answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model is already running"_s));
        return;
    case FakeModelRegistry::LoadResult::NotFound:
        answerError(seq, connection, 404, fakeerrors::notFound());
        return;
    case FakeModelRegistry::LoadResult::LimitReached:
        answerError(seq, connection, 500, fakeerrors::serverError(u"model limit reached, try again later"_s));
        return;
    }
}

void FakeLlamaServer::handleUnload(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request)
{
    if (const std::optional<QString> syntax = jsonSyntaxError(request.body)) {
        answerError(seq, connection, 500, fakeerrors::serverError(*syntax));
        return;
    }
    const QString model = jsonObject(request.body).value_or(QJsonObject()).value(u"model"_s).toString();
    switch (m_registry->unload(model)) {
    case FakeModelRegistry::UnloadResult::Started:
        answerOwn(seq, connection, request.wantsClose(), 200, kSuccess, FakeHttpHead::JsonType);
        return;
    case FakeModelRegistry::UnloadResult::NotRunning:
        answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model is not running"_s));
        return;
    case FakeModelRegistry::UnloadResult::NotFound:
        answerError(seq, connection, 400, fakeerrors::invalidRequest(u"model is not found"_s));
        return;
    }
}

void FakeLlamaServer::handleSse(qint64 seq, FakeHttpConnection *connection)
{
    connection->startChunked(FakeHttpHead::stream(FakeHttpHead::EventStreamType));
    markStatus(seq, 200);
    m_sseHub->subscribe(connection);
    Exchange exchange;
    exchange.seq = seq;
    exchange.connection = connection;
    exchange.route = Route::ModelsSse;
    m_exchanges.insert(seq, exchange);
}

void FakeLlamaServer::applyImmediateFailure(qint64 seq, FakeHttpConnection *connection,
                                            const FakeHttpRequest &request, const FakeFailure &failure)
{
    qCDebug(lcFake) << "request" << seq << "fails:" << FakeFailure::modeName(failure.mode);
    switch (failure.mode) {
    case FakeFailure::Mode::Drop:
        connection->drop();
        markFinished(seq);
        return;
    case FakeFailure::Mode::Status: {
        const QByteArray body = failure.body.isEmpty()
            ? fakeerrors::body(failure.status, u"fake: injected failure"_s, fakeerrors::typeForStatus(failure.status))
            : failure.body;
        const bool json = body.startsWith('{') || body.startsWith('[');
        answerOwn(seq, connection, true, failure.status, body,
                  json ? FakeHttpHead::JsonType : QByteArrayLiteral("text/plain; charset=utf-8"));
        return;
    }
    case FakeFailure::Mode::Stall: {
        const bool stream = jsonObject(request.body).value_or(QJsonObject()).value(u"stream"_s).toBool();
        const QByteArray type = stream ? FakeHttpHead::EventStreamType : FakeHttpHead::JsonType;
        connection->startChunked(m_options.singleModel ? FakeHttpHead::stream(type) : FakeHttpHead::routed(200, type));
        markStatus(seq, 200);
        Exchange exchange;
        exchange.seq = seq;
        exchange.connection = connection;
        exchange.route = Route::Inference;
        m_exchanges.insert(seq, exchange);
        return;
    }
    case FakeFailure::Mode::Garbage:
        // Something that is not llama-server answering on its port (a misconfigured proxy, a
        // different service): bytes that are no HTTP status line, then the close.
        connection->sendResponse(failure.body.isEmpty() ? QByteArrayLiteral("SSH-2.0-OpenSSH_9.2\r\n\x01\x02garbage")
                                                        : failure.body,
                                 {}, FakeHttpConnection::After::Close);
        markFinished(seq);
        return;
    case FakeFailure::Mode::CrashMidStream:
    case FakeFailure::Mode::ErrorMidStream:
        break; // handled by the generation
    }
}

// ---- /__fake/ --------------------------------------------------------------------

void FakeLlamaServer::handleControl(FakeHttpConnection *connection, const FakeHttpRequest &request)
{
    const FakeControlApi::Answer answer = m_control->answer(request);
    const bool keep = answer.status < 400 && !request.wantsClose();
    connection->sendResponse(
        FakeHttpHead::fixed(answer.status, FakeHttpHead::JsonType, answer.body.size(),
                            keep ? FakeHttpHead::Connection::KeepAlive : FakeHttpHead::Connection::Close),
        answer.body, keep ? After::KeepAlive : After::Close);
}

QByteArray FakeLlamaServer::requestsJson(qint64 sinceSeq) const
{
    return m_log->toJson(sinceSeq);
}

bool FakeLlamaServer::hasModel(const QString &model) const
{
    return m_registry->contains(model);
}

} // namespace switchyard::fake
