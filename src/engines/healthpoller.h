#pragma once

#include "engines/healthcheck.h"

#include <QObject>
#include <QTimer>
#include <QUrl>

#include <chrono>

namespace switchyard {

class UpstreamPool;

// Asks an engine's /health every interval until it answers 200 (Healthy) or until nothing listens
// any more (Gone). Has no deadline of its own: the caller decides how long to wait.
//
// A start is what a switch waits for, and every request held for the switch waits with it: an
// engine that comes up is found within SwitchInterval of its readiness (issue 31 item 4), where
// the old 200 ms poll added up to 200 ms to each switch. The poll runs only while a start or a
// stop waits; a loading llama-server answers its 503 at once, so 40 asks a second cost nothing.
class HealthPoller final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HealthPoller)

public:
    enum class Goal { Healthy, Gone };
    static constexpr std::chrono::milliseconds Interval{200};          // the normal pace
    static constexpr std::chrono::milliseconds SwitchInterval{25};     // while a switch waits for the engine

    HealthPoller(UpstreamPool *pool, const QUrl &base, QObject *parent = nullptr);

    void start(Goal goal, std::chrono::milliseconds interval = Interval);
    void stop();
    bool isActive() const { return m_active; }
    std::chrono::milliseconds interval() const { return m_interval; }
    // What the last check saw, for a timeout message ("/health answered 503").
    QString lastDetail() const { return m_lastDetail; }

Q_SIGNALS:
    void reached();

private:
    void onDone(HealthCheck::Result result, const QString &detail);

    HealthCheck m_check;
    QTimer m_next;
    Goal m_goal = Goal::Healthy;
    std::chrono::milliseconds m_interval = Interval;
    bool m_active = false;
    QString m_lastDetail;
};

} // namespace switchyard
