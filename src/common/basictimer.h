#pragma once

#include <QBasicTimer>

#include <algorithm>
#include <chrono>
#include <climits>

namespace switchyard {

// QBasicTimer::start for a std::chrono interval (Qt 6.4 takes int milliseconds; longer ones are
// cut to INT_MAX, about 24 days). A QBasicTimer instead of a QTimer where an object is made per
// request: no QObject and no connection to make and destroy each time.
inline void startBasicTimer(QBasicTimer &timer, std::chrono::milliseconds after, QObject *receiver)
{
    timer.start(int(std::min<std::chrono::milliseconds::rep>(after.count(), INT_MAX)), receiver);
}

} // namespace switchyard
