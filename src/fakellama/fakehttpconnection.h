#pragma once

#include "fakehttprequest.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

class QTcpSocket;

namespace switchyard::fake {

// One client connection: parses requests (request line, headers, a
// Content-Length or chunked body), hands them out one at a time, and writes
// exactly the bytes it is given. The next request on a keep-alive connection is
// parsed only once the current answer is complete, so answers never interleave.
class FakeHttpConnection final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeHttpConnection)

public:
    enum class After { KeepAlive, Close };

    // Takes ownership of the socket. Deletes itself once the socket is closed.
    explicit FakeHttpConnection(QTcpSocket *socket, QObject *parent = nullptr);
    ~FakeHttpConnection() override;

    bool isConnected() const;
    bool isAnswering() const;

    // A whole answer; the body is left out for a HEAD request.
    void sendResponse(const QByteArray &head, const QByteArray &body, After after);
    void startChunked(const QByteArray &head);
    void sendChunk(const QByteArray &payload); // one HTTP chunk
    void finishChunked(After after);            // the last, empty chunk
    void sendChunkedResponse(const QByteArray &head, const QByteArray &body, After after);
    // Closes at once, the answer unfinished: what a crashed or killed engine does.
    void drop();

    // llama-server closes idle keep-alive connections after 5 s.
    static constexpr std::chrono::milliseconds IdleTimeout{5000};

signals:
    void requestReady(const switchyard::fake::FakeHttpRequest &request);
    // The client went away while its request was still being answered.
    void peerClosed();
    void closed();

private:
    enum class State { Reading, Answering, Closing, Closed };

    void onReadyRead();
    void onDisconnected();
    void parseNext();
    bool parseHead(qsizetype headEnd);
    // The bytes the body takes in the buffer once complete; -1 while
    // incomplete, -2 if malformed.
    qsizetype bodyComplete(QByteArray *body);
    void answerComplete(After after);
    void rejectMalformed();

    QPointer<QTcpSocket> m_socket;
    QTimer m_idleTimer;
    QByteArray m_buffer;
    State m_state = State::Reading;
    bool m_headParsed = false;
    bool m_sentContinue = false;
    bool m_headRequest = false; // a HEAD request gets the headers only
    qsizetype m_bodyStart = 0;
    FakeHttpRequest m_pending;
};

} // namespace switchyard::fake
