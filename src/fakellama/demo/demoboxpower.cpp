#include "demoboxpower.h"

#include <QNetworkDatagram>

namespace switchyard::fake {

DemoBoxPower::DemoBoxPower(QByteArray mac, std::chrono::milliseconds bootDelay, QObject *parent)
    : QObject(parent)
    , m_mac(std::move(mac))
    , m_magicPacket(QByteArray(6, char(0xFF)) + m_mac.repeated(16))
{
    m_boot.setSingleShot(true);
    m_boot.setInterval(bootDelay);
    connect(&m_boot, &QTimer::timeout, this, [this] {
        m_awake = true;
        emit wokeUp();
    });
    connect(&m_socket, &QUdpSocket::readyRead, this, &DemoBoxPower::readDatagrams);
}

bool DemoBoxPower::listen()
{
    return m_socket.bind(QHostAddress::LocalHost, 0);
}

void DemoBoxPower::readDatagrams()
{
    while (m_socket.hasPendingDatagrams()) {
        const QByteArray data = m_socket.receiveDatagram().data();
        if (data.trimmed() == SuspendWord) {
            m_boot.stop();
            if (m_awake) {
                m_awake = false;
                emit wentToSleep();
            }
        } else if (data == m_magicPacket) {
            ++m_wakePackets;
            if (!m_awake && !m_boot.isActive())
                m_boot.start();   // a packet while it boots changes nothing
            emit wakePacketReceived();
        }
    }
}

} // namespace switchyard::fake
