#pragma once

#include "shared/hostactivity.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace switchyard {

// The tray icon's four looks, decided from the hosts and the requests in flight.
class TrayState final
{
    Q_DECLARE_TR_FUNCTIONS(TrayState)

public:
    enum class Kind { Idle, Busy, Switching, Error };

    // Any host down: Error. Else any switching or draining: Switching. Else anything in
    // flight: Busy. Else Idle. A leased host is not an error: it is someone else's turn.
    static Kind compute(const QList<HostActivity> &hosts, int requestsInFlight);
    static QString iconPath(Kind kind);
    static QString title(Kind kind);

    TrayState() = delete;
};

} // namespace switchyard
