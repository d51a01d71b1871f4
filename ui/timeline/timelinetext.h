#pragma once

#include "shared/hostactivity.h"
#include "store/historyevent.h"
#include "timeline/timelinecontent.h"

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// The switch timeline's words for what it shows: the tooltips of spans, markers and the
// request histogram (rich text, names escaped), a switch's label on its bar and the time
// labels of the header. Pure text from the content's values, so a test reads them without
// hovering. nowMs is what "now" is: it picks how a time of day is written.
class TimelineText final
{
    Q_DECLARE_TR_FUNCTIONS(TimelineText)

public:
    static QString spanTooltip(const TimelineContent::Span &span, const QString &host, qint64 nowMs);
    static QString markerTooltip(const HistoryEvent &marker, qint64 nowMs);
    static QString activityTooltip(const TimelineContent::Activity &activity, qint64 fromMs, qint64 toMs,
                                   qint64 nowMs);
    // "→ fork" while it runs, "→ fork · 12 s" once done.
    static QString switchLabel(const TimelineContent::Span &span);
    // What a lane's label says runs: the engine, or during a drain or switch what is happening,
    // as the host card says it ("mainline → fork", "→ fork", "stopping fork"), without the time
    // (the bar shows that).
    static QString laneEngine(HostActivity activity, const QString &engine, const QString &from, const QString &to);
    // A tick at ms on a grid of stepMs: the day for day steps and midnights, else the time.
    static QString tickLabel(qint64 ms, qint64 stepMs);
    // The header over the lane names: "last 15 min" while following now, else "15 min".
    static QString spanLabel(qint64 spanMs, bool following);
    // A lease's owner from the history's "OWNER until ISO-TIME": "<b>OWNER</b> until 14:02:11".
    static QString leaseOwner(const QString &detail, qint64 nowMs);

private:
    // "10:02 – 10:05 (3 min)", or "10:02 – now (3 min)" while it goes on.
    static QString range(qint64 fromMs, qint64 toMs, bool ongoing, qint64 nowMs);
};

} // namespace switchyard
