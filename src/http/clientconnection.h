#pragma once

#include "http/incomingrequest.h"
#include "http/requesthead.h"
#include "http/responsewriter.h"
#include "http/serverlimits.h"

#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QTimer>

class QTcpSocket;

namespace switchyard {

class RequestHandler;

// One client TCP connection. A child of its socket, so it dies with it. It reads every request
// head before QAbstractHttpServer does (its readyRead slot is connected first) to do what Qt 6.4
// does not: answer Expect: 100-continue, refuse oversized bodies with 413, time out slow and idle
// clients, honour HTTP/1.0 and Connection: close. It also keeps one request in flight: pipelined
// requests wait here and are answered in order (QT64_NOTES traps 2, 4, 5).
class ClientConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientConnection)

public:
    ClientConnection(QTcpSocket *socket, const ServerLimits &limits, RequestHandler *handler);
    ~ClientConnection() override;

    QTcpSocket *socket() const { return m_socket; }
    const ServerLimits &limits() const { return m_limits; }

    // Called by the server for each request it parsed on this connection, in order.
    void enqueue(IncomingRequest request);
    // The head the hook parsed for the request the server has just finished parsing.
    RequestHead takeHead();

    // Finish what is running, answer nothing new, then close.
    void closeWhenIdle();
    bool isBusy() const { return m_active || !m_queue.isEmpty(); }

    void responseFinished(ResponseWriter *writer, bool keepAlive);

Q_SIGNALS:
    void requestQueued();

private:
    void onReadyRead();
    void onDisconnected();
    void startNext();
    void rejectAndClose(int status, const QByteArray &message, const RequestHead *head = nullptr);
    void armIdleTimer();

    QPointer<QTcpSocket> m_socket;
    ServerLimits m_limits;
    RequestHandler *m_handler;

    QByteArray m_headBytes;          // bytes of the current request seen so far, until its head is complete
    bool m_headComplete = false;
    qint64 m_bodyExpected = 0;
    qint64 m_bodySeen = 0;
    bool m_chunkedBody = false;
    QQueue<RequestHead> m_heads;

    QQueue<IncomingRequest> m_queue;
    QPointer<ResponseWriter> m_active;
    bool m_closing = false;
    bool m_rejecting = false;
    QTimer m_readTimer;
    QTimer m_idleTimer;
};

} // namespace switchyard
