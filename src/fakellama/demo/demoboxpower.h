#pragma once

#include <QByteArray>
#include <QObject>
#include <QTimer>
#include <QUdpSocket>

#include <chrono>

namespace switchyard::fake {

// The power of a simulated GPU box in the demo fleet: awake, asleep or booting. It listens on a
// loopback UDP port only, for the two datagrams a real box reacts to: a wake-on-LAN magic packet
// for its MAC (it boots, then is awake after bootDelay), and the word "suspend" that the demo's
// sleep_command sends (it goes to sleep). Its engines do not run while it sleeps.
class DemoBoxPower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoBoxPower)

public:
    static constexpr QByteArrayView SuspendWord = "suspend";

    DemoBoxPower(QByteArray mac, std::chrono::milliseconds bootDelay, QObject *parent = nullptr);

    // Binds 127.0.0.1 only: no packet of the demo ever leaves the machine.
    bool listen();
    quint16 port() const { return m_socket.localPort(); }
    QByteArray mac() const { return m_mac; }
    bool isAwake() const { return m_awake; }
    bool isBooting() const { return m_boot.isActive(); }
    int wakePackets() const { return m_wakePackets; }

Q_SIGNALS:
    void wentToSleep();
    void wokeUp();
    void wakePacketReceived();

private:
    void readDatagrams();

    QByteArray m_mac;
    // What a network card wakes for, made here rather than taken from the relay's WakeOnLan, so
    // the demo checks the relay's packet instead of agreeing with it by construction.
    QByteArray m_magicPacket;
    QUdpSocket m_socket;
    QTimer m_boot;
    bool m_awake = true;
    int m_wakePackets = 0;
};

} // namespace switchyard::fake
