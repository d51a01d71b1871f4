#include "fakessehub.h"

#include "fakehttpconnection.h"

namespace switchyard::fake {

void FakeSseHub::subscribe(FakeHttpConnection *connection)
{
    m_subscribers.append(connection);
}

void FakeSseHub::unsubscribe(FakeHttpConnection *connection)
{
    m_subscribers.removeIf([connection](const QPointer<FakeHttpConnection> &c) { return !c || c == connection; });
}

void FakeSseHub::broadcast(const QByteArray &payload)
{
    const QByteArray frame = "data: " + payload + "\n\n";
    m_subscribers.removeIf([](const QPointer<FakeHttpConnection> &c) { return !c || !c->isConnected(); });
    for (const QPointer<FakeHttpConnection> &connection : std::as_const(m_subscribers))
        connection->sendChunk(frame);
}

int FakeSseHub::subscriberCount() const
{
    return int(std::count_if(m_subscribers.cbegin(), m_subscribers.cend(),
                             [](const QPointer<FakeHttpConnection> &c) { return c && c->isConnected(); }));
}

} // namespace switchyard::fake
