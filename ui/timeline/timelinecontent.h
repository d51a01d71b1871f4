#pragma once

#include "store/historyevent.h"

#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace switchyard {

class InFlightCounter;
class RequestDensity;
class TimelineModel;
class TimelineScale;

// What the switch timeline shows on one host's lane over a range of time, apart from how it is
// painted: the spans (engine up, switching, failed switch, down, leased, asleep) paired from the
// history's start and end events, the load and unload markers, the request activity, and which
// of them lies at a given time. No widgets, so it is tested with a model and a clock alone.
class TimelineContent final
{
public:
    // A stretch of time on one lane, as painted and as a tooltip explains it.
    struct Span
    {
        // Sleep: the box was put to sleep after an idle stop (its sleep command ran) until it
        // was woken or answered again; a planned rest, not a failure.
        // Unobserved: Switchyard was not running (issue 30, item 9), so nothing is known of any
        // lane then; the same on every lane.
        enum class Kind { Engine, Switch, FailedSwitch, Down, Lease, Sleep, Unobserved };
        Kind kind;
        qint64 startMs;
        qint64 endMs;
        bool ongoing = false;   // still going at the end of the range ("now")
        QString engine;
        QString text;   // switch target, down reason, lease owner
        QJsonObject facts{};   // a failed switch's: what `text` words (hosts/recordedfacts.h); empty in older history
    };

    // Finished requests from the density plus running ones.
    struct Activity
    {
        int requests = 0;
        int errors = 0;
    };

    // None is owned; each may be null (then it adds nothing).
    void setEvents(const TimelineModel *model);
    const TimelineModel *events() const;
    void setDensity(const RequestDensity *density) { m_density = density; }
    void setInFlight(const InFlightCounter *inFlight);
    bool hasActivity() const { return m_density || !m_inFlight.isNull(); }

    // Engine spans from the model's intervals first, then switches, downtime, leases and sleep,
    // each clipped to [fromMs, toMs]; one not ended by toMs is ongoing and ends there. After an
    // idle stop the engine is down on purpose: a "host down" the polls record then (until an
    // engine starts, a wake or the host answers) is not downtime.
    // Last, the times Switchyard did not run (Unobserved): from the last event before a relay
    // start until that start (after a clean stop that is the stop; after a crash, whatever came
    // last), and after a stop with no start yet, until toMs. No other span covers them: engine
    // bars, downtime and sleep are cut there, and a switch or lease the relay had going ends
    // where it stopped observing.
    QList<Span> spans(const QString &host, qint64 fromMs, qint64 toMs) const;
    // spans without the parts that lie in a gap (an Unobserved span); a span cut in two keeps
    // `ongoing` on its second part only.
    static QList<Span> withoutGaps(const QList<Span> &spans, const QList<Span> &gaps);
    // Loads and unloads on host with fromMs <= at <= toMs, in time order.
    QList<HistoryEvent> markers(const QString &host, qint64 fromMs, qint64 toMs) const;
    // Wake-on-LAN and idle stop events (issue 20): circles on the marker row.
    static bool isPowerEvent(HistoryEvent::Kind kind);
    // Requests active in [fromMs, toMs); running ones count as active up to nowMs.
    Activity activity(const QString &host, qint64 fromMs, qint64 toMs, qint64 nowMs) const;
    // The most requests active in any bucket of bucketPixels across the scale, over all hosts:
    // what a full histogram bar means.
    int maxActivity(const QStringList &hosts, const TimelineScale &scale, int bucketPixels,
                    qint64 nowMs) const;

    // The span at time t, give or take slackMs: in the marker row only leases; in the engine
    // row switches and downtime before the engine bars they lie over.
    static std::optional<Span> spanAt(const QList<Span> &spans, qint64 t, qint64 slackMs, bool markerRow);
    // The first load or unload within 2 * slackMs of t (markers are small: a wider reach).
    std::optional<HistoryEvent> markerAt(const QString &host, qint64 t, qint64 slackMs) const;

    // The newest finished switch on these hosts (from its switch_start, or its switch_end's
    // duration), as its span; nullopt without one.
    std::optional<Span> newestSwitch(const QStringList &hosts) const;
    // The default span for the newest SpanEvents events of these hosts, and no wider than keeps
    // their newest switch switchPixels wide in plotWidth (TimelineScale::suggestedSpan());
    // nullopt without any event.
    static constexpr int SpanEvents = 6;
    std::optional<std::chrono::milliseconds> suggestedSpan(const QStringList &hosts, qint64 nowMs, int plotWidth,
                                                           int switchPixels) const;

private:
    QPointer<const TimelineModel> m_model;
    const RequestDensity *m_density = nullptr;
    QPointer<const InFlightCounter> m_inFlight;
};

} // namespace switchyard
