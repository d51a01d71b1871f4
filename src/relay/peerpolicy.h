#pragma once

#include <QHostAddress>
#include <QList>
#include <QPair>

namespace switchyard {

// Which peers count as "this machine" for the admin API and leases: loopback (127.0.0.0/8 and
// ::1, also as IPv4-mapped ::ffff:127.x) unless told otherwise. The networks are settable so a
// test can call 127.0.0.2 a LAN peer and drive the real refusal path over loopback.
class PeerPolicy final
{
public:
    using Subnet = QPair<QHostAddress, int>;

    PeerPolicy();

    void setTrustedNetworks(const QList<Subnet> &networks) { m_trusted = networks; }
    QList<Subnet> trustedNetworks() const { return m_trusted; }

    bool isTrusted(const QHostAddress &peer) const;

private:
    QList<Subnet> m_trusted;
};

} // namespace switchyard
