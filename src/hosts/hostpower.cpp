#include "hosts/hostpower.h"

#include "engines/enginedriver.h"
#include "engines/healthcheck.h"
#include "engines/wakeonlan.h"
#include "hosts/sleepcommandrun.h"

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString macText(const QByteArray &mac)
{
    return QString::fromLatin1(mac.toHex(':'));
}

} // namespace

HostPower::HostPower(const HostConfig &host, EngineDriver *driver, UpstreamPool *pool, QObject *parent)
    : QObject(parent)
    , m_host(host.name)
    , m_static(host.driver == u"static")
    , m_engine(host.engines.isEmpty() ? QString() : host.engines.first().name)
    , m_engineUrl(host.engines.isEmpty() ? QUrl() : host.engines.first().url)
    , m_wake(host.wake)
    , m_sleepCommand(host.sleepCommand)
    , m_driver(driver)
    , m_pool(pool)
{
    m_asking.setInterval(AskEvery);
    connect(&m_asking, &QTimer::timeout, this, &HostPower::ask);
}

HostPower::~HostPower() = default;   // a sleep command still running runs on (SleepCommandRun)

HostStateMachine::Power HostPower::policy(const HostConfig &host)
{
    HostStateMachine::Power power;
    if (host.driver != u"static") {
        for (const EngineConfig &e : host.engines) {
            if (const auto limit = e.idleStopAfter ? e.idleStopAfter : host.idleStopAfter)
                power.idleStopAfter.insert(e.name, *limit);
        }
        power.sleeps = !host.sleepCommand.isEmpty();
    }
    power.canWake = host.wake.enabled() && host.driver != u"local";
    power.wakeTimeout = host.wake.timeout;
    return power;
}

HistoryEvent HostPower::event(HistoryEvent::Kind kind, const QString &detail) const
{
    HistoryEvent e;
    e.kind = kind;
    e.host = m_host;
    e.detail = detail;
    return e;
}

void HostPower::wake()
{
    QString error;
    const QString where = u"%1 to %2:%3"_s.arg(macText(m_wake.mac), m_wake.broadcast.toString()).arg(m_wake.port);
    if (WakeOnLan::send(m_wake.mac, m_wake.broadcast, m_wake.port, &error))
        emit historyEvent(event(HistoryEvent::Kind::WakeSent, where));
    else   // still asked: the box may be up, or woken by someone else
        emit historyEvent(event(HistoryEvent::Kind::WakeSent, u"%1 failed: %2"_s.arg(where, error)));
    m_asking.start();
    ask();
}

void HostPower::stopAsking()
{
    m_asking.stop();
    if (m_check)
        m_check->deleteLater();
    m_check = nullptr;
}

void HostPower::ask()
{
    if (!m_static) {
        m_driver->probe();
        return;
    }
    if (m_check)
        return;   // the last question is not answered yet
    m_check = new HealthCheck(m_pool, m_engineUrl, AskEvery * 2, this);
    connect(m_check, &HealthCheck::done, this, [this, check = m_check.data()](HealthCheck::Result result, const QString &) {
        check->deleteLater();
        if (m_check == check)
            m_check = nullptr;
        if (result == HealthCheck::Result::Healthy)
            emit answered(m_engine);
        else
            emit silent();
    });
    m_check->start();
}

void HostPower::sleep()
{
    if (m_sleepCommand.isEmpty() || m_sleeping)
        return;
    // Not ours to end: it finishes even if this host is replaced or the relay quits meanwhile.
    m_sleeping = SleepCommandRun::start(m_host, m_sleepCommand, this, [this](const QString &detail) {
        emit historyEvent(event(HistoryEvent::Kind::SleepCommand, detail));
    });
}

} // namespace switchyard
