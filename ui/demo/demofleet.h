#pragma once

#include "app/relayservice.h"

#include <QObject>
#include <QStringList>

#include <chrono>

namespace switchyard {
struct Config;
class DemoBoxPower;
}

namespace switchyard::fake {

class FakeLlamaServer;

// `switchyard --demo`: three simulated GPU boxes (fake llama.cpp routers on loopback, with
// realistic load times and token rates) for the relay to stand in front of, so a newcomer can
// try everything without a GPU. The 3090 has two engines, "mainline" and "fork", so a request
// for a fork model shows a real engine switch (drain, start, timeline). The 3060 saves power:
// after idleStop without a request its engine stops and the box sleeps (its sleep_command tells
// the simulated box so); the next request for it wakes it with a wake-on-LAN packet sent to
// 127.0.0.1 only. strata-8b runs on the a9 and the 3060: one replicated alias, "strata-8b".
class DemoFleet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleet)

public:
    struct Timing
    {
        std::chrono::milliseconds idleStop{std::chrono::seconds(20)};   // the 3060's idle_stop_after_s
        std::chrono::milliseconds boot{std::chrono::seconds(4)};        // from its wake packet until it answers
        std::chrono::milliseconds engineStart{2500};                   // an engine's start on a demo box
    };
    // The names the demo shows.
    static constexpr QLatin1StringView SleeperHost{"3060"};
    static constexpr QLatin1StringView ReplicatedAlias{"strata-8b"};

    explicit DemoFleet(QObject *parent = nullptr);
    DemoFleet(Timing timing, QObject *parent);
    ~DemoFleet() override;

    bool start(QString *error);
    // "--upstream NAME=URL" values for the relay: each box with its first engine.
    QStringList upstreamFlags() const;
    // Adds what the flags cannot say to a config made from them: the 3090's fork, the 3060's
    // idle stop, sleep and wake, and the replicated alias.
    void addEnginesTo(Config &config) const;
    // Drives the 3090's engines in this process; the other hosts get the standard drivers.
    RelayService::DriverFactory drivers(const Config &config) const;
    // The 3060's simulated power: asleep or awake, the wake packets it got.
    DemoBoxPower *sleeperPower() const { return m_sleeperPower; }

private:
    struct Box
    {
        QString name;
        FakeLlamaServer *server;
    };
    FakeLlamaServer *box(QLatin1StringView name) const;

    Timing m_timing;
    QList<Box> m_boxes;
    DemoBoxPower *m_sleeperPower = nullptr;
    quint16 m_sleeperPort = 0;   // its engine's port, kept while the box sleeps
    FakeLlamaServer *m_fork = nullptr;   // the 3090's second engine: closed until switched to
    quint16 m_mainlinePort = 0;
    quint16 m_forkPort = 0;
};

} // namespace switchyard::fake
