#include "hosts/hostrefusal.h"

namespace switchyard {

using namespace Qt::StringLiterals;

int HostRefusal::status() const
{
    switch (reason) {
    case Reason::Leased: return 423;
    case Reason::SwitchFailed:
    case Reason::WakeTimedOut: return 424;
    case Reason::StaticHost:
    case Reason::LeaseTakenOver:
    case Reason::LeaseReleased: return 409;
    case Reason::NoSuchEngine: return 400;
    }
    return 409;
}

QString HostRefusal::facts() const
{
    QStringList parts{u"host=%1"_s.arg(host)};
    if (!engine.isEmpty())
        parts << u"engine=%1"_s.arg(engine);
    if (!engines.isEmpty())
        parts << u"engines=%1"_s.arg(engines.join(u", "_s));
    if (!owner.isEmpty())
        parts << u"owner=%1"_s.arg(owner);
    if (until.isValid())
        parts << u"until=%1"_s.arg(until.toString(Qt::ISODate));
    if (failure)
        parts << u"failure=%1"_s.arg(failure->toString());
    if (wakeTimeout.count() > 0)
        parts << u"wake_timeout=%1"_s.arg(EngineFailure::seconds(wakeTimeout));
    return u"%1 (%2)"_s.arg(status()).arg(parts.join(u"; "_s));
}

} // namespace switchyard
