#pragma once

#include <QByteArray>
#include <QObject>

class QJsonObject;
class QSocketNotifier;

namespace switchyard::fake {

class DemoFleetSimulation;

// How switchyard-demo-fleet talks to the relay that started it: JSON lines on its stdin and
// stdout, no port of its own. stdout starts with the fleet's description
// ({"event":"fleet","boxes":[...]}, DemoBox::describe()) and then carries the boxes' events
// ({"host":"3090","event":"started","engine":"fork"}, "start_failed" with a "reason" of "asleep",
// "no_engine" or "port_taken", "stopped", "status" with "running", "unreachable", "gpus",
// "power"). stdin takes commands: {"host":"3090","do":"start"|"stop","engine":"fork"} and
// {"host":"3090","do":"probe"}. When stdin ends (the relay quit or died) the channel says so and
// the fleet ends with it.
class DemoFleetChannel final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleetChannel)

public:
    DemoFleetChannel(DemoFleetSimulation *fleet, QObject *parent = nullptr);

    // Writes the description, then every event of every box.
    void open();

Q_SIGNALS:
    void closed();

private:
    void write(const QJsonObject &line);
    void readCommands();
    void run(const QByteArray &line);

    DemoFleetSimulation *m_fleet;
    QSocketNotifier *m_stdin = nullptr;
    QByteArray m_buffer;
};

} // namespace switchyard::fake
