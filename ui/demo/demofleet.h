#pragma once

#include "app/relayservice.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <chrono>

namespace switchyard {

struct Config;
class DemoFleetProcess;

// `switchyard --demo`: three simulated GPU boxes (fake llama.cpp routers on loopback, with
// realistic load times and token rates) for the relay to stand in front of, so a newcomer can
// try everything without a GPU. The boxes run in a helper process, switchyard-demo-fleet
// (DemoFleetProcess): this executable links no fake. The 3090 has two engines, "mainline" and
// "fork", so a request for a fork model shows a real engine switch (drain, start, timeline). The
// 3060 saves power: after idleStop without a request its engine stops and the box sleeps (its
// sleep_command tells the simulated box so); the next request for it wakes it with a wake-on-LAN
// packet sent to 127.0.0.1 only. strata-8b runs on the a9 and the 3060: one replicated alias.
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
    // A simulated box's power, as the helper last reported it.
    struct Power
    {
        quint16 port = 0;   // its loopback UDP port: wake packets and the "suspend" word
        QByteArray mac;
        bool awake = true;
        int wakePackets = 0;
    };
    // The names the demo shows.
    static constexpr QLatin1StringView SleeperHost{"3060"};
    static constexpr QLatin1StringView ReplicatedAlias{"strata-8b"};
    // The driver of the hosts it switches (what their cards show), and how a window tells that
    // the relay it shows is the demo's: a config with a host of that driver.
    static constexpr QLatin1StringView Driver{"demo"};
    static bool isDemo(const Config &config);

    // helper: the switchyard-demo-fleet to run (DemoFleetProcess::findHelper()).
    DemoFleet(const QString &helper, Timing timing, QObject *parent = nullptr);
    ~DemoFleet() override;

    // Starts the helper and reads what it runs.
    bool start(QString *error);
    // "--upstream NAME=URL" values for the relay: each box with its first engine.
    QStringList upstreamFlags() const;
    // Adds what the flags cannot say to a config made from them: the 3090's fork, the 3060's
    // idle stop, sleep and wake, and the replicated alias.
    void addEnginesTo(Config &config) const;
    // Drives the switching boxes' engines through the helper; the others get the standard drivers.
    RelayService::DriverFactory drivers(const Config &config) const;
    Power power(const QString &host) const { return m_power.value(host); }

private:
    struct Engine
    {
        QString name;
        QUrl url;
        QStringList models;
        QStringList argv;   // the simulated server's command line: its context size
    };
    struct Box
    {
        QString host;
        bool driven = false;   // switched through the helper, else a static host
        QList<Engine> engines;
    };
    void read(const QJsonObject &description);
    void follow(const QJsonObject &event);
    const Box *box(const QString &host) const;

    Timing m_timing;
    DemoFleetProcess *m_process;
    QList<Box> m_boxes;
    QHash<QString, QString> m_running;   // per driven host: after a config reload, its new driver knows
    QHash<QString, Power> m_power;
};

} // namespace switchyard
