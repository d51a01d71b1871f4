#include "hosts/hostrefusal.h"

#include <QJsonArray>

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

namespace {
const char *const ReasonNames[] = {"leased", "switch_failed", "static_host", "no_such_engine",
                                   "lease_taken_over", "lease_released", "wake_timed_out"};
} // namespace

QJsonObject HostRefusal::toJson() const
{
    QJsonObject o{{"reason"_L1, QLatin1StringView(ReasonNames[int(reason)])}, {"status"_L1, status()}};
    if (!host.isEmpty())
        o.insert("host"_L1, host);
    if (!engine.isEmpty())
        o.insert("engine"_L1, engine);
    if (!engines.isEmpty())
        o.insert("engines"_L1, QJsonArray::fromStringList(engines));
    if (!owner.isEmpty())
        o.insert("owner"_L1, owner);
    if (until.isValid())
        o.insert("until"_L1, until.toUTC().toString(Qt::ISODateWithMs));
    if (failure)
        o.insert("failure"_L1, failure->toJson());
    if (wakeTimeout.count() > 0)
        o.insert("wake_timeout_ms"_L1, double(wakeTimeout.count()));
    return o;
}

HostRefusal HostRefusal::fromJson(const QJsonObject &o)
{
    HostRefusal why;
    why.reason = Reason::SwitchFailed;   // what a relay makes of a reason it does not know
    const QString name = o.value("reason"_L1).toString();
    for (size_t i = 0; i < std::size(ReasonNames); ++i) {
        if (name == QLatin1StringView(ReasonNames[i]))
            why.reason = Reason(i);
    }
    why.host = o.value("host"_L1).toString();
    why.engine = o.value("engine"_L1).toString();
    for (const QJsonValue &v : o.value("engines"_L1).toArray())
        why.engines.append(v.toString());
    why.owner = o.value("owner"_L1).toString();
    if (o.contains("until"_L1))
        why.until = QDateTime::fromString(o.value("until"_L1).toString(), Qt::ISODateWithMs);
    if (o.value("failure"_L1).isObject())
        why.failure = EngineFailure::fromJson(o.value("failure"_L1).toObject());
    else if (why.reason == Reason::SwitchFailed)
        why.failure = EngineFailure(u"the box's agent refused: %1"_s.arg(name));
    why.wakeTimeout = std::chrono::milliseconds(qint64(o.value("wake_timeout_ms"_L1).toDouble()));
    return why;
}

} // namespace switchyard
