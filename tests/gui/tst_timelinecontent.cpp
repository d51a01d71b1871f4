// The switch timeline's content without its widget: spans paired from the history (switches,
// failures, downtime, leases, open ones at "now"), markers, activity, and what lies under a time
// or a point (TimelineContent, TimelineLayout), and the words its tooltips use (TimelineText).
#include "journal/requestrecord.h"
#include "models/inflightcounter.h"
#include "store/timelinemodel.h"
#include "timeline/requestdensity.h"
#include "timeline/timelinecontent.h"
#include "timeline/timelinelayout.h"
#include "timeline/timelinescale.h"
#include "shared/uiformat.h"
#include "timeline/timelinetext.h"

#include "timelinecontenttesthelpers.h"

#include <QTest>

using namespace switchyard;
using namespace timelinetest;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class TstTimelineContent : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nothingWithoutModelOrRange();
    void switchBetweenEngines();
    void switchWithoutItsStartTakesDuration();
    void failedSwitchCarriesReason();
    void openSpansEndAtNow();
    void downEndsAtHostUpOrSwitch();
    void sleepIsNotDowntime();
    void leaseFromLongBeforeTheRange();
    void spansAreClippedToTheRange();
    void otherHostsAreLeftOut();
    void markersAreLoadsAndUnloads();
    void spanAtPrefersOverlaysAndRows();
    void markerAtReachesTwiceTheSlack();
    void activityCountsFinishedAndRunning();
    void layoutPutsRowsInLanes();
    void textSaysWhatASpanIs();
    void markerAtPicksTheNearest();
    void tooltipsSayOnlyWhatIsThere();
    void rangeLabelsArePlain();
};


void TstTimelineContent::nothingWithoutModelOrRange()
{
    TimelineContent content;
    QVERIFY(content.spans(u"h1"_s, at(0), at(60)).isEmpty());
    QVERIFY(content.markers(u"h1"_s, at(0), at(60)).isEmpty());
    QVERIFY(!content.hasActivity());

    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"a"_s)});
    QCOMPARE(history.lane(10, 20), QStringList{u"Engine 10-20 a open"_s});
    QCOMPARE(history.lane(20, 20), QStringList());   // an empty range
    QCOMPARE(history.lane(20, 10), QStringList());   // an inverted one
}

void TstTimelineContent::switchBetweenEngines()
{
    // Engine bars first, then the switch between them, which overlaps neither.
    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"mainline"_s),
                           withModel(historyEvent(HistoryEvent::Kind::SwitchStart, 60, u"fork"_s), u"flint-40b"_s),
                           historyEvent(HistoryEvent::Kind::SwitchEnd, 63, u"fork"_s)});
    QCOMPARE(history.lane(0, 120), (QStringList{u"Engine 0-60 mainline"_s, u"Engine 63-120 fork open"_s,
                                                u"Switch 60-63 fork flint-40b"_s}));
}

void TstTimelineContent::switchWithoutItsStartTakesDuration()
{
    // The start fell out of the loaded history: the end's duration says when it began.
    const History history({withDuration(historyEvent(HistoryEvent::Kind::SwitchEnd, 50, u"fork"_s), 8s)});
    QCOMPARE(history.lane(0, 100), (QStringList{u"Engine 50-100 fork open"_s, u"Switch 42-50 fork"_s}));
}

void TstTimelineContent::failedSwitchCarriesReason()
{
    // No switch is left open, and the engine that did not come up has no bar.
    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"mainline"_s),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 10, u"fork"_s),
                           historyEvent(HistoryEvent::Kind::SwitchFailed, 25, u"fork"_s, u"exit code 1"_s)});
    QCOMPARE(history.lane(0, 60), (QStringList{u"Engine 0-10 mainline"_s, u"FailedSwitch 10-25 fork exit code 1"_s}));
}

