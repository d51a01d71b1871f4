#include "http/socketoutput.h"

#include <QSslSocket>
#include <QTcpSocket>

#include <sys/socket.h>
#include <sys/uio.h>

namespace switchyard {

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
        constexpr int MaxParts = 8;   // more go in later writes, through Qt
        iovec iov[MaxParts];
        int used = 0;
        for (const QByteArrayView *part = parts; part != end && used < MaxParts; ++part) {
            if (!part->isEmpty())
                iov[used++] = {const_cast<char *>(part->data()), size_t(part->size())};
        }
        msghdr message{};
        message.msg_iov = iov;
        message.msg_iovlen = size_t(used);
        const ssize_t n = ::sendmsg(int(fd), &message, MSG_NOSIGNAL | MSG_DONTWAIT);
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
