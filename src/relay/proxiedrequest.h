#pragma once

#include "hosts/hostticket.h"
#include "api/errorreply.h"
#include "api/messagesstreamclose.h"
#include "replies/clientreplies.h"
#include "relay/requestlifecycle.h"
#include "relay/streamerrorrewrite.h"
#include "relay/streamstats.h"
#include "upstream/upstreamexchange.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QBasicTimer>

#include <optional>

namespace switchyard {

class ProxiedRequestListener;
class ResponseWriter;
class UpstreamPool;
struct ClientReply;

// One client request relayed to an upstream: the answer streams back as it arrives, the client
// sets the pace (a congested client pauses the upstream), and a client that leaves cancels the
// upstream request at once. Where it stands is one RequestLifecycle state; what it has to say
// goes to one ProxiedRequestListener.
class ProxiedRequest final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProxiedRequest)

public:
    struct Outcome
    {
        int status = 0;
        QString relayError;
        QJsonObject relayFacts;   // what relayError words, when it words facts (ClientReply::facts)
        bool clientLeft = false;
        std::optional<qint64> tokens;
        std::optional<double> tokensPerSecond;
        std::optional<qint64> promptTokens;
        int refusedMoves = 0;   // moves its lifecycle refused: bugs, each logged
    };

    // How a streaming client is kept from timing out while the upstream is silent before its
    // answer (a router loading the model, a queue): after early200After the relay sends its own
    // 200 and text/event-stream, then ": waiting for ..." comments (the listener's words), then
    // the real stream.
    struct Waiting
    {
        bool clientStreams = false;
        std::chrono::milliseconds early200After{std::chrono::seconds(10)};
        std::chrono::milliseconds commentEvery{std::chrono::seconds(15)};
    };

    // listener hears of its progress and end, and is asked about an unreachable engine; it
    // outlives the request.
    ProxiedRequest(UpstreamPool *pool, UpstreamExchange::Request request, ApiShape shape,
                   ResponseWriter *writer, Waiting waiting, ProxiedRequestListener *listener,
                   QObject *parent = nullptr);
    ~ProxiedRequest() override;

    // The request goes to another upstream (a replica) from the next begin() on.
    void retarget(UpstreamExchange::Request request);
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
    // The client's own form for the refusals this request answers (ClientReplies::inForm).
    void setReplyForm(ClientReplies::ReplyForm form);
    // The request's place on its host: given back the moment the request concludes.
    void holdTicket(HostTicket ticket) { m_ticket = std::move(ticket); }
    const HostTicket &ticket() const { return m_ticket; }
    RequestLifecycle::State state() const { return m_lifecycle.state(); }

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
    // Asks the lifecycle's table; a move it refuses is a bug, logged and counted (Outcome), and
    // the request stays where it was.
    bool move(RequestLifecycle::Event event);
    void conclude();   // once the lifecycle reads Concluded: the outcome, the ticket, the listener
    void sendEarly200();
    void sendWaitingComment();
    // The relay's own answer, as a body, or as an SSE event when its early 200 is out (in from,
    // the state before the answer's move).
    void answer(const ClientReply &reply, RequestLifecycle::State from);
    QByteArray beforeErrorEvent(const QString &message);
    QString upstreamErrorMessage() const;

    void startExchange();

    UpstreamPool *m_pool;
    UpstreamExchange::Request m_request;
    UpstreamExchange *m_exchange = nullptr;
    ProxiedRequestListener *m_listener;
    RequestLifecycle m_lifecycle;
    int m_localStatus = 0;
    QByteArray m_localAnswer;
    QPointer<ResponseWriter> m_writer;
    ApiShape m_shape;
    ClientReplies::ReplyForm m_replyForm = ClientReplies::ReplyForm::AsIs;
    StreamStats m_stats;
    StreamErrorRewrite m_streamErrors;   // the engine's own error events on chat completions and responses
    bool m_rewriteStreamErrors = false;
    // Claude Code's Messages stream: a completed block before any error in it (MessagesStreamClose).
    std::optional<MessagesStreamClose> m_messagesClose;
    bool m_closeMessagesStream = false;   // ... the engine's stream goes through it
    QByteArray m_lastEvents;   // the read that ended the stream: counted after it is sent
    bool m_eventStream = false;   // the answer is (or, after our early 200, goes out as) text/event-stream
    QByteArray m_buffered;   // an inspected JSON answer, or an error held for rewriting
    Outcome m_outcome;
    Waiting m_waiting;
    QBasicTimer m_waitTimer;   // the early 200, then each waiting comment
    std::chrono::steady_clock::time_point m_firstByte;
    qint64 m_events = 0;   // "data:" lines streamed so far
    std::chrono::steady_clock::time_point m_lastTokenReport;
    HostTicket m_ticket;
};

} // namespace switchyard
