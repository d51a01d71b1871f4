#pragma once

#include <QtGlobal>

#include <chrono>

namespace switchyard {

// The limits ClientConnection enforces on each client connection (QT64_NOTES trap 4).
struct ServerLimits
{
    qint64 maxBodyBytes = 8 * 1024 * 1024;
    qsizetype maxHeadBytes = 64 * 1024;
    std::chrono::milliseconds idleTimeout{std::chrono::seconds(60)};
    std::chrono::milliseconds requestReadTimeout{std::chrono::seconds(30)};
    // A slow reader makes QTcpSocket buffer without bound (trap 7): above this many unsent
    // bytes the response's producer is asked to pause, below the low mark to go on.
    qint64 writeHighWatermark = 512 * 1024;
    qint64 writeLowWatermark = 64 * 1024;
};

} // namespace switchyard
