#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

namespace switchyard::fake {

// One request as the fake saw it. Times are monotonic milliseconds on the
// clock of FakeLlamaServer::nowMs() (CLOCK_MONOTONIC: the same in every process
// on the machine, and the same as a started QElapsedTimer's msecsSinceReference()).
struct ReceivedRequest
{
    qint64 seq = 0;                                 // 1, 2, 3… in arrival order
    QByteArray method;
    QByteArray path;                                // without the query
    QByteArray query;                               // without the '?'
    QList<QPair<QByteArray, QByteArray>> headers;   // as received, in order
    QByteArray body;
    qint64 receivedAtMs = -1;
    qint64 finishedAtMs = -1;  // the fake ended it: answer complete, or dropped on purpose
    qint64 cancelledAtMs = -1; // the client closed the connection before the answer was complete
    int status = 0;            // 0 until a status line went out
    int tokensSent = 0;        // generated tokens written to the client

    QByteArray header(QByteArrayView name) const;
    bool isOpen() const { return finishedAtMs < 0 && cancelledAtMs < 0; }
};

} // namespace switchyard::fake
