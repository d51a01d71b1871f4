#include "tray/traystate.h"

namespace switchyard {

using namespace Qt::StringLiterals;

TrayState::Kind TrayState::compute(const QList<HostActivity> &hosts, int requestsInFlight)
{
    bool switching = false;
    for (HostActivity a : hosts) {
        if (a == HostActivity::Down)
            return Kind::Error;
        if (a == HostActivity::Switching || a == HostActivity::Draining || a == HostActivity::Waking)
            switching = true;
    }
    if (switching)
        return Kind::Switching;
    return requestsInFlight > 0 ? Kind::Busy : Kind::Idle;
}

QString TrayState::iconPath(Kind kind)
{
    switch (kind) {
    case Kind::Idle: return u":/icons/tray-idle.svg"_s;
    case Kind::Busy: return u":/icons/tray-busy.svg"_s;
    case Kind::Switching: return u":/icons/tray-switching.svg"_s;
    case Kind::Error: return u":/icons/tray-error.svg"_s;
    }
    return {};
}

QString TrayState::title(Kind kind)
{
    switch (kind) {
    case Kind::Idle: return tr("idle");
    case Kind::Busy: return tr("relaying");
    case Kind::Switching: return tr("switching engines");
    case Kind::Error: return tr("a host is down");
    }
    return {};
}

} // namespace switchyard
