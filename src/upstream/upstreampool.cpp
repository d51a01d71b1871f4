#include "upstream/upstreampool.h"

#include "upstream/upstreamsocket.h"

#include "common/basictimer.h"

#include <QTimerEvent>

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

UpstreamSocket *UpstreamPool::take(const QString &key, QObject *owner)
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
        // The one connection give() made; disconnect(this) would look it up by name.
        QObject::disconnect(idle.dropWhenReadable);
        if (socket->isConnected() && !socket->hasPendingInput() && now - idle.since < m_idleTimeout) {
            socket->setParent(owner);
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
    const auto dropWhenReadable = connect(socket, &UpstreamSocket::readyRead, this, [this, socket] { drop(socket); });
    list.append({socket, std::chrono::steady_clock::now(), dropWhenReadable});
    if (!m_sweepTimer.isActive())
        startBasicTimer(m_sweepTimer, m_idleTimeout, this);
}

void UpstreamPool::preconnect(const Target &target)
{
    const QString &key = target.key;
    for (const Idle &idle : m_idle.value(key)) {
        if (idle.socket)
            return;
    }
    const auto now = std::chrono::steady_clock::now();
    const auto pending = m_preconnecting.constFind(key);
    if (pending != m_preconnecting.cend()) {
        if (pending->socket && now - pending->since < m_idleTimeout)
            return;
        delete pending->socket;   // never connected: try again
        m_preconnecting.remove(key);
    }
    auto *socket = new UpstreamSocket(this);
    m_preconnecting.insert(key, {socket, now});
    connect(socket, &UpstreamSocket::connected, this, [this, socket, key] {
        m_preconnecting.remove(key);
        socket->disconnect(this);
        give(key, socket);
    });
    connect(socket, &UpstreamSocket::connectFailed, this, [this, socket, key] {
        m_preconnecting.remove(key);
        socket->deleteLater();   // we are inside its signal
    });
    socket->connectToHost(target.host, target.port, target.address);   // may connect at once
}

void UpstreamPool::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_sweepTimer.timerId()) {
        QObject::timerEvent(event);
        return;
    }
    closeExpired();
}

// take() refuses a connection idle for the idle timeout; this closes it, so that an engine that
// keeps connections open longer than llama-server does is not left holding ours.
void UpstreamPool::closeExpired()
{
    const auto now = std::chrono::steady_clock::now();
    bool anyLeft = false;
    for (QList<Idle> &list : m_idle) {
        list.removeIf([&](const Idle &idle) {
            if (idle.socket && now - idle.since < m_idleTimeout)
                return false;
            if (idle.socket) {
                idle.socket->disconnect(this);
                idle.socket->close();
                idle.socket->deleteLater();
            }
            return true;
        });
        anyLeft = anyLeft || !list.isEmpty();
    }
    if (!anyLeft)
        m_sweepTimer.stop();
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
