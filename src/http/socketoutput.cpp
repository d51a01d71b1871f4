#include "http/socketoutput.h"

#include <QSslSocket>
#include <QTcpSocket>

#include <sys/socket.h>
#include <sys/uio.h>

namespace switchyard {

ssize_t sendParts(int fd, const QByteArrayView *parts, qsizetype count)
{
    constexpr int MaxParts = 8;   // more go in later writes
    iovec iov[MaxParts];
    int used = 0;
    for (qsizetype i = 0; i < count && used < MaxParts; ++i) {
        if (!parts[i].isEmpty())
            iov[used++] = {const_cast<char *>(parts[i].data()), size_t(parts[i].size())};
    }
    if (used == 0)
        return 0;
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = size_t(used);
    return ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void sendToSocket(QTcpSocket *socket, const QByteArrayView *parts, qsizetype count)
{
    const QByteArrayView *end = parts + count;
    qsizetype total = 0;
    for (const QByteArrayView *part = parts; part != end; ++part)
        total += part->size();
    if (total == 0 || !socket)
        return;
    qsizetype sent = 0;
    const qintptr fd = socket->socketDescriptor();
    if (fd >= 0 && socket->bytesToWrite() == 0 && socket->state() == QAbstractSocket::ConnectedState
        && !qobject_cast<QSslSocket *>(socket)) {
        const ssize_t n = sendParts(int(fd), parts, count);
        if (n > 0)
            sent = qsizetype(n);
        if (sent == total)
            return;
    }
    for (const QByteArrayView *part = parts; part != end; ++part) {
        if (sent >= part->size()) {
            sent -= part->size();
            continue;
        }
        socket->write(part->data() + sent, part->size() - sent);
        sent = 0;
    }
    socket->flush();
}

} // namespace switchyard
