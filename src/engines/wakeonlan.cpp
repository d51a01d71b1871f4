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
    if (sent == packet.size())
        return true;
    // Fixed English, not the socket's errorString(): Qt's catalogue translates that, and the
    // history (and /admin/events) keeps this in English.
    *error = sent < 0 ? socketError(socket.error()) : u"only %1 of %2 bytes were sent"_s.arg(sent).arg(packet.size());
    return false;
}

QString WakeOnLan::socketError(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::SocketAccessError: return u"not allowed to send it"_s;
    case QAbstractSocket::SocketResourceError: return u"out of sockets"_s;
    case QAbstractSocket::DatagramTooLargeError: return u"the datagram is too large"_s;
    case QAbstractSocket::NetworkError: return u"the system would not send it"_s;
    case QAbstractSocket::UnsupportedSocketOperationError: return u"this system cannot send it"_s;
    case QAbstractSocket::AddressInUseError: return u"the address is in use"_s;
    case QAbstractSocket::SocketAddressNotAvailableError: return u"the address is not available here"_s;
    default: return u"socket error %1"_s.arg(int(error));
    }
}

} // namespace switchyard
