// The switch timeline's time: the default span (it keeps the newest switch readable) and the
// time Switchyard did not run, a gap that cuts every span (TimelineContent, TimelineScale).
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

class TstTimelineSpan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultSpanFitsTheData();
    void defaultSpanKeepsTheNewestSwitchReadable_data();
    void defaultSpanKeepsTheNewestSwitchReadable();
    void defaultSpanFromTheHistory();
    void unobservedTimeIsAGap();
    void relayStateEndsAtAGap();
    void gapsCutSpans();
};

void TstTimelineSpan::defaultSpanFitsTheData()
{
    // Issue 22, item 10: a span with room for the newest events, from a short list of plain ones.
    using namespace std::chrono;
    QCOMPARE(TimelineScale::suggestedSpan(0ms), milliseconds(minutes(2)));
    QCOMPARE(TimelineScale::suggestedSpan(90s), milliseconds(minutes(2)));
    QCOMPARE(TimelineScale::suggestedSpan(100s), milliseconds(minutes(5)));
    QCOMPARE(TimelineScale::suggestedSpan(minutes(11)), milliseconds(minutes(15)));
    QCOMPARE(TimelineScale::suggestedSpan(minutes(50)), milliseconds(hours(2)));
    QCOMPARE(TimelineScale::suggestedSpan(hours(30)), milliseconds(hours(24)));
}

void TstTimelineSpan::defaultSpanKeepsTheNewestSwitchReadable_data()
{
    // Issue 30, item 9: the span for the newest events, but no wider than shows the newest
    // switch at least `pixels` wide (its label's room, 40 px at the least); never under 5 min.
    QTest::addColumn<int>("ageSeconds");      // the newest events go back this far
    QTest::addColumn<int>("switchMs");        // the newest switch's length; -1: none
    QTest::addColumn<int>("pixels");
    QTest::addColumn<int>("plotWidth");
    QTest::addColumn<int>("minutes");
    QTest::newRow("no switch: the data's span") << 50 * 60 << -1 << 40 << 764 << 120;
    QTest::newRow("3 s switch: not 2 h but the floor") << 50 * 60 << 3000 << 70 << 764 << 5;
    QTest::newRow("1 min switch: 10 min") << 50 * 60 << 60'000 << 70 << 764 << 10;
    QTest::newRow("recent data stays narrower") << 60 << 3000 << 70 << 764 << 2;
    QTest::newRow("readable in the data's span") << 20 * 60 << 10 * 60'000 << 70 << 764 << 30;
    QTest::newRow("40 px of a 30 s switch") << 50 * 60 << 30'000 << 40 << 764 << 5;
    QTest::newRow("20 px of a 30 s switch") << 50 * 60 << 30'000 << 20 << 764 << 15;
    QTest::newRow("a wider plot, a wider span") << 50 * 60 << 30'000 << 40 << 1600 << 15;
    QTest::newRow("a day of data, a 2 h switch") << 30 * 3600 << 2 * 3600'000 << 70 << 764 << 12 * 60;
    QTest::newRow("never over a day") << 30 * 3600 << 10 * 3600'000 << 70 << 764 << 24 * 60;
}

void TstTimelineSpan::defaultSpanKeepsTheNewestSwitchReadable()
{
    QFETCH(int, ageSeconds);
    QFETCH(int, switchMs);
    QFETCH(int, pixels);
    QFETCH(int, plotWidth);
    QFETCH(int, minutes);
    const std::optional<std::chrono::milliseconds> length =
        switchMs < 0 ? std::nullopt : std::optional(std::chrono::milliseconds(switchMs));
    const std::chrono::milliseconds span =
        TimelineScale::suggestedSpan(std::chrono::seconds(ageSeconds), length, pixels, plotWidth);
    QCOMPARE(span, std::chrono::milliseconds(std::chrono::minutes(minutes)));
    // The switch gets its pixels, unless the floor is wider than that allows.
    if (length && span > TimelineScale::ReadableFloor)
        QVERIFY(double(length->count()) * plotWidth / double(span.count()) >= pixels);
}

void TstTimelineSpan::defaultSpanFromTheHistory()
{
    // A 3 s switch 10 min ago after an hour of history: 5 min, not 2 h. Its start gives the
    // length and the alias; another host's events do not count.
    History h({historyEvent(HistoryEvent::Kind::HostUp, 0, u"main"_s),
               withModel(historyEvent(HistoryEvent::Kind::SwitchStart, 3000, u"fork"_s), u"flint"_s),
               withDuration(historyEvent(HistoryEvent::Kind::SwitchEnd, 3003, u"fork"_s), 2500ms),
               historyEvent(HistoryEvent::Kind::Load, 3010, u"fork"_s),
               historyEvent(HistoryEvent::Kind::SwitchEnd, 3500, u"other"_s, {}, u"h2"_s)});
    const std::optional<Span> newest = h.content.newestSwitch({u"h1"_s});
    QVERIFY(newest);
    QCOMPARE(describe({*newest}), QStringList{u"Switch 3000-3003 fork flint"_s});
    QCOMPARE(h.content.suggestedSpan({u"h1"_s}, at(3600), 764, 70), std::optional(std::chrono::milliseconds(5min)));
    // Without the switch the data alone: an hour back, 2 h.
    QCOMPARE(h.content.suggestedSpan({u"h1"_s}, at(3600), 764, 0), std::optional(std::chrono::milliseconds(2h)));
    // A switch whose start is not in the history: its duration.
    QCOMPARE(describe({*h.content.newestSwitch({u"h2"_s})}), QStringList{u"Switch 3500-3500 other"_s});
    QVERIFY(!h.content.newestSwitch({u"h3"_s}));
    QVERIFY(!h.content.suggestedSpan({u"h3"_s}, at(3600), 764, 70));
}

