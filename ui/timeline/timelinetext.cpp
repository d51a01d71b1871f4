#include "timeline/timelinetext.h"

#include "shared/failurewords.h"
#include "shared/recordwords.h"
#include "shared/uiformat.h"

#include <QLocale>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QDateTime dateAt(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms);
}

} // namespace

QString TimelineText::spanLabel(qint64 spanMs, bool following)
{
    const QString span = UiFormat::span(std::chrono::milliseconds(spanMs));
    return following ? tr("last %1").arg(span) : span;
}

QString TimelineText::leaseOwner(const QString &detail, qint64 nowMs)
{
    // The history's detail is "OWNER until ISO-TIME" (or just the owner): the time in words.
    const qsizetype at = detail.lastIndexOf(u" until "_s);
    if (at < 0)
        return u"<b>%1</b>"_s.arg(detail.toHtmlEscaped());
    const QDateTime until = QDateTime::fromString(detail.mid(at + 7), Qt::ISODate);
    const QString owner = detail.left(at);
    if (!until.isValid())
        return u"<b>%1</b>"_s.arg(owner.toHtmlEscaped());
    return tr("<b>%1</b> until %2").arg(owner.toHtmlEscaped(), UiFormat::timeOfDay(until.toLocalTime(), dateAt(nowMs)));
}

QString TimelineText::range(qint64 fromMs, qint64 toMs, bool ongoing, qint64 nowMs)
{
    const QDateTime nowTime = dateAt(nowMs);
    const QString length = UiFormat::duration(std::chrono::milliseconds(toMs - fromMs));
    return ongoing ? tr("%1 – now (%2)").arg(UiFormat::timeOfDay(dateAt(fromMs), nowTime), length)
                   : tr("%1 – %2 (%3)").arg(UiFormat::timeOfDay(dateAt(fromMs), nowTime),
                                            UiFormat::timeOfDay(dateAt(toMs), nowTime), length);
}

QString TimelineText::spanTooltip(const TimelineContent::Span &s, const QString &host, qint64 nowMs)
{
    using Kind = TimelineContent::Span::Kind;
    switch (s.kind) {
    case Kind::Engine:
        return tr("Engine <b>%1</b> up on %2<br>%3").arg(s.engine.toHtmlEscaped(), host.toHtmlEscaped(),
                                                         range(s.startMs, s.endMs, s.ongoing, nowMs));
    case Kind::Switch:
        return (s.text.isEmpty() ? tr("Switching to <b>%1</b>").arg(s.engine.toHtmlEscaped())
                                 : tr("Switching to <b>%1</b> for %2").arg(s.engine.toHtmlEscaped(),
                                                                          s.text.toHtmlEscaped()))
                + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing, nowMs);
    case Kind::FailedSwitch:
        return tr("Switch to <b>%1</b> failed: %2").arg(s.engine.toHtmlEscaped(), FailureWords::recorded(s.facts, s.text).toHtmlEscaped())
                + u"<br>"_s + range(s.startMs, s.endMs, false, nowMs);
    case Kind::Down:
        return tr("<b>%1</b> was down").arg(host.toHtmlEscaped())
                + (s.text.isEmpty() ? QString() : u": "_s + RecordWords::say(s.text).toHtmlEscaped()) + u"<br>"_s
                + range(s.startMs, s.endMs, s.ongoing, nowMs);
    case Kind::Sleep:
        // A planned rest, not downtime: no reason to give.
        return (s.ongoing ? tr("<b>%1</b> is asleep") : tr("<b>%1</b> was asleep")).arg(host.toHtmlEscaped())
                + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing, nowMs);
    case Kind::Unobserved:
        // Not about this host: nothing was watching any of them.
        return (s.ongoing ? tr("Switchyard is not running") : tr("Switchyard was not running"))
                + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing, nowMs);
    case Kind::Lease:
        return tr("Leased by %1").arg(s.text.isEmpty() ? u"<b>%1</b>"_s.arg(tr("someone")) : leaseOwner(s.text, nowMs))
                + u"<br>"_s + range(s.startMs, s.endMs, s.ongoing, nowMs);
    }
    return {};
}

