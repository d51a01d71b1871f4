#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <utility>

namespace switchyard {

class ResponseWriter;

// The subscribers of GET /admin/stream and the frames they get: each event as one SSE frame
// ("event: NAME\ndata: JSON\n\n") to every subscriber, and a keepalive comment every interval, so
// a watcher (and any proxy between) tells a quiet relay from a dead connection. A subscriber that
// cannot keep up is cut rather than buffered for: it pages to catch up, as after any cut.
class AdminEventStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdminEventStream)

public:
    static constexpr std::chrono::milliseconds DefaultKeepalive{std::chrono::seconds(15)};
    using Frame = std::pair<QByteArray, QByteArray>;   // event name, data (one line of JSON)

    explicit AdminEventStream(QObject *parent = nullptr);
    ~AdminEventStream() override;

    void setKeepaliveInterval(std::chrono::milliseconds interval);
    std::chrono::milliseconds keepaliveInterval() const { return std::chrono::milliseconds(m_keepalive.interval()); }

    // Answers the request with the stream: the head, `opening` (what the subscriber needs before
    // anything changes), then every send() until the client leaves or end().
    void subscribe(ResponseWriter *writer, const QList<Frame> &opening);
    void send(QByteArrayView event, QByteArrayView json);
    // Cuts every stream (the relay stops accepting: watchers reconnect to what listens next).
    void end();
    int subscribers() const { return int(m_writers.size()); }

    static QByteArray frame(QByteArrayView event, QByteArrayView json);

private:
    void forget(ResponseWriter *writer);
    // Cuts a subscriber whose connection is still there.
    void drop(ResponseWriter *writer);
    void keepalive();

    QList<QPointer<ResponseWriter>> m_writers;
    QTimer m_keepalive;
};

} // namespace switchyard
