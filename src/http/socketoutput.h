#pragma once

#include <QByteArrayView>

#include <initializer_list>

#include <sys/types.h>

class QTcpSocket;

namespace switchyard {

// One sendmsg() of the parts (the first 8 that are not empty) on a non-blocking descriptor: the
// bytes the kernel took, or -1 with errno set.
ssize_t sendParts(int fd, const QByteArrayView *parts, qsizetype count);

// Sends bytes on a connected socket: straight to the kernel (one sendmsg() for all parts, no
// copy) while Qt's write buffer is empty, which on a LAN is nearly always. Only what the kernel
// does not take, and everything on a TLS socket, goes through QTcpSocket::write. Qt's buffer
// costs a copy per event, and each socket that ever wrote through it keeps a 32 KiB block:
// 13 MiB for 200 streams (docs/PERFORMANCE.md). Order is kept: while Qt still holds bytes,
// everything queues behind them; an error is left for Qt's own write to meet and report.
void sendToSocket(QTcpSocket *socket, const QByteArrayView *parts, qsizetype count);
inline void sendToSocket(QTcpSocket *socket, std::initializer_list<QByteArrayView> parts)
{
    sendToSocket(socket, parts.begin(), qsizetype(parts.size()));
}

} // namespace switchyard
