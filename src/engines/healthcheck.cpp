#include "engines/healthcheck.h"

#include "upstream/upstreamexchange.h"

namespace switchyard {

using namespace Qt::StringLiterals;

HealthCheck::HealthCheck(UpstreamPool *pool, const QUrl &base, std::chrono::milliseconds timeout, QObject *parent)
    : QObject(parent)
    , m_pool(pool)
    , m_base(base)
    , m_timeout(timeout)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        finish(Result::Unreachable, u"%1 did not answer /health within %2 ms"_s
                                        .arg(m_base.authority()).arg(m_timeout.count()));
    });
}

HealthCheck::~HealthCheck()
{
    abort();
}

void HealthCheck::start()
{
    abort();
    UpstreamExchange::Request request;
    request.base = m_base;
    request.target = "/health";
    request.connectTimeout = m_timeout;
    m_exchange = new UpstreamExchange(m_pool, request, this);
    connect(m_exchange, &UpstreamExchange::finished, this, [this] {
        const int status = m_exchange->status();
        if (status == 200)
            finish(Result::Healthy, QString());
        else
            finish(Result::Unhealthy, u"/health answered %1"_s.arg(status));
    });
    connect(m_exchange, &UpstreamExchange::failed, this,
            [this](UpstreamExchange::Failure failure, const QString &message) {
                switch (failure) {
                case UpstreamExchange::Failure::Refused:
                case UpstreamExchange::Failure::Dropped:
                    finish(Result::NoServer, message);
                    return;
                case UpstreamExchange::Failure::HostNotFound:
                case UpstreamExchange::Failure::ConnectTimeout:
                    finish(Result::Unreachable, message);
                    return;
                default:
                    finish(Result::Unhealthy, message);
                    return;
                }
            });
    m_deadline.start(m_timeout);
    m_exchange->start();
}

void HealthCheck::abort()
{
    m_deadline.stop();
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

void HealthCheck::finish(Result result, const QString &detail)
{
    abort();
    emit done(result, detail);
}

} // namespace switchyard
