// The switch timeline readable at its default span (issue 30 items 8 and 9): the label of a switch
// too narrow for it drawn beside its bar (TimelineLabels, and the widget that paints it), and the
// legend's entry for the hatched gap when Switchyard was not running. Offscreen and under Xvfb.
#include "common/clock.h"
#include "models/hosttablemodel.h"
#include "shared/statuspalette.h"
#include "store/timelinemodel.h"
#include "timeline/timelinelabels.h"
#include "timeline/timelinetext.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"

#include "timelinecontenttesthelpers.h"

#include <QApplication>
#include <QLabel>
#include <QTest>
#include <QToolTip>

using namespace switchyard;
using namespace timelinetest;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// Now is a second count from the helpers' origin.
class SecondsClock final : public Clock
{
public:
    explicit SecondsClock(int seconds) : m_ms(at(seconds)) {}
    QDateTime now() const override { return QDateTime::fromMSecsSinceEpoch(m_ms); }

private:
    qint64 m_ms;
};

HistoryEvent switchEnd(int seconds, const QString &engine, std::chrono::milliseconds took)
{
    HistoryEvent e = historyEvent(HistoryEvent::Kind::SwitchEnd, seconds, engine);
    e.duration = took;
    return e;
}

bool apart(const QRectF &a, const QRectF &b)
{
    return a.right() <= b.left() || b.right() <= a.left();
}

} // namespace

class TstTimelineLabels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void placedBesideTheBar_data();
    void placedBesideTheBar();
    void labelsDoNotOverlapEachOther();
    void engineLabelMovesPastALabel();
    void newestShortSwitchLabelledAtTheDefaultSpan();
    void switchAtNowLabelledOnItsLeft();
    void legendNamesTheGap();
};

void TstTimelineLabels::placedBesideTheBar_data()
{
    // A bar at 100-108 px of a plot from 0 to 400, its text 60 px (the frame 70).
    QTest::addColumn<QList<QRectF>>("obstacles");
    QTest::addColumn<qreal>("right");
    QTest::addColumn<QRectF>("frame");
    const qreal w = 60 + 2 * TimelineLabels::Padding;
    const qreal g = TimelineLabels::Gap;
    QTest::newRow("room on the right") << QList<QRectF>{} << qreal(400) << QRectF(108 + g, 0, w, 20);
    QTest::newRow("the next switch: on the left") << QList<QRectF>{QRectF(150, 0, 5, 20)} << qreal(400)
                                                   << QRectF(100 - g - w, 0, w, 20);
    QTest::newRow("the plot's end (now): on the left") << QList<QRectF>{} << qreal(150) << QRectF(100 - g - w, 0, w, 20);
    QTest::newRow("blocked both sides: none") << QList<QRectF>{QRectF(150, 0, 5, 20), QRectF(40, 0, 5, 20)} << qreal(400)
                                               << QRectF();
    QTest::newRow("its own bar is no obstacle") << QList<QRectF>{QRectF(100, 0, 8, 20)} << qreal(400)
                                                << QRectF(108 + g, 0, w, 20);
    QTest::newRow("a bar right after it, closer than a gap") << QList<QRectF>{QRectF(108 + g + w + 1, 0, 50, 20)}
                                                             << qreal(400) << QRectF(100 - g - w, 0, w, 20);
}

void TstTimelineLabels::placedBesideTheBar()
{
    QFETCH(QList<QRectF>, obstacles);
    QFETCH(qreal, right);
    QFETCH(QRectF, frame);
    const QList<QRectF> placed = TimelineLabels::place({{QRectF(100, 0, 8, 20), 60}}, obstacles, 0, right);
    QCOMPARE(placed.size(), 1);
    QCOMPARE(placed.first(), frame);
    // Never out of the plot, never on a bar.
    if (!frame.isNull()) {
        QVERIFY(frame.left() >= 0 && frame.right() <= right);
        for (const QRectF &o : std::as_const(obstacles))
            QVERIFY(o == QRectF(100, 0, 8, 20) || apart(frame, o));
    }
}

