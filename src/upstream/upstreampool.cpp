#include "upstream/upstreampool.h"

#include "upstream/upstreamsocket.h"

namespace switchyard {

UpstreamPool::UpstreamPool(QObject *parent)
    : QObject(parent)
{
}

UpstreamPool::~UpstreamPool() = default;

const UpstreamPool::Target &UpstreamPool::target(const QUrl &base)
{
    auto it = m_targets.constFind(base);
    if (it != m_targets.constEnd())
        return *it;
    if (m_targets.size() >= 256)   // URLs come from the config: a handful, unless reloads pile up
        m_targets.clear();
    Target t;
    t.host = base.host();
    t.address.setAddress(t.host);   // stays null for a name
    t.port = quint16(base.port(80));
    t.hostHeader = base.authority(QUrl::FullyEncoded).toUtf8();
    t.pathPrefix = base.path(QUrl::FullyEncoded).toUtf8();
    while (t.pathPrefix.endsWith('/'))
        t.pathPrefix.chop(1);
    t.key = t.host + u':' + QString::number(t.port);
    return *m_targets.insert(base, t);
}

UpstreamSocket *UpstreamPool::take(const QString &key)
{
    auto it = m_idle.find(key);
    if (it == m_idle.end())
        return nullptr;
    const auto now = std::chrono::steady_clock::now();
    while (!it->isEmpty()) {
        Idle idle = it->takeLast();
        UpstreamSocket *socket = idle.socket;
        if (!socket)
            continue;
        socket->disconnect(this);
        if (socket->isConnected() && !socket->hasPendingInput() && now - idle.since < IdleTimeout) {
            socket->setParent(nullptr);
            return socket;
        }
        socket->close();
        socket->deleteLater();
    }
    return nullptr;
}

void UpstreamPool::give(const QString &key, UpstreamSocket *socket)
{
    QList<Idle> &list = m_idle[key];
    if (list.size() >= MaxIdlePerKey || !socket->isConnected()) {
        socket->close();
        socket->deleteLater();
        return;
    }
    socket->setParent(this);
    socket->setReading(true);
    // An idle connection that speaks or closes is of no further use.
    connect(socket, &UpstreamSocket::readyRead, this, [this, socket] { drop(socket); });
    list.append({socket, std::chrono::steady_clock::now()});
}

void UpstreamPool::drop(UpstreamSocket *socket)
{
    for (auto &list : m_idle) {
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list.at(i).socket == socket) {
                list.removeAt(i);
                socket->disconnect(this);
                socket->close();   // stops its notifier now: it would fire until read
                socket->deleteLater();
                return;
            }
        }
    }
}

} // namespace switchyard
