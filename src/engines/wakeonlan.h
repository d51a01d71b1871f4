#pragma once

#include <QByteArray>
#include <QAbstractSocket>
#include <QHostAddress>
#include <QString>

#include <optional>

namespace switchyard {

// Wake-on-LAN for a host that sleeps (docs/HOSTS.md): the magic packet is 6 bytes of 0xFF, then
// the 6-byte MAC 16 times, sent as one UDP datagram to the LAN's broadcast address (port 9 by
// custom). The packet is built without I/O, so it is tested byte for byte.
class WakeOnLan
{
public:
    static constexpr int MacBytes = 6;
    static constexpr int PacketBytes = 6 + 16 * MacBytes;   // 102

    // "aa:bb:cc:dd:ee:ff" or "AA-BB-CC-DD-EE-FF": the six bytes; nullopt for anything else.
    static std::optional<QByteArray> parseMac(const QString &text);
    // The magic packet for a MAC of six bytes (empty for another length).
    static QByteArray magicPacket(const QByteArray &mac);
    // Sends it once to address:port (IPv4 only); false with *error when it could not be sent.
    // *error is fixed English (the history keeps it): never the socket's translated words.
    static bool send(const QByteArray &mac, const QHostAddress &address, quint16 port, QString *error);
    // Why a datagram was not sent, in fixed English.
    static QString socketError(QAbstractSocket::SocketError error);
};

} // namespace switchyard
