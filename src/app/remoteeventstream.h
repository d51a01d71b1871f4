#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace switchyard {

// A watched relay's GET /admin/stream, read as it comes (RemoteRelayFeed's live half): each
// server-sent event handed on as it arrives, keepalive comments skipped. When the stream cannot be
// had or is cut, it says why and tries again after a backoff that doubles from the first retry
// delay up to the last (from the first again once a stream opened). An older relay's 404 is tried
// again the same way: it may be upgraded meanwhile.
class RemoteEventStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteEventStream)

public:
    enum class State { Off, Connecting, Open, Waiting };
    enum class Failure {
        None,
        Unsupported,   // 404, or an answer that is not an event stream: a relay before it
        Refused,       // 401 or 403
        Cut,           // no answer, cut, ended, or silent for longer than SilenceLimit
    };

    static constexpr std::chrono::milliseconds FirstRetry{std::chrono::seconds(1)};
    static constexpr std::chrono::milliseconds LastRetry{std::chrono::seconds(60)};
    // The relay sends a keepalive every 15 s: this long without a byte is a dead connection.
    static constexpr std::chrono::milliseconds SilenceLimit{std::chrono::seconds(45)};

    // `request` makes the GET (address, token, user agent); asked again for every attempt.
    RemoteEventStream(QNetworkAccessManager *network, std::function<QNetworkRequest()> request, QObject *parent = nullptr);
    ~RemoteEventStream() override;

    void start();
    void stop();
    void setRetryDelays(std::chrono::milliseconds first, std::chrono::milliseconds last);

    State state() const { return m_state; }
    Failure failure() const { return m_failure; }
    // What went wrong last, in the user's language ("404: no admin endpoint ..."); empty if nothing.
    QString failureText() const { return m_failureText; }
    // While Waiting: how long from the failure to the next attempt.
    std::chrono::milliseconds retryDelay() const { return m_retryDelay; }
    int attempts() const { return m_attempts; }

Q_SIGNALS:
    void opened();
    void event(const QByteArray &name, const QByteArray &data);
    // Open or not any more; failure() says why, and a retry is scheduled.
    void stateChanged();

private:
    void connectNow();
    void onReadyRead();
    void onFinished();
    void parse();
    void fail(Failure failure, const QString &text);

    QNetworkAccessManager *m_network;
    std::function<QNetworkRequest()> m_request;
    QPointer<QNetworkReply> m_reply;
    QTimer m_retry;
    State m_state = State::Off;
    Failure m_failure = Failure::None;
    QString m_failureText;
    std::chrono::milliseconds m_firstRetry = FirstRetry;
    std::chrono::milliseconds m_lastRetry = LastRetry;
    std::chrono::milliseconds m_retryDelay{0};
    int m_attempts = 0;
    QByteArray m_buffer;   // bytes of an event not complete yet
};

} // namespace switchyard
