#include "engines/wakeonlan.h"

#include <QUdpSocket>

namespace switchyard {

using namespace Qt::StringLiterals;

std::optional<QByteArray> WakeOnLan::parseMac(const QString &text)
{
    const QString t = text.trimmed();
    // Six pairs of hex digits, joined by one kind of separator.
    if (t.size() != 17)
        return std::nullopt;
    const QChar separator = t.at(2);
    if (separator != u':' && separator != u'-')
        return std::nullopt;
    QByteArray mac;
    for (int i = 0; i < MacBytes; ++i) {
        if (i > 0 && t.at(i * 3 - 1) != separator)
            return std::nullopt;
        bool ok = false;
        const QStringView pair = QStringView(t).mid(i * 3, 2);
        const uint byte = pair.toUInt(&ok, 16);
        if (!ok || pair.startsWith(u'+') || pair.startsWith(u'-'))
            return std::nullopt;
        mac.append(char(byte));
    }
    return mac;
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
