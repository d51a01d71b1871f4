#include "engines/healthpoller.h"

namespace switchyard {

HealthPoller::HealthPoller(UpstreamPool *pool, const QUrl &base, QObject *parent)
    : QObject(parent)
    , m_check(pool, base)
{
    m_next.setSingleShot(true);
    connect(&m_next, &QTimer::timeout, &m_check, &HealthCheck::start);
    connect(&m_check, &HealthCheck::done, this, &HealthPoller::onDone);
}

void HealthPoller::start(Goal goal, std::chrono::milliseconds interval)
{
    stop();
    m_goal = goal;
    m_interval = interval;
    m_active = true;
    m_lastDetail.clear();
    m_check.start();
}

void HealthPoller::stop()
{
    m_active = false;
    m_next.stop();
    m_check.abort();
}

void HealthPoller::onDone(HealthCheck::Result result, const QString &detail)
{
    if (!m_active)
        return;
    m_lastDetail = detail;
    const bool gone = result == HealthCheck::Result::NoServer || result == HealthCheck::Result::Unreachable;
    if ((m_goal == Goal::Healthy && result == HealthCheck::Result::Healthy) || (m_goal == Goal::Gone && gone)) {
        m_active = false;
        emit reached();
        return;
    }
    m_next.start(m_interval);
}

} // namespace switchyard