void TstTimelineSpan::unobservedTimeIsAGap()
{
    // Issue 30, item 9: a clean stop (100) until the next start (200), and a crash: the start
    // at 500 had no stop before it, so nothing was observed after the last event (450, another
    // host's). Engine bars end at a gap; after one, the next sign of life starts a bar.
    History h({relayEvent(HistoryEvent::Kind::RelayStarted, 0),
               historyEvent(HistoryEvent::Kind::HostUp, 1, u"main"_s),
               relayEvent(HistoryEvent::Kind::RelayStopped, 100),
               relayEvent(HistoryEvent::Kind::RelayStarted, 200),
               historyEvent(HistoryEvent::Kind::HostUp, 202, u"main"_s),
               withModel(historyEvent(HistoryEvent::Kind::SwitchStart, 300, u"fork"_s), u"flint"_s),
               historyEvent(HistoryEvent::Kind::SwitchEnd, 303, u"fork"_s),
               historyEvent(HistoryEvent::Kind::HostUp, 450, u"x"_s, {}, u"h2"_s),
               relayEvent(HistoryEvent::Kind::RelayStarted, 500),
               historyEvent(HistoryEvent::Kind::HostUp, 501, u"fork"_s)});
    QCOMPARE(h.lane(0, 600), (QStringList{u"Engine 1-100 main"_s, u"Engine 202-300 main"_s, u"Engine 303-450 fork"_s,
                                          u"Engine 501-600 fork open"_s, u"Switch 300-303 fork flint"_s,
                                          u"Unobserved 100-200"_s, u"Unobserved 450-500"_s}));
    // The same gaps on every lane; h2's bar lay wholly in one.
    QCOMPARE(h.lane(0, 600, u"h2"_s), (QStringList{u"Unobserved 100-200"_s, u"Unobserved 450-500"_s}));
    // Clipped to the range like any span.
    QCOMPARE(h.lane(150, 250), (QStringList{u"Engine 202-250 main open"_s, u"Unobserved 150-200"_s}));
    // The tooltip says what it is; the engine row finds it over nothing else.
    const QList<Span> spans = h.content.spans(u"h1"_s, at(0), at(600));
    const std::optional<Span> gap = TimelineContent::spanAt(spans, at(150), 0, false);
    QVERIFY(gap);
    QCOMPARE(gap->kind, Kind::Unobserved);
    const QString tip = TimelineText::spanTooltip(*gap, u"h1"_s, at(600));
    QVERIFY2(tip.startsWith(u"Switchyard was not running<br>"_s), qPrintable(tip));
    QVERIFY(!TimelineContent::spanAt(spans, at(150), 0, true));   // not a lease
}

void TstTimelineSpan::relayStateEndsAtAGap()
{
    // A lease and a switch the relay had going end where it stopped observing (a crash at 30);
    // downtime is the box's: it is cut by the gap and goes on after it until the host is up.
    // Stopped at 150 and not started since: a gap until now.
    History h({relayEvent(HistoryEvent::Kind::RelayStarted, 0),
               historyEvent(HistoryEvent::Kind::HostUp, 1, u"main"_s),
               historyEvent(HistoryEvent::Kind::LeaseTaken, 10, {}, u"bench"_s),
               historyEvent(HistoryEvent::Kind::HostDown, 20, {}, u"refused"_s),
               historyEvent(HistoryEvent::Kind::SwitchStart, 30, u"fork"_s),
               relayEvent(HistoryEvent::Kind::RelayStarted, 100),
               historyEvent(HistoryEvent::Kind::HostUp, 110, u"main"_s),
               relayEvent(HistoryEvent::Kind::RelayStopped, 150)});
    QCOMPARE(h.lane(0, 200), (QStringList{u"Engine 1-20 main"_s, u"Engine 110-150 main"_s, u"Switch 30-30 fork"_s,
                                          u"Lease 10-30 bench"_s, u"Down 20-30 refused"_s, u"Down 100-110 refused"_s,
                                          u"Unobserved 30-100"_s, u"Unobserved 150-200 open"_s}));
    const std::optional<Span> now = TimelineContent::spanAt(h.content.spans(u"h1"_s, at(0), at(200)), at(180), 0, false);
    QVERIFY(now);
    QVERIFY2(TimelineText::spanTooltip(*now, u"h1"_s, at(200)).startsWith(u"Switchyard is not running<br>"_s),
             qPrintable(TimelineText::spanTooltip(*now, u"h1"_s, at(200))));
}

void TstTimelineSpan::gapsCutSpans()
{
    const auto span = [](Kind kind, int from, int to, bool ongoing = false) {
        return Span{kind, at(from), at(to), ongoing, {}, {}};
    };
    const QList<Span> gaps{span(Kind::Unobserved, 10, 20), span(Kind::Unobserved, 30, 40)};
    // Cut in three; only the last part goes on.
    QCOMPARE(describe(TimelineContent::withoutGaps({span(Kind::Down, 0, 100, true)}, gaps)),
             (QStringList{u"Down 0-10"_s, u"Down 20-30"_s, u"Down 40-100 open"_s}));
    // Wholly inside one: gone; touching one: kept; from inside one: its rest.
    QCOMPARE(describe(TimelineContent::withoutGaps({span(Kind::Engine, 12, 18), span(Kind::Engine, 0, 10),
                                                    span(Kind::Engine, 35, 50, true)}, gaps)),
             (QStringList{u"Engine 0-10"_s, u"Engine 40-50 open"_s}));
    QCOMPARE(describe(TimelineContent::withoutGaps({span(Kind::Sleep, 0, 5)}, {})), QStringList{u"Sleep 0-5"_s});
}

QTEST_GUILESS_MAIN(TstTimelineSpan)
#include "tst_timelinespan.moc"
