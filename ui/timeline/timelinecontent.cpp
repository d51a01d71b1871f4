#include "timeline/timelinecontent.h"

#include "models/inflightcounter.h"
#include "store/timelinemodel.h"
#include "timeline/requestdensity.h"
#include "timeline/timelinescale.h"

#include <algorithm>
#include <utility>

namespace switchyard {

namespace {

QDateTime dateAt(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms);
}

} // namespace

void TimelineContent::setEvents(const TimelineModel *model)
{
    m_model = model;
}

const TimelineModel *TimelineContent::events() const
{
    return m_model;
}

void TimelineContent::setInFlight(const InFlightCounter *inFlight)
{
    m_inFlight = inFlight;
}

QList<TimelineContent::Span> TimelineContent::spans(const QString &host, qint64 fromMs, qint64 toMs) const
{
    QList<Span> spans;
    if (!m_model || toMs <= fromMs)
        return spans;
    const QList<EngineInterval> intervals = m_model->engineIntervals(host, dateAt(fromMs), dateAt(toMs));
    for (const EngineInterval &i : intervals) {
        spans.append({Span::Kind::Engine, i.start.toMSecsSinceEpoch(),
                      i.end.isValid() ? i.end.toMSecsSinceEpoch() : toMs, i.ongoing, i.engine, {}});
    }
    // Switches, downtime, leases and sleep, paired from their start and end events. The whole
    // history up to the end of the range is walked, so a lease that began long before still shows.
    std::optional<HistoryEvent> switchStart;
    std::optional<HistoryEvent> down;
    std::optional<HistoryEvent> lease;
    std::optional<HistoryEvent> sleep;
    bool resting = false;   // since an idle stop: the engine is down on purpose
    // The times Switchyard did not run, over all hosts: each relay start after some history
    // ends one that began at the newest event before it.
    QList<Span> gaps;
    std::optional<qint64> lastAt;   // the newest event so far, of any host
    bool stopped = false;           // the newest relay event is a stop: it is not running
    auto add = [&](Span::Kind kind, qint64 start, qint64 end, bool ongoing, const QString &engine, const QString &text,
                   const QJsonObject &facts = {}) {
        if (end < fromMs || start > toMs)
            return;
        spans.append({kind, std::max(start, fromMs), std::min(end, toMs), ongoing, engine, text, facts});
    };
    // A switch or a lease is the relay's own doing: it ends when the relay stops observing.
    auto relayGone = [&](qint64 at) {
        if (switchStart) {
            add(Span::Kind::Switch, switchStart->at.toMSecsSinceEpoch(), at, false, switchStart->engine, switchStart->model);
            switchStart.reset();
        }
        if (lease) {
            add(Span::Kind::Lease, lease->at.toMSecsSinceEpoch(), at, false, {}, lease->detail);
            lease.reset();
        }
    };
    // Any sign of life ends a rest and the sleep in it.
    auto wake = [&](qint64 at) {
        resting = false;
        if (sleep) {
            add(Span::Kind::Sleep, sleep->at.toMSecsSinceEpoch(), at, false, {}, sleep->detail);
            sleep.reset();
        }
    };
    const QList<HistoryEvent> events = m_model->eventsBetween({}, dateAt(toMs));
    for (const HistoryEvent &e : events) {
        const qint64 at = e.at.toMSecsSinceEpoch();
        const std::optional<qint64> before = std::exchange(lastAt, at);
        if (e.kind == HistoryEvent::Kind::RelayStopped) {
            relayGone(at);
            stopped = true;
            continue;
        }
        if (e.kind == HistoryEvent::Kind::RelayStarted) {
            relayGone(before.value_or(at));
            if (before && *before < at)
                gaps.append({Span::Kind::Unobserved, *before, at, false, {}, {}});
            stopped = false;
            continue;
        }
        if (e.host != host)
            continue;
        switch (e.kind) {
        case HistoryEvent::Kind::SwitchStart:
        case HistoryEvent::Kind::SwitchEnd:
        case HistoryEvent::Kind::HostUp:
        case HistoryEvent::Kind::WakeSent:
        case HistoryEvent::Kind::Woke:
        case HistoryEvent::Kind::LeaseTaken:
            wake(at);
            break;
        case HistoryEvent::Kind::IdleStop:
            resting = true;
            break;
        case HistoryEvent::Kind::SleepCommand:
            if (resting && !sleep)
                sleep = e;
            break;
        default:
            break;
        }
        switch (e.kind) {
        case HistoryEvent::Kind::SwitchStart:
            switchStart = e;
            break;
        case HistoryEvent::Kind::SwitchEnd:
        case HistoryEvent::Kind::SwitchFailed: {
            const bool failed = e.kind == HistoryEvent::Kind::SwitchFailed;
            qint64 start = switchStart ? switchStart->at.toMSecsSinceEpoch()
                                       : at - (e.duration ? e.duration->count() : 0);
            const QString text = failed ? e.detail : (switchStart ? switchStart->model : QString());
            add(failed ? Span::Kind::FailedSwitch : Span::Kind::Switch, start, at, false, e.engine, text,
                failed ? e.facts : QJsonObject());
            switchStart.reset();
            if (!failed && down) {
                add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), at, false, {}, down->detail);
                down.reset();
            }
            break;
        }
        case HistoryEvent::Kind::HostDown:
            if (!down && !resting)
                down = e;
            break;
        case HistoryEvent::Kind::HostUp:
            if (down) {
                add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), at, false, {}, down->detail);
                down.reset();
            }
            break;
        case HistoryEvent::Kind::LeaseTaken:
            lease = e;
            break;
        case HistoryEvent::Kind::LeaseReleased: {
            const qint64 start = lease ? lease->at.toMSecsSinceEpoch() : at - (e.duration ? e.duration->count() : 0);
            add(Span::Kind::Lease, start, at, false, {}, lease ? lease->detail : e.detail);
            lease.reset();
            break;
        }
        default:
            break;
        }
    }
    if (switchStart)
        add(Span::Kind::Switch, switchStart->at.toMSecsSinceEpoch(), toMs, true, switchStart->engine, switchStart->model);
    if (down)
        add(Span::Kind::Down, down->at.toMSecsSinceEpoch(), toMs, true, {}, down->detail);
    if (lease)
        add(Span::Kind::Lease, lease->at.toMSecsSinceEpoch(), toMs, true, {}, lease->detail);
    if (sleep)
        add(Span::Kind::Sleep, sleep->at.toMSecsSinceEpoch(), toMs, true, {}, sleep->detail);
    if (stopped && lastAt && *lastAt < toMs)
        gaps.append({Span::Kind::Unobserved, *lastAt, toMs, true, {}, {}});
    spans = withoutGaps(spans, gaps);
    for (const Span &g : std::as_const(gaps)) {
        if (g.endMs >= fromMs && g.startMs <= toMs)
            spans.append({g.kind, std::max(g.startMs, fromMs), std::min(g.endMs, toMs), g.ongoing, {}, {}});
    }
    return spans;
}

