#include "relay/peerpolicy.h"

namespace switchyard {

PeerPolicy::PeerPolicy()
    : m_trusted{{QHostAddress(QStringLiteral("127.0.0.0")), 8}, {QHostAddress(QHostAddress::LocalHostIPv6), 128}}
{
}

bool PeerPolicy::isTrusted(const QHostAddress &peer) const
{
    QHostAddress address = peer;
    // A server on "::" sees IPv4 peers as ::ffff:a.b.c.d (QT64_NOTES trap 6).
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4);
    if (isV4)
        address = QHostAddress(v4);
    for (const Subnet &net : m_trusted) {
        if (address.isInSubnet(net.first, net.second))
            return true;
    }
    return false;
}

} // namespace switchyard