void TstTimelineLabels::labelsDoNotOverlapEachOther()
{
    // Two narrow switches 20 px apart: the first (the newest) takes its right; the older one
    // cannot go right (onto the newer bar) and goes left. A third between them finds no room.
    const QList<TimelineLabels::Bar> bars{{QRectF(200, 0, 6, 20), 60}, {QRectF(180, 0, 6, 20), 60}};
    const QList<QRectF> placed = TimelineLabels::place(bars, {}, 0, 400);
    QCOMPARE(placed.size(), 2);
    QCOMPARE(placed.at(0).left(), 206 + TimelineLabels::Gap);
    QCOMPARE(placed.at(1).right(), 180 - TimelineLabels::Gap);
    QVERIFY(apart(placed.at(0), placed.at(1)));
    const QList<QRectF> three = TimelineLabels::place(bars + QList<TimelineLabels::Bar>{{QRectF(192, 0, 4, 20), 60}}, {}, 0, 400);
    QVERIFY(three.at(2).isNull());
}

void TstTimelineLabels::engineLabelMovesPastALabel()
{
    const QRectF bar(100, 0, 300, 20);
    QCOMPARE(TimelineLabels::labelStart(bar, 40, {}), 106.0);
    // A label over the bar's start: the engine's name after it.
    QCOMPARE(TimelineLabels::labelStart(bar, 40, {QRectF(95, 0, 80, 20)}), 181.0);
    // Elsewhere on the bar, or outside it: no matter.
    QCOMPARE(TimelineLabels::labelStart(bar, 40, {QRectF(300, 0, 80, 20), QRectF(10, 0, 80, 20), QRectF()}), 106.0);
    // No room left after it: not drawn.
    QCOMPARE(TimelineLabels::labelStart(QRectF(100, 0, 120, 20), 40, {QRectF(95, 0, 80, 20)}), -1.0);
    QCOMPARE(TimelineLabels::labelStart(QRectF(100, 0, 40, 20), 40, {}), -1.0);
}

void TstTimelineLabels::newestShortSwitchLabelledAtTheDefaultSpan()
{
    // Issue 30 item 9: a 3 s switch two minutes ago after an hour of history. The default span
    // is the 5 min floor, where the switch is ~9 px: its label "→ fork · 3.0 s" beside it.
    SecondsClock clock(3600);
    TimelineModel events;
    events.append(historyEvent(HistoryEvent::Kind::HostUp, 0, u"mainline"_s));
    events.append(historyEvent(HistoryEvent::Kind::SwitchStart, 3480, u"fork"_s));
    events.append(switchEnd(3483, u"fork"_s, 3000ms));
    TimelineWidget timeline(clock);
    timeline.setEvents(&events);
    timeline.setHosts({u"h1"_s});
    timeline.resize(1000, timeline.sizeHint().height());
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QVERIFY(timeline.isAutoSpan());
    QCOMPARE(timeline.scale().spanMs(), qint64(5 * 60 * 1000));

    const QList<TimelineWidget::LabelBeside> labels = timeline.labelsBeside(0);
    QCOMPARE(labels.size(), 1);
    const TimelineWidget::LabelBeside &label = labels.first();
    QCOMPARE(label.text, TimelineText::switchLabel(label.span));
    QVERIFY2(label.text.contains(u"fork"_s) && label.text.contains(u"3"_s), qPrintable(label.text));
    QVERIFY2(label.bar.width() < 20, qPrintable(QString::number(label.bar.width())));   // too narrow to hold it
    // Beside it, on its right (two minutes of room), whole, in the plot, in the bar's row.
    QVERIFY(label.frame.left() >= label.bar.right());
    QVERIFY(label.frame.width() >= timeline.fontMetrics().horizontalAdvance(label.text));
    QVERIFY(label.frame.right() <= timeline.scale().right());
    QCOMPARE(label.frame.top(), double(timeline.engineBarRect(0).top()));
    QCOMPARE(label.frame.height(), double(timeline.engineBarRect(0).height()));

    // Painted: text in the frame, not the fork's colour all over it as before.
    const QImage image = timeline.grab().toImage();
    const QColor text = timeline.palette().color(QPalette::Text);
    int dark = 0;
    const QRect frame = label.frame.toAlignedRect().adjusted(2, 2, -2, -2);
    for (int x = frame.left(); x <= frame.right(); ++x) {
        for (int y = frame.top(); y <= frame.bottom(); ++y)
            dark += qAbs(QColor(image.pixel(x, y)).lightness() - text.lightness()) < 60 ? 1 : 0;
    }
    QVERIFY2(dark >= 10, qPrintable(u"%1 text pixels in the label"_s.arg(dark)));

    // Hovering the label explains the switch, not the bar under it.
    const QPoint pos = label.frame.center().toPoint();
    QHelpEvent help(QEvent::ToolTip, pos, timeline.mapToGlobal(pos));
    QApplication::sendEvent(&timeline, &help);
    QVERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), TimelineText::spanTooltip(label.span, u"h1"_s, at(3600)));
    QToolTip::hideText();

    // Zoomed in until the label fits on the bar: no label beside it any more.
    timeline.showRange(at(3478), at(3486));
    QVERIFY(timeline.labelsBeside(0).isEmpty());
}

