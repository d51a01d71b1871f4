#pragma once

#include "app/relayservice.h"

#include <QObject>
#include <QStringList>

namespace switchyard {
struct Config;
}

namespace switchyard::fake {

class FakeLlamaServer;

// `switchyard --demo`: two simulated GPU boxes (fake llama.cpp routers on loopback, with
// realistic load times and token rates) for the relay to stand in front of, so a newcomer can
// try everything without a GPU. The 3090 has two engines, "mainline" and "fork", so a request
// for a fork model shows a real engine switch (drain, start, timeline).
class DemoFleet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleet)

public:
    explicit DemoFleet(QObject *parent = nullptr);
    ~DemoFleet() override;

    bool start(QString *error);
    // "--upstream NAME=URL" values for the relay: each box with its first engine.
    QStringList upstreamFlags() const;
    // Adds the engines the flags cannot say (the 3090's fork) to a config made from them.
    void addEnginesTo(Config &config) const;
    // Drives the 3090's engines in this process; the other hosts get the standard drivers.
    RelayService::DriverFactory drivers(const Config &config) const;

private:
    struct Box
    {
        QString name;
        FakeLlamaServer *server;
    };
    QList<Box> m_boxes;
    FakeLlamaServer *m_fork = nullptr;   // the 3090's second engine: closed until switched to
    quint16 m_mainlinePort = 0;
    quint16 m_forkPort = 0;
};

} // namespace switchyard::fake