void TstTimelineContent::openSpansEndAtNow()
{
    // A switch, a downtime and a lease still going at "now" (the end of the range) run up to it.
    const History history({historyEvent(HistoryEvent::Kind::LeaseTaken, 5, {}, u"alice"_s),
                           historyEvent(HistoryEvent::Kind::HostDown, 20, {}, u"connection refused"_s),
                           withModel(historyEvent(HistoryEvent::Kind::SwitchStart, 30, u"fork"_s), u"m1"_s)});
    QCOMPARE(history.lane(0, 45), (QStringList{u"Switch 30-45 fork m1 open"_s, u"Down 20-45 connection refused open"_s,
                                               u"Lease 5-45 alice open"_s}));
}

void TstTimelineContent::downEndsAtHostUpOrSwitch()
{
    const History history({historyEvent(HistoryEvent::Kind::HostDown, 10, {}, u"timeout"_s),
                           historyEvent(HistoryEvent::Kind::HostDown, 12, {}, u"still"_s),   // the first one counts
                           historyEvent(HistoryEvent::Kind::HostUp, 20, u"a"_s),
                           historyEvent(HistoryEvent::Kind::HostDown, 40),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 45, u"b"_s),
                           historyEvent(HistoryEvent::Kind::SwitchEnd, 50, u"b"_s)});   // brings it back
    QCOMPARE(history.lane(0, 60), (QStringList{u"Engine 20-40 a"_s, u"Engine 50-60 b open"_s, u"Down 10-20 timeout"_s,
                                               u"Switch 45-50 b"_s, u"Down 40-50"_s}));
}

void TstTimelineContent::sleepIsNotDowntime()
{
    // Issue 30: after an idle stop the polls find the engine refusing the connection. That is
    // the planned rest, no downtime; once the sleep command ran it is a sleep band, until the
    // wake-up packet (or any sign of life), and its tooltip says asleep, not down.
    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"main"_s),
                           historyEvent(HistoryEvent::Kind::IdleStop, 20, u"main"_s, u"no request for 20 s"_s),
                           historyEvent(HistoryEvent::Kind::HostDown, 21, {}, u"the engine refused the connection"_s),
                           historyEvent(HistoryEvent::Kind::SleepCommand, 22, {}, u"sleep: exit code 0"_s),
                           historyEvent(HistoryEvent::Kind::WakeSent, 100),
                           historyEvent(HistoryEvent::Kind::Woke, 104),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 104, u"main"_s),
                           historyEvent(HistoryEvent::Kind::SwitchEnd, 107, u"main"_s),
                           historyEvent(HistoryEvent::Kind::HostUp, 108, u"main"_s),
                           // Up again: a host down now is a failure again.
                           historyEvent(HistoryEvent::Kind::HostDown, 150, {}, u"timeout"_s)});
    QCOMPARE(history.lane(0, 200), (QStringList{u"Engine 0-20 main"_s, u"Engine 107-150 main"_s,
                                                u"Sleep 22-100 sleep: exit code 0"_s, u"Switch 104-107 main"_s,
                                                u"Down 150-200 timeout open"_s}));
    // Asleep now: the band goes on to the end of the range.
    QCOMPARE(history.lane(0, 60), (QStringList{u"Engine 0-20 main"_s, u"Sleep 22-60 sleep: exit code 0 open"_s}));
    const QList<Span> spans = history.content.spans(u"h1"_s, at(0), at(60));
    const std::optional<Span> under = TimelineContent::spanAt(spans, at(40), 0, false);
    QVERIFY(under);
    QCOMPARE(under->kind, Kind::Sleep);
    const QString now = TimelineText::spanTooltip(*under, u"3060"_s, at(60));
    QVERIFY2(now.startsWith(u"<b>3060</b> is asleep<br>"_s) && now.contains(u" – now ("_s), qPrintable(now));
    const Span past{Kind::Sleep, at(22), at(100), false, {}, {}};
    const QString was = TimelineText::spanTooltip(past, u"3060"_s, at(200));
    QVERIFY2(was.startsWith(u"<b>3060</b> was asleep<br>"_s) && !was.contains(u"down"_s), qPrintable(was));

    // Stopped when idle without sleeping (no sleep command): no band at all, and no downtime.
    const History idle({historyEvent(HistoryEvent::Kind::HostUp, 0, u"main"_s),
                        historyEvent(HistoryEvent::Kind::IdleStop, 20, u"main"_s),
                        historyEvent(HistoryEvent::Kind::HostDown, 21, {}, u"refused"_s)});
    QCOMPARE(idle.lane(0, 60), QStringList{u"Engine 0-20 main"_s});
}

