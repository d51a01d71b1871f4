#include "laterport.h"

#include <QRandomGenerator>
#include <QSet>
#include <QTcpServer>

namespace switchyard::test {

quint16 portForLater()
{
    constexpr quint16 First = 20000;
    constexpr quint16 Count = 12000;   // up to 31999, below the ephemeral range
    // Handed out once per process: two engines configured before either starts never share one.
    static QSet<quint16> handedOut;
    for (int attempt = 0; attempt < 200; ++attempt) {
        const auto port = quint16(First + QRandomGenerator::global()->bounded(Count));
        if (handedOut.contains(port))
            continue;
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, port)) {
            handedOut.insert(port);
            return port;
        }
    }
    qFatal("no free loopback port in 20000-31999 after 200 tries");
    return 0;
}

} // namespace switchyard::test
