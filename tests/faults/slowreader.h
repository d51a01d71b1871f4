#pragma once

#include <QByteArray>
#include <QObject>
#include <QTcpSocket>
#include <QTimer>

#include <chrono>

namespace switchyard::test {

// A client that reads its response slowly: a tiny kernel receive buffer (SO_RCVBUF), a tiny Qt
// read buffer, and a fixed number of bytes taken per tick of a timer. The relay sees a peer whose
// window stays almost closed, as with a client on a bad link or one stopped in a debugger.
class SlowReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SlowReader)

public:
    SlowReader(quint16 port, int bytesPerTick, std::chrono::milliseconds tick, QObject *parent = nullptr);

    bool connectAndSend(const QByteArray &request);
    void close();
    quint16 localPort() const { return m_socket.localPort(); }
    qint64 received() const { return m_received.size(); }
    const QByteArray &data() const { return m_received; }

private:
    QTcpSocket m_socket;
    QTimer m_timer;
    quint16 m_port;
    int m_bytesPerTick;
    QByteArray m_received;
};

} // namespace switchyard::test
