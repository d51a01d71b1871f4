#pragma once

#include <QByteArray>
#include <QList>
#include <QPointer>

namespace switchyard::fake {

class FakeHttpConnection;

// The open GET /models/sse streams. Like llama.cpp it sends nothing on
// connect and replays nothing: a subscriber hears only what happens after.
class FakeSseHub final
{
    Q_DISABLE_COPY_MOVE(FakeSseHub)

public:
    FakeSseHub() = default;

    void subscribe(FakeHttpConnection *connection);
    void unsubscribe(FakeHttpConnection *connection);
    void broadcast(const QByteArray &payload); // one `data: …\n\n` frame, one HTTP chunk
    int subscriberCount() const;

private:
    QList<QPointer<FakeHttpConnection>> m_subscribers;
};

} // namespace switchyard::fake