void TstTimelineContent::leaseFromLongBeforeTheRange()
{
    // The whole history is walked: a lease taken before the range shows from the range's start;
    // one whose taking is not in the history at all starts its duration before its release.
    const History history({historyEvent(HistoryEvent::Kind::LeaseTaken, 0, {}, u"bob until 18:00"_s),
                           historyEvent(HistoryEvent::Kind::LeaseReleased, 500),
                           withDuration(historyEvent(HistoryEvent::Kind::LeaseReleased, 800, {}, u"carol"_s), 100s)});
    QCOMPARE(history.lane(400, 1000), (QStringList{u"Lease 400-500 bob until 18:00"_s, u"Lease 700-800 carol"_s}));
}

void TstTimelineContent::spansAreClippedToTheRange()
{
    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"a"_s),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 100, u"b"_s),
                           historyEvent(HistoryEvent::Kind::SwitchEnd, 130, u"b"_s),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 300, u"a"_s),
                           historyEvent(HistoryEvent::Kind::SwitchEnd, 310, u"a"_s)});
    // The first switch's tail and b's bar; the second switch is after the range.
    QCOMPARE(history.lane(110, 200), (QStringList{u"Engine 130-200 b open"_s, u"Switch 110-130 b"_s}));
    // A range between events holds only the engine that was up.
    QCOMPARE(history.lane(200, 250), QStringList{u"Engine 200-250 b open"_s});
}

void TstTimelineContent::otherHostsAreLeftOut()
{
    const History history({historyEvent(HistoryEvent::Kind::HostUp, 0, u"a"_s, {}, u"h2"_s),
                           historyEvent(HistoryEvent::Kind::HostDown, 10, {}, {}, u"h2"_s),
                           historyEvent(HistoryEvent::Kind::Load, 12, u"a"_s, {}, u"h2"_s)});
    QCOMPARE(history.lane(0, 60), QStringList());
    QVERIFY(history.content.markers(u"h1"_s, at(0), at(60)).isEmpty());
    QCOMPARE(history.lane(0, 60, u"h2"_s), (QStringList{u"Engine 0-10 a"_s, u"Down 10-60 open"_s}));
    QCOMPARE(history.content.markers(u"h2"_s, at(0), at(60)).size(), 1);
}

