#pragma once

#include "hosts/hostticket.h"
#include "api/errorreply.h"
#include "relay/streamerrorrewrite.h"
#include "relay/streamstats.h"
#include "upstream/upstreamexchange.h"

#include <QObject>
#include <QPointer>
#include <QBasicTimer>

#include <functional>

namespace switchyard {

class ResponseWriter;
class UpstreamPool;
struct ClientReply;

// One client request relayed to an upstream: the answer streams back as it arrives, the client
// sets the pace (a congested client pauses the upstream), and a client that leaves cancels the
// upstream request at once.
class ProxiedRequest final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProxiedRequest)

public:
    struct Outcome
    {
        int status = 0;
        QString relayError;
        bool clientLeft = false;
        std::optional<qint64> tokens;
        std::optional<double> tokensPerSecond;
        std::optional<qint64> promptTokens;
    };

    // How a streaming client is kept from timing out while the upstream is silent before its
    // answer (a router loading the model, a queue): after early200After the relay sends its own
    // 200 and text/event-stream, then ": waiting for ..." comments, then the real stream.
    struct Waiting
    {
        bool clientStreams = false;
        std::chrono::milliseconds early200After{std::chrono::seconds(10)};
        std::chrono::milliseconds commentEvery{std::chrono::seconds(15)};
        std::function<QString()> what;   // "host h1 to load alpha", asked at each comment
    };

    ProxiedRequest(UpstreamPool *pool, UpstreamExchange::Request request, ApiShape shape,
                   ResponseWriter *writer, Waiting waiting, QObject *parent = nullptr);
    ~ProxiedRequest() override;

    // Runs when the engine cannot be reached before it answered (refused, reset, no connection in
    // time, a name that does not resolve): marks its host down, and returns the words the client
    // is told with the relay's 424. A dead box is not a gateway error: clients retry every 5xx.
    void setOnUnreachable(std::function<QString(const QString &why)> hook) { m_onUnreachable = std::move(hook); }
    // Runs when the engine cannot be reached (refused, reset before answering, no connection in
    // time) while nothing of any upstream answer has reached the client: returns true when the
    // request goes to another replica instead, which then calls retarget() and begin().
    void setOnFailover(std::function<bool(const QString &why)> hook) { m_onFailover = std::move(hook); }
    // The request goes to another upstream (a replica) from the next begin() on.
    void retarget(UpstreamExchange::Request request);
    // Runs on the upstream's status, before anything of the answer reaches the client.
    void setOnResponseHead(std::function<void(int status)> hook) { m_onHead = std::move(hook); }
    // Start now (start()), or in two steps when the host must first be ready: waiting() starts the
    // early-200 clock, and begin() sends the request upstream or refuse() answers instead. Either
    // may come first: no answer can arrive before the event loop turns, and waiting() does
    // nothing once the request has concluded.
    void start();
    void waiting();
    void begin();
    void refuse(const ClientReply &reply);
    // Answer with this instead of asking the upstream, once begun (e.g. the load of a model whose
    // engine is not a router: its switch already loaded it).
    void setLocalAnswer(int status, const QByteArray &json) { m_localStatus = status; m_localAnswer = json; }
    // The client is Codex: its refusals go out as ClientReplies::forCodex words them.
    void setCodex(bool codex) { m_codex = codex; }
    // The request's place on its host: given back the moment the request concludes.
    void holdTicket(HostTicket ticket) { m_ticket = std::move(ticket); }
    const HostTicket &ticket() const { return m_ticket; }

Q_SIGNALS:
    void done(const switchyard::ProxiedRequest::Outcome &outcome);
    // Its progress, for live views: sent upstream, the upstream's answer began, and while it
    // streams the events so far (about one per token), at most every TokenReportInterval.
    void sent();
    void answering();
    void tokensSoFar(qint64 tokens);

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    void onResponseHead();
    void onBodyData(const QByteArray &data);
    void onFinished();
    void onFailed(UpstreamExchange::Failure failure, const QString &message);
    void onClientLeft();
    static constexpr std::chrono::milliseconds RetryDelay{250};
    static constexpr std::chrono::milliseconds TokenReportInterval{250};
    void countEvents(const QByteArray &data);
    void conclude();
    void sendEarly200();
    void sendWaitingComment();
    void answer(const ClientReply &reply);   // the relay's own answer, as a body or an SSE event
    QString upstreamErrorMessage() const;

    void startExchange();

    UpstreamPool *m_pool;
    UpstreamExchange::Request m_request;
    UpstreamExchange *m_exchange = nullptr;
    bool m_retried = false;
    int m_localStatus = 0;
    QByteArray m_localAnswer;
    QPointer<ResponseWriter> m_writer;
    ApiShape m_shape;
    bool m_codex = false;
    std::function<void(int)> m_onHead;
    std::function<QString(const QString &)> m_onUnreachable;
    std::function<bool(const QString &)> m_onFailover;
    bool m_upstreamAnswered = false;   // an upstream's head arrived: no failover after that
    StreamStats m_stats;
    StreamErrorRewrite m_streamErrors;   // the engine's own error events on chat completions and responses
    bool m_rewriteStreamErrors = false;
    QByteArray m_lastEvents;   // the read that ended the stream: counted after it is sent
    bool m_eventStream = false;
    bool m_buffering = false;   // small JSON answers are inspected whole for their usage
    QByteArray m_buffered;
    Outcome m_outcome;
    Waiting m_waiting;
    QBasicTimer m_waitTimer;   // the early 200, then each waiting comment
    bool m_early200Sent = false;
    bool m_errorAfterEarly200 = false;
    bool m_holdingError = false;         // an Anthropic-path error, held whole for ErrorRewrite   // upstream refused after our 200: collect its error body
    std::chrono::steady_clock::time_point m_firstByte;
    bool m_concluded = false;
    bool m_sent = false;
    qint64 m_events = 0;   // "data:" lines streamed so far
    std::chrono::steady_clock::time_point m_lastTokenReport;
    HostTicket m_ticket;
};

} // namespace switchyard
