#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamExchange;
class UpstreamPool;

// One GET /health against an engine's base URL, answered once through done().
class HealthCheck final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HealthCheck)

public:
    enum class Result {
        Healthy,       // 200
        Unhealthy,     // something answers, but not 200 (a single-model server loading: 503)
        NoServer,      // refused, or closed without a word: nothing listens there
        Unreachable,   // no connection within the timeout, or the host name is unknown
    };
    Q_ENUM(Result)

    static constexpr std::chrono::milliseconds DefaultTimeout{std::chrono::seconds(3)};

    HealthCheck(UpstreamPool *pool, const QUrl &base, std::chrono::milliseconds timeout = DefaultTimeout,
                QObject *parent = nullptr);
    ~HealthCheck() override;

    void start();
    void abort();

Q_SIGNALS:
    void done(switchyard::HealthCheck::Result result, const QString &detail);

private:
    void finish(Result result, const QString &detail);

    UpstreamPool *m_pool;
    QUrl m_base;
    std::chrono::milliseconds m_timeout;
    QPointer<UpstreamExchange> m_exchange;
    QTimer m_deadline;
};

} // namespace switchyard
