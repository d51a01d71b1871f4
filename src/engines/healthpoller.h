#pragma once

#include "engines/healthcheck.h"

#include <QObject>
#include <QTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamPool;

// Asks an engine's /health every Interval until it answers 200 (Healthy) or until nothing listens
// any more (Gone). Has no deadline of its own: the caller decides how long to wait.
class HealthPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HealthPoller)

public:
    enum class Goal { Healthy, Gone };
    static constexpr std::chrono::milliseconds Interval{200};

    HealthPoller(UpstreamPool *pool, const QUrl &base, QObject *parent = nullptr);

    void start(Goal goal);
    void stop();
    bool isActive() const { return m_active; }
    // What the last check saw, for a timeout message ("/health answered 503").
    QString lastDetail() const { return m_lastDetail; }

Q_SIGNALS:
    void reached();

private:
    void onDone(HealthCheck::Result result, const QString &detail);

    HealthCheck m_check;
    QTimer m_next;
    Goal m_goal = Goal::Healthy;
    bool m_active = false;
    QString m_lastDetail;
};

} // namespace switchyard