void TstTimelineLabels::switchAtNowLabelledOnItsLeft()
{
    // A switch that ended a second ago has no room before "now": its label goes left, over the
    // old engine's bar; an older narrow switch close by keeps clear of it.
    SecondsClock clock(3600);
    TimelineModel events;
    events.append(historyEvent(HistoryEvent::Kind::HostUp, 0, u"mainline"_s));
    events.append(historyEvent(HistoryEvent::Kind::SwitchStart, 3440, u"fork"_s));
    events.append(switchEnd(3443, u"fork"_s, 3000ms));
    events.append(historyEvent(HistoryEvent::Kind::SwitchStart, 3596, u"mainline"_s));
    events.append(switchEnd(3599, u"mainline"_s, 3000ms));
    TimelineWidget timeline(clock);
    timeline.setEvents(&events);
    timeline.setHosts({u"h1"_s});
    timeline.resize(1000, timeline.sizeHint().height());
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QCOMPARE(timeline.scale().spanMs(), qint64(5 * 60 * 1000));
    const QList<TimelineWidget::LabelBeside> labels = timeline.labelsBeside(0);
    QCOMPARE(labels.size(), 2);
    QCOMPARE(labels.at(0).span.engine, u"mainline"_s);   // the newest first
    QVERIFY(labels.at(0).frame.right() <= labels.at(0).bar.left());
    QVERIFY(labels.at(1).frame.left() >= labels.at(1).bar.right());
    QVERIFY(apart(labels.at(0).frame, labels.at(1).frame));
    for (const auto &label : labels)
        QVERIFY(label.frame.left() >= timeline.scale().left() && label.frame.right() <= timeline.scale().right());
}

void TstTimelineLabels::legendNamesTheGap()
{
    // Issue 30 item 9: the hatched gap had no legend entry. Named, in the hatching's colour,
    // apart from every band's.
    SecondsClock clock(0);
    HostTableModel hosts;
    TimelineView view(clock, &hosts);
    const QString legend = view.legend()->text();
    QVERIFY2(legend.contains(u"Switchyard&nbsp;not&nbsp;running"_s), qPrintable(legend));
    QVERIFY2(legend.contains(u"▨"_s), qPrintable(legend));
    const QColor gap = view.legendColor(u"gap"_s);
    QCOMPARE(gap, view.palette().color(QPalette::PlaceholderText));
    QVERIFY(legend.contains(gap.name()));
    for (const QString &band : {u"switch"_s, u"down"_s, u"asleep"_s, u"lease"_s})
        QVERIFY2(view.legendColor(band) != gap, qPrintable(band));
}

QTEST_MAIN(TstTimelineLabels)
#include "tst_timelinelabels.moc"
