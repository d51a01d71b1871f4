#pragma once

#include "fakefailure.h"
#include "fakeinferencerequest.h"
#include "fakemodelstate.h"
#include "fakeoptions.h"
#include "receivedrequest.h"

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QUrl>

#include <chrono>
#include <memory>
#include <optional>

namespace switchyard::fake {

class FakeCompletionJob;
class FakeControlApi;
class FakeHttpConnection;
class FakeModelRegistry;
class FakeRequestLog;
class FakeSlots;
class FakeSseHub;
struct FakeHttpRequest;

// A fake llama.cpp server in router mode (or, with singleModel, a plain
// llama-server), answering byte for byte like the recorded real one
// (/work/shared/llama-transcripts). Single-threaded, driven by timers.
//
// Besides llama.cpp's API it serves, for a test driving it as a child process:
//   GET  /__fake/requests[?since=SEQ]  the received requests as JSON
//   POST /__fake/reset                 forget them and any armed failures
//   POST /__fake/config                knobs, e.g. {"tokens_per_s":50,"fail_next":{"count":1,"mode":"drop"}}
class FakeLlamaServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeLlamaServer)

public:
    explicit FakeLlamaServer(FakeOptions options, QObject *parent = nullptr);
    ~FakeLlamaServer() override;

    bool listen(const QHostAddress &address = QHostAddress(QHostAddress::LocalHost), quint16 port = 0);
    bool isListening() const;
    quint16 port() const;
    QUrl baseUrl() const;
    QString errorString() const;
    // Stops listening and drops every connection, as when the engine dies.
    // Models go back to their start-up state; listen() again to "restart".
    void close();

    // Knobs. They apply to what starts after the call.
    void setTokensPerSecond(double rate);
    void setLoadDelay(std::chrono::milliseconds delay);
    void setUnloadDelay(std::chrono::milliseconds delay);
    void setPrefillDelay(std::chrono::milliseconds delay);
    void setPingInterval(std::chrono::milliseconds interval);
    void setAutoload(bool on);
    void setMaxModels(int count);
    void setRejectLateSystem(bool on);
    void setMaxReplyTokens(int count);
    // Forces a model's state at once, with its /models/sse event: Loaded lets
    // waiting requests go, Unloaded cuts its running answers, Loading stays
    // loading until told otherwise, Sleeping wakes on the next request.
    void setModelStatus(const QString &model, FakeModelStatus status);
    void setFailLoad(const QString &model, bool fail);
    // The next `count` matching requests fail this way (see FakeFailure::path).
    void failNextRequests(int count, const FakeFailure &failure);
    void failNextRequests(int count, FakeFailure::Mode mode);
    void clearFailures();

    const FakeOptions &options() const { return m_options; }
    FakeModelStatus modelStatus(const QString &model) const;
    int activeGenerations() const;     // jobs still producing tokens
    int sseSubscribers() const;

    bool hasModel(const QString &model) const;

    const QList<ReceivedRequest> &received() const;
    const ReceivedRequest *request(qint64 seq) const;
    void clearReceived();
    QByteArray requestsJson(qint64 sinceSeq = 0) const; // what GET /__fake/requests answers

    // Now, on the clock ReceivedRequest uses.
    static qint64 nowMs();

signals:
    void requestReceived(qint64 seq);
    void requestFinished(qint64 seq);
    void requestCancelled(qint64 seq);

private:
    enum class Route {
        NotFound, Root, Health, ModelsList, ModelsSse, ModelsLoad, ModelsUnload, Props, Inference, Options, Slots
    };

    // A request answered later: waiting for its model, generating, or stalled.
    struct Exchange
    {
        qint64 seq = 0;
        QPointer<FakeHttpConnection> connection;
        Route route = Route::NotFound;
        bool wantsClose = false;
        QString model;
        FakeInferenceRequest inference;                   // Route::Inference only
        std::optional<FakeFailure> failure;               // a mid-stream one, for the job
        QPointer<FakeCompletionJob> job;
        bool waiting = false;
        int slot = -1;                                    // Route::Inference: the slot it runs in
        QString slotId;                                   // Route::Slots: POST /slots/{id}
        QString slotAction;                               // Route::Slots: ?action=, empty for GET
        QByteArray body;                                  // Route::Slots
    };

    void onNewConnection();
    void onRequest(FakeHttpConnection *connection, const FakeHttpRequest &request);
    void onPeerClosed(FakeHttpConnection *connection);
    Route routeFor(const FakeHttpRequest &request, std::optional<FakeApi> *api) const;
    bool isModelRoute(Route route, const FakeHttpRequest &request) const;
    std::optional<FakeFailure> takeFailure(Route route, const FakeHttpRequest &request);

    void handleControl(FakeHttpConnection *connection, const FakeHttpRequest &request);
    void handleLoad(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request);
    void handleUnload(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request);
    void handleSse(qint64 seq, FakeHttpConnection *connection);
    void handleModelRequest(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request,
                            Route route, std::optional<FakeApi> api, std::optional<FakeFailure> failure);
    void applyImmediateFailure(qint64 seq, FakeHttpConnection *connection, const FakeHttpRequest &request,
                               const FakeFailure &failure);

    void dispatch(qint64 seq);
    void answerSlots(const Exchange &exchange);   // fakellamaslots.cpp
    void startGeneration(Exchange &exchange);
    void onModelReady(const QString &model);
    void onModelLoadFailed(const QString &model);
    void onModelStopped(const QString &model);

    // Answers, each recording the status and the end of the exchange.
    void answerOwn(qint64 seq, FakeHttpConnection *connection, bool wantsClose, int status,
                   const QByteArray &body, const QByteArray &contentType);
    void answerError(qint64 seq, FakeHttpConnection *connection, int status, const QByteArray &body);
    void answerRouted(qint64 seq, FakeHttpConnection *connection, bool wantsClose, const QByteArray &body);
    void answerChildError(qint64 seq, FakeHttpConnection *connection, int status, const QByteArray &body);
    void markStatus(qint64 seq, int status);
    void markFinished(qint64 seq);

    FakeOptions m_options;
    QTcpServer m_tcpServer;
    std::unique_ptr<FakeModelRegistry> m_registry;
    std::unique_ptr<FakeSseHub> m_sseHub;
    std::unique_ptr<FakeRequestLog> m_log;
    std::unique_ptr<FakeControlApi> m_control;
    std::unique_ptr<FakeSlots> m_slots;
    QList<FakeFailure> m_failures;                        // one entry per request still to fail
    QHash<qint64, Exchange> m_exchanges;
    QHash<const FakeHttpConnection *, qint64> m_currentSeq; // the request each connection is answering
    QList<QPointer<FakeHttpConnection>> m_connections;
};

} // namespace switchyard::fake
