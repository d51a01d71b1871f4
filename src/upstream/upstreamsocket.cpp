#include "upstream/upstreamsocket.h"

#include "http/socketoutput.h"

#include <QHostInfo>

#include <cerrno>
#include <cstring>

#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace switchyard {

namespace {

socklen_t toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage *out)
{
    std::memset(out, 0, sizeof *out);
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4) {
        auto *sin = reinterpret_cast<sockaddr_in *>(out);
        sin->sin_family = AF_INET;
        sin->sin_port = htons(port);
        sin->sin_addr.s_addr = htonl(v4);
        return sizeof(sockaddr_in);
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return 0;
    auto *sin6 = reinterpret_cast<sockaddr_in6 *>(out);
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(port);
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    std::memcpy(&sin6->sin6_addr, &v6, sizeof v6);
    const QString scope = address.scopeId();   // "fe80::1%eth0": the interface of a link-local address
    if (!scope.isEmpty()) {
        bool numeric = false;
        const uint index = scope.toUInt(&numeric);
        sin6->sin6_scope_id = numeric ? index : if_nametoindex(scope.toLocal8Bit().constData());
    }
    return sizeof(sockaddr_in6);
}

// 0 when the descriptor's pending connect succeeded, else the error.
int connectError(int fd)
{
    int error = 0;
    socklen_t length = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
        return errno;
    return error;
}

} // namespace

UpstreamSocket::UpstreamSocket(QObject *parent)
    : QObject(parent)
{
    connect(&m_readNotifier, &QSocketNotifier::activated, this, &UpstreamSocket::readyRead);
    connect(&m_writeNotifier, &QSocketNotifier::activated, this, &UpstreamSocket::onWritable);
}

UpstreamSocket::~UpstreamSocket()
{
    close();
}

void UpstreamSocket::connectToHost(const QString &host, quint16 port, const QHostAddress &address)
{
    close();
    m_port = port;
    QHostAddress literal = address;
    if (!literal.isNull() || literal.setAddress(host)) {
        m_addresses = {literal};
        connectNext();
        return;
    }
    m_state = State::LookingUp;
    m_lookupId = QHostInfo::lookupHost(host, this, [this](const QHostInfo &info) {
        m_lookupId = -1;
        if (m_state != State::LookingUp)
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
            m_state = State::Closed;
            emit connectFailed(ConnectError::HostNotFound);
            return;
        }
        m_addresses = info.addresses();
        connectNext();
    });
}

// Tries the addresses left in turn, as QAbstractSocket does, until one connects or is pending.
void UpstreamSocket::connectNext()
{
    while (!m_addresses.isEmpty()) {
        sockaddr_storage address;
        const socklen_t length = toSockaddr(m_addresses.takeFirst(), m_port, &address);
        if (length == 0)
            continue;
        m_fd = ::socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            continue;
        const int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        m_readNotifier.setSocket(m_fd);
        m_writeNotifier.setSocket(m_fd);
        m_state = State::Connecting;
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), length) == 0) {
            finishConnect();
            return;
        }
        if (errno == EINPROGRESS) {
            // On loopback, and often on a LAN, the handshake is already done: no need to wait
            // for the next turn of the event loop to find out.
            pollfd ready{m_fd, POLLOUT, 0};
            if (::poll(&ready, 1, 0) == 1) {
                if (finishConnect())
                    return;
                continue;   // refused at once: finishConnect closed the descriptor
            }
            m_writeNotifier.setEnabled(true);
            return;
        }
        closeDescriptor();
    }
    failLater(ConnectError::Refused);
}

// Called once the descriptor is writable while connecting. False (and the descriptor closed)
// when the connection failed.
bool UpstreamSocket::finishConnect()
{
    if (connectError(m_fd) != 0) {
        closeDescriptor();
        return false;
    }
    m_state = State::Connected;
    m_writeNotifier.setEnabled(!m_pending.isEmpty());
    m_readNotifier.setEnabled(m_reading);
    emit connected();
    return true;
}

void UpstreamSocket::onWritable()
{
    if (m_state == State::Connecting) {
        m_writeNotifier.setEnabled(false);
        if (!finishConnect())
            connectNext();
        return;
    }
    flushPending();
}

void UpstreamSocket::failLater(ConnectError error)
{
    m_state = State::Failing;
    QMetaObject::invokeMethod(this, [this, error] {
        if (m_state != State::Failing)
            return;
        m_state = State::Closed;
        emit connectFailed(error);
    }, Qt::QueuedConnection);
}

void UpstreamSocket::send(const QByteArrayView *parts, qsizetype count)
{
    if (m_state != State::Connected || !m_pending.isEmpty()) {
        for (qsizetype i = 0; i < count; ++i)
            m_pending.append(parts[i]);
        return;
    }
    const ssize_t n = sendParts(m_fd, parts, count);
    qsizetype sent = n > 0 ? qsizetype(n) : 0;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        return;   // the reading side meets the same error as a close
    for (qsizetype i = 0; i < count; ++i) {
        if (sent >= parts[i].size()) {
            sent -= parts[i].size();
            continue;
        }
        m_pending.append(parts[i].sliced(sent));
        sent = 0;
    }
    if (!m_pending.isEmpty())
        m_writeNotifier.setEnabled(true);
}

void UpstreamSocket::flushPending()
{
    while (!m_pending.isEmpty()) {
        const ssize_t n = ::send(m_fd, m_pending.constData(), size_t(m_pending.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            m_pending.remove(0, n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;   // the notifier stays on
        m_pending.clear();   // an error: the reading side sees it
    }
    m_writeNotifier.setEnabled(false);
}

UpstreamSocket::ReadResult UpstreamSocket::read(char *buffer, qsizetype capacity, qsizetype *got)
{
    if (m_fd < 0)
        return ReadResult::Closed;
    const ssize_t n = ::read(m_fd, buffer, size_t(capacity));
    if (n > 0) {
        *got = qsizetype(n);
        return ReadResult::Data;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return ReadResult::WouldBlock;
    return ReadResult::Closed;   // the end of the stream, or a reset
}

bool UpstreamSocket::hasPendingInput() const
{
    if (m_fd < 0)
        return true;
    pollfd input{m_fd, POLLIN | POLLRDHUP, 0};
    return ::poll(&input, 1, 0) != 0;
}

void UpstreamSocket::setReading(bool on)
{
    m_reading = on;
    if (m_state == State::Connected)
        m_readNotifier.setEnabled(on);
}

void UpstreamSocket::close()
{
    if (m_lookupId >= 0) {
        QHostInfo::abortHostLookup(m_lookupId);
        m_lookupId = -1;
    }
    m_state = State::Closed;
    m_addresses.clear();
    m_pending.clear();
    closeDescriptor();
}

void UpstreamSocket::closeDescriptor()
{
    if (m_fd < 0)
        return;
    m_readNotifier.setSocket(-1);   // unregisters the notifiers before the descriptor goes
    m_writeNotifier.setSocket(-1);
    ::close(m_fd);
    m_fd = -1;
}

} // namespace switchyard
