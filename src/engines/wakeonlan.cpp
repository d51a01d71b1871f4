#include "engines/wakeonlan.h"

#include "config/macaddress.h"

#include <QUdpSocket>

namespace switchyard {

using namespace Qt::StringLiterals;

std::optional<QByteArray> WakeOnLan::parseMac(const QString &text)
{
    return parseMacAddress(text);
}

QByteArray WakeOnLan::magicPacket(const QByteArray &mac)
{
    if (mac.size() != MacBytes)
        return {};
    QByteArray packet(6, char(0xFF));
    packet.reserve(PacketBytes);
    for (int i = 0; i < 16; ++i)
        packet.append(mac);
    return packet;
}

bool WakeOnLan::send(const QByteArray &mac, const QHostAddress &address, quint16 port, QString *error)
{
    const QByteArray packet = magicPacket(mac);
    if (packet.isEmpty()) {
        *error = u"a MAC address has 6 bytes"_s;
        return false;
    }
    if (address.protocol() != QAbstractSocket::IPv4Protocol) {
        *error = u"\"%1\" is not an IPv4 address"_s.arg(address.toString());
        return false;
    }
    QUdpSocket socket;
    const qint64 sent = socket.writeDatagram(packet, address, port);
    if (sent != packet.size()) {
        *error = socket.errorString();
        return false;
    }
    return true;
}

} // namespace switchyard
