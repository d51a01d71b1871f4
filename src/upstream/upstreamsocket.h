#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QSocketNotifier>

namespace switchyard {

// A plain TCP connection to an engine: a non-blocking descriptor watched by two
// QSocketNotifiers. It does what a relay needs and nothing more: connect, send, read into the
// caller's buffer, stop reading, close.
//
// QTcpSocket did the same at about twice the cost on the path of every request
// (docs/PERFORMANCE.md): per connection a proxy lookup, a second connect(), getsockname,
// getpeername and two getsockopts; per read an ioctl(FIONREAD) and a copy through its own
// buffer, which also kept a 16 KiB block per stream; an extra event-loop turn for its write
// notifier after connecting. Engines speak plain HTTP on the LAN, so there is no TLS here.
class UpstreamSocket final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamSocket)

public:
    enum class ConnectError { Refused, HostNotFound };
    enum class ReadResult { Data, WouldBlock, Closed };

    explicit UpstreamSocket(QObject *parent = nullptr);
    ~UpstreamSocket() override;

    // Starts connecting. `connected` may be emitted before this returns (on loopback and often
    // on a LAN the handshake is done by then); `connectFailed` never is, so callers can finish
    // setting up first. A host name is looked up with QHostInfo and its addresses are tried in
    // turn. `address`, when given, is the host already parsed as an IP address.
    void connectToHost(const QString &host, quint16 port, const QHostAddress &address = {});
    bool isConnected() const { return m_state == State::Connected; }

    // Sends the parts in one sendmsg(); what the kernel does not take now is kept and sent, in
    // order, as the socket drains. An error shows up on the reading side as Closed.
    void send(const QByteArrayView *parts, qsizetype count);
    void send(std::initializer_list<QByteArrayView> parts) { send(parts.begin(), qsizetype(parts.size())); }

    // One read() into `buffer` (up to `capacity` bytes). `got` is set for Data.
    ReadResult read(char *buffer, qsizetype capacity, qsizetype *got);
    // Whether the peer has sent bytes or closed: an idle keep-alive connection that did either
    // is of no further use.
    bool hasPendingInput() const;

    // Off: readyRead stops and TCP pushes back on the engine once the kernel buffer is full.
    void setReading(bool on);
    void close();

Q_SIGNALS:
    void connected();
    void connectFailed(switchyard::UpstreamSocket::ConnectError error);
    // Bytes or the end of the stream are waiting: call read() until WouldBlock.
    void readyRead();

private:
    enum class State { Idle, LookingUp, Connecting, Connected, Failing, Closed };
    void connectNext();
    bool finishConnect();
    void onWritable();
    void failLater(ConnectError error);
    void flushPending();
    void closeDescriptor();

    int m_fd = -1;
    State m_state = State::Idle;
    quint16 m_port = 0;
    QList<QHostAddress> m_addresses;   // still to try
    int m_lookupId = -1;
    QSocketNotifier m_readNotifier{QSocketNotifier::Read};
    QSocketNotifier m_writeNotifier{QSocketNotifier::Write};
    QByteArray m_pending;   // what the kernel has not taken yet
    bool m_reading = true;
};

} // namespace switchyard