void TstTimelineContent::markersAreLoadsAndUnloads()
{
    const History history({withModel(historyEvent(HistoryEvent::Kind::Load, 10, u"a"_s), u"m1"_s),
                           historyEvent(HistoryEvent::Kind::SwitchStart, 15, u"b"_s),
                           historyEvent(HistoryEvent::Kind::Unload, 20, u"a"_s),
                           historyEvent(HistoryEvent::Kind::Load, 70, u"a"_s, u"out of memory"_s)});
    const QList<HistoryEvent> markers = history.content.markers(u"h1"_s, at(0), at(60));
    QCOMPARE(markers.size(), 2);
    QCOMPARE(markers.at(0).kind, HistoryEvent::Kind::Load);
    QCOMPARE(markers.at(0).model, u"m1"_s);
    QCOMPARE(markers.at(1).kind, HistoryEvent::Kind::Unload);
    // Both bounds are inside.
    QCOMPARE(history.content.markers(u"h1"_s, at(10), at(20)).size(), 2);
    QCOMPARE(history.content.markers(u"h1"_s, at(11), at(19)).size(), 0);
    QCOMPARE(history.content.markers(u"h1"_s, at(60), at(80)).value(0).detail, u"out of memory"_s);

    // Wake and idle stop (issue 20): markers, with their words in the tooltip.
    const History power({historyEvent(HistoryEvent::Kind::IdleStop, 10, u"a"_s, u"no request for 600 s"_s),
                         historyEvent(HistoryEvent::Kind::SleepCommand, 11, {}, u"true: exit code 0"_s),
                         historyEvent(HistoryEvent::Kind::WakeSent, 40, {}),
                         historyEvent(HistoryEvent::Kind::Woke, 50, {}),
                         historyEvent(HistoryEvent::Kind::WakeTimedOut, 55, {})});
    const QList<HistoryEvent> powerMarkers = power.content.markers(u"h1"_s, at(0), at(60));
    QCOMPARE(powerMarkers.size(), 5);
    QCOMPARE(powerMarkers.at(2).kind, HistoryEvent::Kind::WakeSent);
    QVERIFY(TimelineText::markerTooltip(powerMarkers.at(2), at(60)).contains(u"wake-on-LAN sent"_s));
    QVERIFY(TimelineText::markerTooltip(powerMarkers.at(0), at(60)).contains(u"no request for 600 s"_s));
    QVERIFY(TimelineText::markerTooltip(powerMarkers.at(4), at(60)).contains(u"did not wake"_s));

    // Prompt-cache saves and restores (issue 19) are markers too, with their sizes and times.
    const History caches({withDuration(withModel(historyEvent(HistoryEvent::Kind::CacheSave, 10, u"a"_s,
                                                              u"slot 0, 48213 tokens, 1131.4 MB"_s), u"m1"_s), 2s),
                          withModel(historyEvent(HistoryEvent::Kind::CacheRestore, 30, u"a"_s,
                                                 u"slot 0, 48213 tokens, 1131.4 MB"_s), u"m1"_s)});
    const QList<HistoryEvent> cacheMarkers = caches.content.markers(u"h1"_s, at(0), at(60));
    QCOMPARE(cacheMarkers.size(), 2);
    const QString saved = TimelineText::markerTooltip(cacheMarkers.at(0), at(60));
    QVERIFY2(saved.startsWith(u"prompt cache of <b>m1</b> saved (engine a)<br>"_s) && saved.contains(u"<br>took "_s)
                 && saved.endsWith(u"<br>slot 0, 48213 tokens, 1131.4 MB"_s),
             qPrintable(saved));
    QVERIFY(TimelineText::markerTooltip(cacheMarkers.at(1), at(60)).startsWith(u"prompt cache of <b>m1</b> restored"_s));
}

void TstTimelineContent::spanAtPrefersOverlaysAndRows()
{
    const QList<Span> spans{
        {Kind::Engine, at(0), at(100), false, u"a"_s, {}},
        {Kind::Switch, at(40), at(50), false, u"b"_s, {}},
        {Kind::Lease, at(30), at(60), false, {}, u"alice"_s},
    };
    // In the engine row the switch lies over the engine bar, and wins.
    QCOMPARE(TimelineContent::spanAt(spans, at(45), 0, false)->kind, Kind::Switch);
    QCOMPARE(TimelineContent::spanAt(spans, at(20), 0, false)->kind, Kind::Engine);
    // In the marker row only the lease counts.
    QCOMPARE(TimelineContent::spanAt(spans, at(45), 0, true)->kind, Kind::Lease);
    QVERIFY(!TimelineContent::spanAt(spans, at(20), 0, true));
    // The slack widens every span on both sides.
    QVERIFY(!TimelineContent::spanAt(spans, at(101), 0, false));
    QCOMPARE(TimelineContent::spanAt(spans, at(101), 1000, false)->kind, Kind::Engine);
    QCOMPARE(TimelineContent::spanAt(spans, at(51), 1000, false)->kind, Kind::Switch);
    QVERIFY(!TimelineContent::spanAt({}, at(10), 1000, false));
}

