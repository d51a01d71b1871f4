#include "slowreader.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace switchyard::test {

SlowReader::SlowReader(quint16 port, int bytesPerTick, std::chrono::milliseconds tick, QObject *parent)
    : QObject(parent)
    , m_port(port)
    , m_bytesPerTick(bytesPerTick)
{
    m_timer.setInterval(tick);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_socket.state() == QAbstractSocket::ConnectedState || m_socket.bytesAvailable() > 0)
            m_received += m_socket.read(m_bytesPerTick);
    });
}

bool SlowReader::connectAndSend(const QByteArray &request)
{
    // SO_RCVBUF must be set before connect() to shrink the window the peer sees, so the socket
    // is made and connected here and then handed to Qt.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    const int rcvbuf = 4096;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(m_port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return false;
    }
    if (!m_socket.setSocketDescriptor(fd)) {
        ::close(fd);
        return false;
    }
    m_socket.setReadBufferSize(m_bytesPerTick);   // Qt must not drain the kernel buffer for us
    m_socket.write(request);
    m_socket.flush();
    m_timer.start();
    return true;
}

void SlowReader::close()
{
    m_timer.stop();
    m_socket.abort();
}

} // namespace switchyard::test