QString TimelineText::markerTooltip(const HistoryEvent &e, qint64 nowMs)
{
    const QString model = e.model.toHtmlEscaped();
    QString text;
    switch (e.kind) {
    case HistoryEvent::Kind::Load: text = tr("<b>%1</b> loaded").arg(model); break;
    case HistoryEvent::Kind::Failover: text = tr("<b>%1</b> failed over").arg(model); break;
    case HistoryEvent::Kind::CacheSave: text = tr("prompt cache of <b>%1</b> saved (engine %2)").arg(model, e.engine.toHtmlEscaped()); break;
    case HistoryEvent::Kind::CacheRestore: text = tr("prompt cache of <b>%1</b> restored (engine %2)").arg(model, e.engine.toHtmlEscaped()); break;
    case HistoryEvent::Kind::WakeSent:
        text = e.model.isEmpty() ? tr("<b>waking</b>: wake-on-LAN sent")
                                 : tr("<b>waking</b> for a request for <b>%1</b>: wake-on-LAN sent").arg(model);
        break;
    case HistoryEvent::Kind::Woke:
        text = e.model.isEmpty() ? tr("<b>awake</b>") : tr("<b>awake</b>, woken for a request for <b>%1</b>").arg(model);
        break;
    case HistoryEvent::Kind::WakeTimedOut:
        text = e.model.isEmpty() ? tr("<b>did not wake</b>")
                                 : tr("<b>did not wake</b> for a request for <b>%1</b>").arg(model);
        break;
    case HistoryEvent::Kind::IdleStop: text = tr("engine %1 <b>stopped</b>: idle").arg(e.engine.toHtmlEscaped()); break;
    case HistoryEvent::Kind::SleepCommand: text = tr("<b>asleep</b>: sleep command ran"); break;
    default: text = tr("<b>%1</b> unloaded").arg(model); break;
    }
    text += u"<br>"_s + UiFormat::timeOfDay(e.at, dateAt(nowMs));
    if (e.duration)
        text += u"<br>"_s + tr("took %1").arg(UiFormat::duration(*e.duration));
    if (!e.detail.isEmpty())
        text += u"<br>"_s + FailureWords::eventDetail(e.facts, e.detail).toHtmlEscaped();
    return text;
}

QString TimelineText::activityTooltip(const TimelineContent::Activity &activity, qint64 fromMs, qint64 toMs,
                                      qint64 nowMs)
{
    // Empty space has nothing to say.
    if (activity.requests <= 0 && activity.errors <= 0)
        return {};
    const QDateTime nowTime = dateAt(nowMs);
    QString text = tr("%n request(s) active", nullptr, activity.requests);
    if (activity.errors)
        text += u", "_s + tr("%n failed", nullptr, activity.errors);
    const QString from = UiFormat::timeOfDay(dateAt(fromMs), nowTime);
    const QString to = UiFormat::timeOfDay(dateAt(toMs), nowTime);
    return text + u"<br>"_s + (from == to ? from : from + u" – "_s + to);
}

QString TimelineText::switchLabel(const TimelineContent::Span &s)
{
    return s.ongoing ? tr("→ %1").arg(s.engine)
                     : tr("→ %1 · %2").arg(s.engine, UiFormat::duration(std::chrono::milliseconds(s.endMs - s.startMs)));
}

QString TimelineText::laneEngine(HostActivity activity, const QString &engine, const QString &from, const QString &to)
{
    // A sleeping box runs no engine: its lane must not name the one it ran before it slept.
    if (activity == HostActivity::Asleep)
        return tr("asleep");
    if (activity == HostActivity::Waking)
        return tr("waking");
    if (activity != HostActivity::Draining && activity != HostActivity::Switching)
        return engine;
    if (to.isEmpty())
        return tr("stopping %1").arg(from.isEmpty() ? engine : from);
    return from.isEmpty() ? tr("→ %1").arg(to) : tr("%1 → %2").arg(from, to);
}

QString TimelineText::tickLabel(qint64 ms, qint64 stepMs)
{
    const QDateTime when = dateAt(ms);
    if (stepMs >= 24 * 3600 * 1000LL)
        return QLocale().toString(when.date(), u"ddd d MMM"_s);
    if (when.time() == QTime(0, 0))
        return QLocale().toString(when.date(), u"d MMM"_s);
    if (stepMs < 60 * 1000)
        return when.toString(u"HH:mm:ss"_s);
    return when.toString(u"HH:mm"_s);
}

} // namespace switchyard