QList<TimelineContent::Span> TimelineContent::withoutGaps(const QList<Span> &spans, const QList<Span> &gaps)
{
    QList<Span> out;
    for (const Span &s : spans) {
        // The part of s not yet looked at, cut at each gap it overlaps (gaps are in time order).
        Span rest = s;
        bool left = true;
        for (const Span &g : gaps) {
            if (g.endMs <= rest.startMs || g.startMs >= rest.endMs)
                continue;
            if (g.startMs > rest.startMs) {
                Span piece = rest;
                piece.endMs = g.startMs;
                piece.ongoing = false;
                out.append(piece);
            }
            rest.startMs = g.endMs;
            if (rest.startMs >= rest.endMs) {
                left = false;
                break;
            }
        }
        if (left)
            out.append(rest);
    }
    return out;
}

bool TimelineContent::isPowerEvent(HistoryEvent::Kind kind)
{
    return kind == HistoryEvent::Kind::WakeSent || kind == HistoryEvent::Kind::Woke
        || kind == HistoryEvent::Kind::WakeTimedOut || kind == HistoryEvent::Kind::IdleStop
        || kind == HistoryEvent::Kind::SleepCommand;
}

QList<HistoryEvent> TimelineContent::markers(const QString &host, qint64 fromMs, qint64 toMs) const
{
    QList<HistoryEvent> out;
    if (!m_model)
        return out;
    const QList<HistoryEvent> events = m_model->eventsBetween(dateAt(fromMs), dateAt(toMs));
    for (const HistoryEvent &e : events) {
        if (e.host == host && (e.kind == HistoryEvent::Kind::Load || e.kind == HistoryEvent::Kind::Unload
                               || e.kind == HistoryEvent::Kind::Failover
                               || e.kind == HistoryEvent::Kind::CacheSave || e.kind == HistoryEvent::Kind::CacheRestore
                               || isPowerEvent(e.kind)))
            out.append(e);
    }
    return out;
}

