#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <chrono>

namespace switchyard::fake {

class DemoBox;

// The boxes `switchyard --demo` stands in front of, simulated (fake llama.cpp routers with
// realistic load times and token rates): the 3090 with two engines, "mainline" and "fork", so a
// request for a fork model shows a real engine switch; the a9, a static router; the 3060, a 12 GiB
// box that sleeps when told to and wakes for a wake-on-LAN packet sent to 127.0.0.1. strata-8b
// runs on the a9 and the 3060, for a replicated alias.
class DemoFleetSimulation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleetSimulation)

public:
    struct Timing
    {
        std::chrono::milliseconds boot{std::chrono::seconds(4)};   // from a wake packet until it answers
        std::chrono::milliseconds engineStart{2500};               // an engine's start on a box
    };

    DemoFleetSimulation(Timing timing, QObject *parent = nullptr);

    bool start(QString *error);
    QList<DemoBox *> boxes() const { return m_boxes; }
    DemoBox *box(const QString &host) const;
    // The line it starts with: {"event":"fleet","boxes":[DemoBox::describe(), ...]}.
    QJsonObject describe() const;

private:
    QList<DemoBox *> m_boxes;
};

} // namespace switchyard::fake
