#pragma once

#include "http/incomingrequest.h"
#include "http/requesthead.h"
#include "http/responsewriter.h"
#include "http/serverlimits.h"
#include "http/responseparser.h"

#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QTimer>

#include <optional>

class QTcpSocket;

namespace switchyard {

class Clock;
class RequestHandler;

// One client TCP connection, and the relay's only HTTP request parser. A child of its socket, so
// it dies with it. It reads each request (head, then body by Content-Length or chunked framing),
// answers Expect: 100-continue, refuses oversized bodies with 413, times out slow and idle
// clients, honours HTTP/1.0 and Connection: close, and keeps one request in flight: pipelined
// requests wait here and are answered in order. (Qt 6.4's QAbstractHttpServer did none of this
// (QT64_NOTES traps 2, 4, 5), and parsing every request a second time behind it cost a quarter
// of the relay's time per request: docs/PERFORMANCE.md.)
class ClientConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientConnection)

public:
    ClientConnection(QTcpSocket *socket, const ServerLimits &limits, RequestHandler *handler, const Clock *clock);
    ~ClientConnection() override;

    QTcpSocket *socket() const { return m_socket; }
    const ServerLimits &limits() const { return m_limits; }

    // Finish what is running, answer nothing new, then close.
    void closeWhenIdle();
    bool isBusy() const { return m_active || !m_queue.isEmpty(); }

    void responseFinished(ResponseWriter *writer, bool keepAlive);

Q_SIGNALS:
    void requestQueued();

private:
    void onReadyRead();
    void readAvailable();
    void parseBuffered();
    // Returns false when the request was refused (the connection is then closing).
    bool takeHead(const RequestHead &head);
    void enqueue(IncomingRequest request);
    void onDisconnected();
    void startNext();
    void continueReading();
    void rejectAndClose(int status, const QByteArray &message, const RequestHead *head = nullptr);
    void armIdleTimer();
    // Who sent it and when: the peer is worked out once per connection, not per request.
    void stamp(IncomingRequest &request) const;

    static constexpr int MaxQueuedRequests = 8;

    QPointer<QTcpSocket> m_socket;
    ServerLimits m_limits;
    RequestHandler *m_handler;
    const Clock *m_clock;
    QHostAddress m_peer;
    QString m_peerText;

    QByteArray m_input;              // read from the socket, not yet parsed
    bool m_headComplete = false;     // m_head is the request being read; its body comes next
    RequestHead m_head;
    std::optional<ResponseParser> m_chunks;   // decodes a chunked request body
    QByteArray m_body;
    QQueue<IncomingRequest> m_queue;
    QPointer<ResponseWriter> m_active;
    bool m_closing = false;
    bool m_rejecting = false;
    QTimer m_readTimer;
    QTimer m_idleTimer;
};

} // namespace switchyard
