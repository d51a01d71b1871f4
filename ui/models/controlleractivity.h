#pragma once

#include "shared/hostactivity.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace switchyard {

class HostController;

// What a host controller's state shows on the host's card beyond up and down: draining (what for,
// and what waits), switching, idle, asleep, waking, down after a failed switch; and the line
// that says why or what comes next.
class ControllerActivity final
{
    // The card's words keep the host table's translation context, where their German is.
    Q_DECLARE_TR_FUNCTIONS(switchyard::HostTableModel)

public:
    struct Reading
    {
        std::optional<HostActivity> activity;   // nullopt: as the polls and the lease say
        QString detail;
    };

    // nextEngine and nextWaiting: a switch the batch policy holds back while the host serves on.
    static Reading read(const HostController *controller, const QString &nextEngine, int nextWaiting);

private:
    static QString drainDetail(const HostController *controller);
};

} // namespace switchyard