void TstTimelineContent::markerAtReachesTwiceTheSlack()
{
    const History history({withModel(historyEvent(HistoryEvent::Kind::Load, 10, u"a"_s), u"m1"_s)});
    QCOMPARE(history.content.markerAt(u"h1"_s, at(12), 1000)->model, u"m1"_s);   // 2 s away, slack 1 s
    QVERIFY(!history.content.markerAt(u"h1"_s, at(13), 1000));
    QVERIFY(history.content.markerAt(u"h1"_s, at(8), 1000));
    QVERIFY(!history.content.markerAt(u"h2"_s, at(10), 1000));
}

void TstTimelineContent::activityCountsFinishedAndRunning()
{
    RequestDensity density;
    density.add(u"h1"_s, at(10), at(20), false);
    density.add(u"h1"_s, at(15), at(30), true);
    density.add(u"h2"_s, at(10), at(20), false);
    InFlightCounter inFlight;
    RequestRecord running;
    running.host = u"h1"_s;
    running.startedAt = QDateTime::fromMSecsSinceEpoch(at(40));
    running.startedSteady = std::chrono::steady_clock::time_point(1s);
    inFlight.started(running);

    TimelineContent content;
    content.setDensity(&density);
    QVERIFY(content.hasActivity());
    const qint64 now = at(50);
    TimelineContent::Activity a = content.activity(u"h1"_s, at(16), at(18), now);
    QCOMPARE(a.requests, 2);
    QCOMPARE(a.errors, 1);
    QCOMPARE(content.activity(u"h1"_s, at(35), at(45), now).requests, 0);
    content.setInFlight(&inFlight);
    // The running request counts from its start until now, not before and not after.
    QCOMPARE(content.activity(u"h1"_s, at(35), at(45), now).requests, 1);
    QCOMPARE(content.activity(u"h1"_s, at(30), at(39), now).requests, 0);
    QCOMPARE(content.activity(u"h1"_s, at(51), at(55), now).requests, 0);
    QCOMPARE(content.activity(u"h2"_s, at(35), at(45), now).requests, 0);

    // The fullest bucket over all hosts: 2 px buckets of 1 s each over [0 s, 60 s].
    const TimelineScale scale(at(60), 500.0, 0, 120);
    QCOMPARE(content.maxActivity({u"h1"_s, u"h2"_s}, scale, 2, now), 2);
    QCOMPARE(content.maxActivity({u"h2"_s}, scale, 2, now), 1);
    QCOMPARE(TimelineContent().maxActivity({u"h1"_s}, scale, 2, now), 0);
}

void TstTimelineContent::layoutPutsRowsInLanes()
{
    QCOMPARE(TimelineLayout::plotWidthFor(TimelineLayout::LabelWidth + 8 + 600), 600);
    QCOMPARE(TimelineLayout::plotWidthFor(10), 1);
    QCOMPARE(TimelineLayout::heightFor(0), TimelineLayout::heightFor(1));
    QCOMPARE(TimelineLayout::heightFor(3), TimelineLayout::HeaderHeight + 3 * TimelineLayout::LaneHeight + 2);

    const TimelineScale scale(at(60), 100.0, TimelineLayout::LabelWidth, 600);
    const TimelineLayout layout(TimelineLayout::LabelWidth + 8 + 600, scale, 2);
    QCOMPARE(layout.laneRect(1), QRect(0, TimelineLayout::HeaderHeight + TimelineLayout::LaneHeight,
                                       TimelineLayout::LabelWidth + 8 + 600, TimelineLayout::LaneHeight));
    const QRect bar = layout.engineBarRect(1);
    QCOMPARE(bar.left(), TimelineLayout::LabelWidth);
    QCOMPARE(bar.width(), 600);
    QVERIFY(layout.laneRect(1).contains(bar));
    // Bar, markers and histogram, top to bottom, apart.
    QVERIFY(bar.bottom() < layout.markerRect(1).top());
    QVERIFY(layout.markerRect(1).bottom() < layout.densityRect(1).top());
    QVERIFY(layout.laneRect(1).contains(layout.densityRect(1)));

    QCOMPARE(layout.laneAt(0), -1);
    QCOMPARE(layout.laneAt(TimelineLayout::HeaderHeight - 1), -1);
    QCOMPARE(layout.laneAt(TimelineLayout::HeaderHeight), 0);
    QCOMPARE(layout.laneAt(bar.center().y()), 1);
    QCOMPARE(layout.laneAt(TimelineLayout::HeaderHeight + 2 * TimelineLayout::LaneHeight), -1);
    QCOMPARE(layout.densityBucketLeft(TimelineLayout::LabelWidth + 5), TimelineLayout::LabelWidth + 4);
    QCOMPARE(layout.densityBucketLeft(TimelineLayout::LabelWidth + 4), TimelineLayout::LabelWidth + 4);
}