TimelineContent::Activity TimelineContent::activity(const QString &host, qint64 fromMs, qint64 toMs,
                                                    qint64 nowMs) const
{
    Activity a;
    if (m_density) {
        const RequestDensity::Count c = m_density->count(host, fromMs, toMs);
        a.requests = c.requests;
        a.errors = c.errors;
    }
    // Running requests are active from their start until now.
    if (m_inFlight && fromMs <= nowMs)
        a.requests += m_inFlight->startedBefore(host, toMs);
    return a;
}

int TimelineContent::maxActivity(const QStringList &hosts, const TimelineScale &scale, int bucketPixels,
                                 qint64 nowMs) const
{
    if (!hasActivity())
        return 0;
    int maxCount = 0;
    for (const QString &host : hosts) {
        for (int x = scale.left(); x < scale.right(); x += bucketPixels) {
            const Activity c = activity(host, scale.timeForX(x), scale.timeForX(x + bucketPixels), nowMs);
            maxCount = std::max(maxCount, c.requests);
        }
    }
    return maxCount;
}

std::optional<TimelineContent::Span> TimelineContent::spanAt(const QList<Span> &spans, qint64 t, qint64 slackMs,
                                                             bool markerRow)
{
    // Switches, downtime and sleep lie over engine bars: look at them first.
    for (int pass = 0; pass < 2; ++pass) {
        for (const Span &s : spans) {
            const bool overlay = s.kind != Span::Kind::Engine;
            if ((pass == 0) != overlay || (s.kind == Span::Kind::Lease) != markerRow)
                continue;
            if (t < s.startMs - slackMs || t > s.endMs + slackMs)
                continue;
            return s;
        }
    }
    return std::nullopt;
}

std::optional<HistoryEvent> TimelineContent::markerAt(const QString &host, qint64 t, qint64 slackMs) const
{
    // The nearest one: a load and an unload a few pixels apart each answer for their own glyph.
    const QList<HistoryEvent> near = markers(host, t - 2 * slackMs, t + 2 * slackMs);
    std::optional<HistoryEvent> best;
    qint64 bestDistance = 0;
    for (const HistoryEvent &e : near) {
        const qint64 distance = std::abs(e.at.toMSecsSinceEpoch() - t);
        if (!best || distance < bestDistance) {
            best = e;
            bestDistance = distance;
        }
    }
    return best;
}

std::optional<TimelineContent::Span> TimelineContent::newestSwitch(const QStringList &hosts) const
{
    if (!m_model)
        return std::nullopt;
    for (int row = m_model->rowCount() - 1; row >= 0; --row) {
        const HistoryEvent end = m_model->eventAt(row);
        if (end.kind != HistoryEvent::Kind::SwitchEnd || !hosts.contains(end.host))
            continue;
        const qint64 endMs = end.at.toMSecsSinceEpoch();
        qint64 startMs = endMs - (end.duration ? end.duration->count() : 0);
        QString target;
        // Its start, when it is in the history: the alias that asked for it, and the exact time.
        for (int back = row - 1; back >= 0; --back) {
            const HistoryEvent e = m_model->eventAt(back);
            if (e.host != end.host)
                continue;
            if (e.kind == HistoryEvent::Kind::SwitchStart) {
                startMs = e.at.toMSecsSinceEpoch();
                target = e.model;
            }
            if (e.kind == HistoryEvent::Kind::SwitchStart || e.kind == HistoryEvent::Kind::SwitchEnd
                || e.kind == HistoryEvent::Kind::SwitchFailed)
                break;
        }
        return Span{Span::Kind::Switch, startMs, endMs, false, end.engine, target};
    }
    return std::nullopt;
}

std::optional<std::chrono::milliseconds> TimelineContent::suggestedSpan(const QStringList &hosts, qint64 nowMs,
                                                                        int plotWidth, int switchPixels) const
{
    // The newest few events of the lanes shown decide; older history is a zoom-out away.
    if (!m_model)
        return std::nullopt;
    int seen = 0;
    qint64 oldest = nowMs;
    for (int row = m_model->rowCount() - 1; row >= 0 && seen < SpanEvents; --row) {
        const HistoryEvent e = m_model->eventAt(row);
        if (!hosts.contains(e.host))
            continue;
        oldest = std::min(oldest, e.at.toMSecsSinceEpoch());
        ++seen;
    }
    if (seen == 0)
        return std::nullopt;
    std::optional<std::chrono::milliseconds> switchLength;
    if (const std::optional<Span> last = newestSwitch(hosts))
        switchLength = std::chrono::milliseconds(last->endMs - last->startMs);
    return TimelineScale::suggestedSpan(std::chrono::milliseconds(std::max<qint64>(0, nowMs - oldest)), switchLength,
                                        switchPixels, plotWidth);
}

} // namespace switchyard