void TstTimelineContent::textSaysWhatASpanIs()
{
    // No translator is installed: the English source texts.
    const Span engine{Kind::Engine, at(0), at(60), false, u"fork"_s, {}};
    const QString up = TimelineText::spanTooltip(engine, u"<3090>"_s, at(100));
    QVERIFY2(up.startsWith(u"Engine <b>fork</b> up on &lt;3090&gt;<br>"_s), qPrintable(up));
    QVERIFY2(!up.contains(u"now"_s), qPrintable(up));
    const Span lease{Kind::Lease, at(0), at(60), true, {}, {}};
    const QString leased = TimelineText::spanTooltip(lease, u"h1"_s, at(60));
    QVERIFY2(leased.startsWith(u"Leased by <b>someone</b><br>"_s) && leased.contains(u" – now ("_s),
             qPrintable(leased));
    const Span failed{Kind::FailedSwitch, at(0), at(5), false, u"fork"_s, u"exit <1>"_s};
    QVERIFY(TimelineText::spanTooltip(failed, u"h1"_s, at(60))
                    .startsWith(u"Switch to <b>fork</b> failed: exit &lt;1&gt;<br>"_s));
    QCOMPARE(TimelineText::switchLabel({Kind::Switch, at(0), at(5), true, u"fork"_s, {}}), u"→ fork"_s);
    QVERIFY(TimelineText::switchLabel({Kind::Switch, at(0), at(5), false, u"fork"_s, {}}).startsWith(u"→ fork · "_s));
    // The lane's label during a switch says the switch, as the host card does (#22: it still
    // named the engine being stopped); otherwise the engine.
    QCOMPARE(TimelineText::laneEngine(HostActivity::Switching, u"mainline"_s, u"mainline"_s, u"fork"_s), u"mainline → fork"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Draining, u"mainline"_s, u"mainline"_s, u"fork"_s), u"mainline → fork"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Switching, {}, {}, u"fork"_s), u"→ fork"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Switching, u"fork"_s, {}, {}), u"stopping fork"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Up, u"fork"_s, {}, {}), u"fork"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Asleep, u"main"_s, {}, {}), u"asleep"_s);
    QCOMPARE(TimelineText::laneEngine(HostActivity::Waking, u"main"_s, {}, {}), u"waking"_s);

    const HistoryEvent failedLoad = historyEvent(HistoryEvent::Kind::Load, 10, u"a"_s, u"out of memory"_s);
    const HistoryEvent load = withDuration(withModel(failedLoad, u"m1"_s), 2s);
    const QString marker = TimelineText::markerTooltip(load, at(60));
    QVERIFY2(marker.startsWith(u"<b>m1</b> loaded<br>"_s) && marker.endsWith(u"<br>out of memory"_s),
             qPrintable(marker));
    QVERIFY(marker.contains(u"<br>took "_s));
    const QString busy = TimelineText::activityTooltip({3, 1}, at(0), at(1), at(60));
    QVERIFY2(busy.startsWith(u"3 request(s) active, 1 failed<br>"_s), qPrintable(busy));
    QVERIFY(!TimelineText::activityTooltip({1, 0}, at(0), at(1), at(60)).contains(u"failed"_s));

    const qint64 midnight = QDateTime(QDate(2026, 3, 4), QTime(0, 0)).toMSecsSinceEpoch();
    const qint64 morning = QDateTime(QDate(2026, 3, 4), QTime(9, 30, 15)).toMSecsSinceEpoch();
    QCOMPARE(TimelineText::tickLabel(morning, 5000), u"09:30:15"_s);
    QCOMPARE(TimelineText::tickLabel(morning, 60 * 1000), u"09:30"_s);
    QCOMPARE(TimelineText::tickLabel(midnight, 60 * 1000), QLocale().toString(QDate(2026, 3, 4), u"d MMM"_s));
    QCOMPARE(TimelineText::tickLabel(morning, 24 * 3600 * 1000LL),
             QLocale().toString(QDate(2026, 3, 4), u"ddd d MMM"_s));
}

void TstTimelineContent::markerAtPicksTheNearest()
{
    // Issue 22, item 11: an unload glyph next to a load answers for itself, not for the load.
    const History history({withModel(historyEvent(HistoryEvent::Kind::Load, 10, u"a"_s), u"m1"_s),
                           withModel(historyEvent(HistoryEvent::Kind::Unload, 12, u"a"_s), u"m1"_s)});
    QCOMPARE(history.content.markerAt(u"h1"_s, at(12), 2000)->kind, HistoryEvent::Kind::Unload);
    QCOMPARE(history.content.markerAt(u"h1"_s, at(10), 2000)->kind, HistoryEvent::Kind::Load);
    const QString unload = TimelineText::markerTooltip(*history.content.markerAt(u"h1"_s, at(12), 2000), at(60));
    QVERIFY2(unload.startsWith(u"<b>m1</b> unloaded"_s), qPrintable(unload));
}

void TstTimelineContent::tooltipsSayOnlyWhatIsThere()
{
    // Empty space: no "0 requests active 19:16:41 – 19:16:41".
    QVERIFY(TimelineText::activityTooltip({0, 0}, at(0), at(1), at(60)).isEmpty());
    // A bucket within one second names that second once.
    const QString one = TimelineText::activityTooltip({1, 0}, at(5), at(5) + 300, at(60));
    QVERIFY2(!one.contains(u"–"_s), qPrintable(one));

    // The lease's end in words, not the history's ISO time.
    const QDateTime until = QDateTime::fromMSecsSinceEpoch(at(3600));
    const Span lease{Kind::Lease, at(0), at(60), true, {}, u"desktop until %1"_s.arg(until.toString(Qt::ISODate))};
    const QString leased = TimelineText::spanTooltip(lease, u"h1"_s, at(60));
    QVERIFY2(leased.startsWith(u"Leased by <b>desktop</b> until %1<br>"_s.arg(UiFormat::timeOfDay(until, QDateTime::fromMSecsSinceEpoch(at(60))))),
             qPrintable(leased));
    QVERIFY2(!leased.contains(u"T"_s + until.time().toString(u"HH"_s)), qPrintable(leased));
}

void TstTimelineContent::rangeLabelsArePlain()
{
    // Issue 22, item 10: "last 15 min", never "last 15 min 00 s".
    QCOMPARE(TimelineText::spanLabel(15 * 60 * 1000, true), u"last 15 min"_s);
    QCOMPARE(TimelineText::spanLabel(15 * 60 * 1000, false), u"15 min"_s);
    QCOMPARE(TimelineText::spanLabel(3600 * 1000, true), u"last 1 h"_s);
    QCOMPARE(TimelineText::spanLabel(90 * 60 * 1000, true), u"last 1 h 30 min"_s);
    QCOMPARE(TimelineText::spanLabel(24 * 3600 * 1000, true), u"last 24 h"_s);
    QCOMPARE(TimelineText::spanLabel(45 * 1000, true), u"last 45 s"_s);
    QCOMPARE(TimelineText::spanLabel(150 * 1000, false), u"2 min 30 s"_s);
}

QTEST_GUILESS_MAIN(TstTimelineContent)
#include "tst_timelinecontent.moc"
