// The desktop's item models and views: hosts, models and their filters, the request log with its
// filters and details, and the timeline drawn from history and the store (QAbstractItemModelTester).
#include "guifleet.h"

#include "tray/autostart.h"
#include "app/catalogeventrecorder.h"
#include "hosts/hostcontroller.h"
#include "testenginedriver.h"
#include "app/configreloader.h"
#include "desktop/desktopapp.h"
#include "shared/clientconfigexporter.h"
#include "dialogs/exportdialog.h"
#include "models/hosttablemodel.h"
#include "dialogs/switchenginedialog.h"
#include "window/hostcarddelegate.h"
#include "window/hostsview.h"
#include "models/inflightcounter.h"
#include "journal/journalformat.h"
#include "window/mainwindow.h"
#include "models/modelfilterproxy.h"
#include "window/modelsview.h"
#include "models/modeltablemodel.h"
#include "window/noticebar.h"
#include "app/appsettings.h"
#include "window/relayclient.h"
#include "timeline/requestdensity.h"
#include "window/requestdetailspane.h"
#include "models/requestlogfilterproxy.h"
#include "window/requestlogview.h"
#include "dialogs/settingsdialog.h"
#include "tray/singleinstance.h"
#include "app/startupconfig.h"
#include "shared/statuspalette.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinescale.h"
#include "timeline/timelinetext.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "demo/trafficgenerator.h"
#include "tray/traycontroller.h"
#include "tray/traystate.h"
#include "app/relayrunner.h"
#include "shared/uiresources.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QPixmap>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTableView>
#include <QTimeZone>
#include <QToolTip>
#include <QTest>

#include <QScopeGuard>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>

#include "guitesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace guitest;

class TstGuiViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void hostTableModel();
    void modelTableModelAndFilters();
    void requestLogFilters();
    void requestLogViewDetailsAndCopy();

    void timelineDrawsSwitchFromHistory();
    void timelineZoomPanFollow();
    void timelineKeepsTheNewestSwitchReadable();
    void timelineReadsStoreHistory();
};

void TstGuiViews::initTestCase()
{
    initUiResources();
    QStandardPaths::setTestModeEnabled(true);
}

// ---- item models ----------------------------------------------------------------------------

void TstGuiViews::hostTableModel()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    InFlightCounter inFlight;
    model.setInFlightCounter(&inFlight);
    QSignalSpy activities(&model, &HostTableModel::activitiesChanged);
    model.setService(fleet.service());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.hostNames(), (QStringList{u"h1"_s, u"h2"_s}));
    const QModelIndex h1 = model.index(0);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    QCOMPARE(h1.data(HostTableModel::EngineRole).toString(), u"main"_s);
    QCOMPARE(h1.data(HostTableModel::ModelsTotalRole).toInt(), 2);
    QCOMPARE(h1.data(HostTableModel::ModelsLoadedRole).toInt(), 1);
    QCOMPARE(h1.data(HostTableModel::UrlRole).toString(), fleet.h1->baseUrl().toString());
    QVERIFY(h1.data(HostTableModel::LastPollRole).toDateTime().isValid());
    QVERIFY(h1.data(HostTableModel::RoundTripMsRole).toLongLong() >= 0);
    QCOMPARE(model.hostsUp(), 2);

    // Requests in flight, per host.
    RequestRecord r = record(u"h1"_s, u"h1-m1"_s, 0, QDateTime::currentDateTime());
    r.startedSteady = std::chrono::steady_clock::now();
    inFlight.started(r);
    QCOMPARE(h1.data(HostTableModel::InFlightRole).toInt(), 1);
    QCOMPARE(inFlight.total(), 1);
    inFlight.finished(r);
    QCOMPARE(h1.data(HostTableModel::InFlightRole).toInt(), 0);
    inFlight.finished(r);   // a finish without a start is ignored
    QCOMPARE(inFlight.total(), 0);

    // The host controllers' slots.
    model.setActivity(u"h1"_s, HostActivity::Switching, u"to fork"_s);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Switching);
    QVERIFY(h1.data(HostTableModel::ActivityTextRole).toString().contains(u"to fork"_s));
    QCOMPARE(TrayState::compute(model.activities(), 0), TrayState::Kind::Switching);
    model.setActivity(u"h1"_s, std::nullopt);
    model.setLease(u"h1"_s, u"bench"_s, QDateTime::currentDateTime().addSecs(600));
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Leased);
    QCOMPARE(h1.data(HostTableModel::LeaseOwnerRole).toString(), u"bench"_s);
    model.setLease(u"h1"_s, {});
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);

    // The host goes away: the next poll says so.
    activities.clear();
    fleet.h2->close();
    fleet.service()->catalog()->refreshHost(u"h2"_s);
    QTRY_COMPARE(HostActivity(model.index(1).data(HostTableModel::ActivityRole).toInt()), HostActivity::Down);
    QVERIFY(!model.index(1).data(HostTableModel::LastErrorRole).toString().isEmpty());
    QVERIFY(activities.count() >= 1);
    QCOMPARE(TrayState::compute(model.activities(), 0), TrayState::Kind::Error);

    // Rebinding (a config reload) resets the rows.
    model.setService(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TstGuiViews::modelTableModelAndFilters()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    FixedClock clock(QDateTime::currentDateTime());
    ModelTableModel model(clock);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Today: two requests for h1-m1 at 60 and 40 tokens/s, one failure for h2-m3.
    const QDateTime now = clock.now();
    RequestRecord a = record(u"h1"_s, u"h1-m1"_s, 200, now.addSecs(-30));
    RequestRecord b = record(u"h1"_s, u"h1-m1"_s, 200, now.addSecs(-20));
    b.tokensPerSecond = 40.0;
    fleet.store->record(a);
    fleet.store->record(b);
    fleet.store->record(record(u"h2"_s, u"h2-m3"_s, 424, now.addSecs(-10)));
    QVERIFY(fleet.store->sync());

    model.setService(fleet.service());
    model.setHistory(fleet.store.get());
    QCOMPARE(model.rowCount(), 3);
    const int m1 = model.rowOfAlias(u"h1-m1"_s);
    QVERIFY(m1 >= 0);
    QCOMPARE(model.index(m1, ModelTableModel::HostColumn).data().toString(), u"h1"_s);
    QCOMPARE(model.index(m1, ModelTableModel::StatusColumn).data(ModelTableModel::StatusRole).toString(), u"loaded"_s);
    QCOMPARE(model.index(m1, ModelTableModel::ContextColumn).data().toString(), u"32k"_s);
    QCOMPARE(model.index(m1, ModelTableModel::RequestsColumn).data(ModelTableModel::SortRole).toLongLong(), 2);
    QCOMPARE(model.index(m1, ModelTableModel::TokensPerSecondColumn).data(ModelTableModel::SortRole).toDouble(), 50.0);
    QCOMPARE(model.index(m1, ModelTableModel::LastUsedColumn).data(ModelTableModel::SortRole).toLongLong(),
             b.startedAt.toMSecsSinceEpoch());
    QVERIFY(!model.index(m1, ModelTableModel::StatusColumn).data(Qt::DecorationRole).value<QIcon>().isNull());

    // A recorded request counts at once.
    fleet.store->record(record(u"h1"_s, u"h1-m1"_s, 200, now.addSecs(-1)));
    QCOMPARE(model.index(m1, ModelTableModel::RequestsColumn).data(ModelTableModel::SortRole).toLongLong(), 3);

    // A load through the catalog shows up in place.
    fleet.service()->catalog()->markLoading(u"h1"_s, u"m2"_s);
    const int m2 = model.rowOfAlias(u"h1-m2"_s);
    QTRY_COMPARE(model.index(m2, 0).data(ModelTableModel::StatusRole).toString(), u"loading"_s);

    // Filters.
    ModelFilterProxy proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    QCOMPARE(proxy.rowCount(), 3);
    proxy.setText(u"M3"_s);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"h2-m3"_s);
    proxy.setText({});
    proxy.setHost(u"h1"_s);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setLoadedOnly(true);
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"h1-m1"_s);
    proxy.setHost({});
    proxy.setLoadedOnly(false);
    // Sorting by a number column sorts numbers.
    proxy.sort(ModelTableModel::RequestsColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), u"h1-m1"_s);

    // The catalog changes shape (the model goes away): the rows follow.
    fleet.h1->close();
    fleet.service()->catalog()->refreshHost(u"h1"_s);
    QTRY_VERIFY(model.rowCount() <= 3);
}

void TstGuiViews::requestLogFilters()
{
    RequestLogModel log;
    RequestLogFilterProxy proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&log);
    const QDateTime t0 = QDateTime::currentDateTime().addSecs(-100);
    QList<RequestRecord> records = {
        record(u"h1"_s, u"h1-m1"_s, 200, t0),
        record(u"h1"_s, u"h1-m2"_s, 404, t0.addSecs(1)),
        record(u"h2"_s, u"h2-m3"_s, 502, t0.addSecs(2)),
        record(u"h2"_s, u"h2-m3"_s, 200, t0.addSecs(3), u"/v1/messages"_s),
        record({}, {}, 200, t0.addSecs(4), u"/v1/models"_s),
    };
    records[2].relayError = u"upstream dropped the connection"_s;
    records[3].userAgent = u"claude-cli/2.0"_s;
    log.appendRecords(records);
    QCOMPARE(proxy.rowCount(), 5);
    proxy.setHost(u"h2"_s);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setStatusFilter(RequestLogFilterProxy::StatusFilter::Errors);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setHost({});
    proxy.setStatusFilter(RequestLogFilterProxy::StatusFilter::AnyFailure);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setStatusFilter(RequestLogFilterProxy::StatusFilter::ClientErrors);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setStatusFilter(RequestLogFilterProxy::StatusFilter::Success);
    QCOMPARE(proxy.rowCount(), 3);
    proxy.setStatusFilter(RequestLogFilterProxy::StatusFilter::All);
    proxy.setModel(u"h2-m3"_s);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setModel({});
    proxy.setText(u"CLAUDE"_s);   // user agent
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setText(u"dropped"_s);   // the relay's error
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setText(u"/v1/models"_s);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setText(u"404"_s);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setText({});
    // Live rows go through the filters too.
    proxy.setHost(u"h1"_s);
    log.append(record(u"h1"_s, u"h1-m1"_s, 200, t0.addSecs(5)));
    log.append(record(u"h2"_s, u"h2-m3"_s, 200, t0.addSecs(6)));
    QTRY_COMPARE(log.rowCount(), 7);
    QCOMPARE(proxy.rowCount(), 3);
    // Newest first by default in the view; the proxy sorts by the raw time.
    proxy.sort(RequestLogModel::TimeColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, RequestLogModel::TimeColumn).data(RequestLogModel::SortRole).toLongLong(),
             t0.addSecs(5).toMSecsSinceEpoch());
    // The status column carries its colour.
    const QModelIndex failed = proxy.mapFromSource(log.index(1, RequestLogModel::StatusColumn));
    Q_UNUSED(failed)
    proxy.setHost({});
    const QModelIndex error = proxy.mapFromSource(log.index(2, RequestLogModel::StatusColumn));
    QCOMPARE(error.data(Qt::ForegroundRole).value<QColor>(), StatusPalette::bad());
}

void TstGuiViews::requestLogViewDetailsAndCopy()
{
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    view.resize(1000, 600);
    const QDateTime t0 = QDateTime::currentDateTime().addSecs(-50);
    const QList<RequestRecord> records = {record(u"h1"_s, u"h1-m1"_s, 200, t0),
                                          record(u"h2"_s, u"h2-m3"_s, 502, t0.addSecs(1))};
    log.appendRecords(records);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    // Newest on top: row 0 is the 502.
    QTableView *table = view.table();
    table->selectRow(0);
    QCOMPARE(view.details()->fieldText(u"status"_s).contains(u"502"_s), true);
    QCOMPARE(view.details()->fieldText(u"journal"_s), JournalFormat::requestLine(records.at(1)));
    QVERIFY(view.copyJournalLineAction()->isEnabled());
    view.copyJournalLineAction()->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), JournalFormat::requestLine(records.at(1)));

    // Both selected: both lines, oldest first, as the journal has them.
    table->selectAll();
    QCOMPARE(view.selectedJournalLines(),
             JournalFormat::requestLine(records.at(0)) + u'\n' + JournalFormat::requestLine(records.at(1)));

    // The filter widgets drive the proxy.
    view.setAliases({u"h2-m3"_s, u"h1-m1"_s});
    view.modelFilter()->setCurrentIndex(view.modelFilter()->findData(u"h1-m1"_s));
    QCOMPARE(view.proxy()->rowCount(), 1);
    view.modelFilter()->setCurrentIndex(0);
    view.searchField()->setText(u"nothing matches this"_s);
    QCOMPARE(view.proxy()->rowCount(), 0);
}

// ---- timeline -------------------------------------------------------------------------------

void TstGuiViews::timelineDrawsSwitchFromHistory()
{
    const QDateTime t0 = QDateTime::currentDateTime().addSecs(-300);
    FixedClock clock(t0.addSecs(120));
    TimelineModel events;
    // mainline up at t0; switch to fork from +60 s, fork up at +63 s.
    events.append(hostEvent(HistoryEvent::Kind::HostUp, t0, u"mainline"_s));
    events.append(hostEvent(HistoryEvent::Kind::SwitchStart, t0.addSecs(60), u"fork"_s));
    events.append(hostEvent(HistoryEvent::Kind::SwitchEnd, t0.addSecs(63), u"fork"_s, 3000ms));
    HistoryEvent load = hostEvent(HistoryEvent::Kind::Load, t0.addSecs(90), u"fork"_s, 2000ms);
    events.append(load);

    TimelineWidget timeline(clock);
    timeline.setEvents(&events);
    timeline.setHosts({u"h1"_s});
    timeline.resize(TimelineWidget::LabelWidth + 8 + 600, TimelineWidget::HeaderHeight + TimelineWidget::LaneHeight + 2);
    timeline.showRange(t0.toMSecsSinceEpoch(), t0.addSecs(120).toMSecsSinceEpoch());
    QVERIFY(!timeline.isFollowing());
    const TimelineScale &scale = timeline.scale();
    QCOMPARE(scale.width(), 600);
    QCOMPARE(scale.msPerPixel(), 200.0);   // 2 min over 600 px

    const QImage image = timeline.grab().toImage();
    const QRect bar = timeline.engineBarRect(0);
    const int y = bar.top() + 3;   // above any label text in the bar
    auto colorAt = [&](int secondsFromT0) {
        const int x = int(scale.xForTime(t0.addSecs(secondsFromT0).toMSecsSinceEpoch()));
        return QColor(image.pixel(x, y));
    };
    QCOMPARE(colorAt(30), StatusPalette::forEngine(u"mainline"));
    QCOMPARE(colorAt(110), StatusPalette::forEngine(u"fork"));
    QVERIFY(StatusPalette::forEngine(u"mainline") != StatusPalette::forEngine(u"fork"));
    // The switch: amber, hatched; either the fill or its hatching, never an engine colour.
    const QColor during = colorAt(61);
    QVERIFY2(during == StatusPalette::switching() || during == StatusPalette::switching().darker(140)
                 || during.red() > during.blue(),
             qPrintable(during.name()));
    QVERIFY(during != StatusPalette::forEngine(u"mainline") && during != StatusPalette::forEngine(u"fork"));
    // The load: a green diamond in the marker row.
    const int loadX = int(scale.xForTime(load.at.toMSecsSinceEpoch()));
    QCOMPARE(QColor(image.pixel(loadX, timeline.markerRect(0).center().y())), StatusPalette::good());
    // Nothing is drawn in the label column's bar area.
    QVERIFY(QColor(image.pixel(bar.left() - 20, y)) != StatusPalette::forEngine(u"fork"));
}

void TstGuiViews::timelineZoomPanFollow()
{
    FixedClock clock(QDateTime::currentDateTime());
    TimelineModel events;
    TimelineWidget timeline(clock);
    timeline.setEvents(&events);
    timeline.setHosts({u"h1"_s, u"h2"_s});
    timeline.resize(900, timeline.sizeHint().height());
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QVERIFY(timeline.isFollowing());
    const qint64 now = clock.now().toMSecsSinceEpoch();
    QVERIFY(timeline.scale().endMs() >= now);
    QCOMPARE(timeline.scale().spanMs(), qint64(15 * 60 * 1000));
    QCOMPARE(timeline.minimumSizeHint().height(), TimelineWidget::HeaderHeight + 2 * TimelineWidget::LaneHeight + 2);

    QSignalSpy following(&timeline, &TimelineWidget::followingChanged);
    const double before = timeline.scale().msPerPixel();
    QTest::keyClick(&timeline, Qt::Key_Plus);
    QVERIFY(timeline.scale().msPerPixel() < before);
    QVERIFY(timeline.isFollowing());   // zooming keeps following now
    QTest::keyClick(&timeline, Qt::Key_Minus);
    QCOMPARE(timeline.scale().msPerPixel(), before);

    QTest::keyClick(&timeline, Qt::Key_Left);
    QVERIFY(!timeline.isFollowing());
    QVERIFY(timeline.scale().endMs() < now);
    QCOMPARE(following.count(), 1);
    QTest::keyClick(&timeline, Qt::Key_End);
    QVERIFY(timeline.isFollowing());
    QCOMPARE(following.count(), 2);

    // Dragging right shows the past.
    const QPoint from(500, 60);
    QTest::mousePress(&timeline, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(100, 0)), QPointF(timeline.mapToGlobal(from + QPoint(100, 0))),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&timeline, &move);
    QTest::mouseRelease(&timeline, Qt::LeftButton, {}, from + QPoint(100, 0));
    QVERIFY(!timeline.isFollowing());

    // The wheel zooms around the pointer.
    const double x = 400;
    const qint64 under = timeline.scale().timeForX(x);
    QWheelEvent wheel(QPointF(x, 60), QPointF(timeline.mapToGlobal(QPoint(400, 60))), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&timeline, &wheel);
    QVERIFY(std::abs(timeline.scale().timeForX(x) - under) <= qint64(timeline.scale().msPerPixel()));

    // Shift+wheel pans (towards the past for a wheel turned up); Right pans back to now.
    const qint64 endBefore = timeline.scale().endMs();
    QWheelEvent shiftWheel(QPointF(x, 60), QPointF(timeline.mapToGlobal(QPoint(400, 60))), QPoint(), QPoint(0, 120),
                           Qt::NoButton, Qt::ShiftModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&timeline, &shiftWheel);
    QVERIFY(timeline.scale().endMs() < endBefore);
    QVERIFY(!timeline.isFollowing());
    for (int i = 0; i < 50 && !timeline.isFollowing(); ++i)
        QTest::keyClick(&timeline, Qt::Key_Right);
    QVERIFY(timeline.isFollowing());
    QVERIFY(timeline.scale().endMs() >= now);

    QTest::keyClick(&timeline, Qt::Key_1);
    QCOMPARE(timeline.scale().spanMs(), qint64(5 * 60 * 1000));
    QTest::keyClick(&timeline, Qt::Key_3);
    QCOMPARE(timeline.scale().spanMs(), qint64(24 * 3600 * 1000));
    QTest::keyClick(&timeline, Qt::Key_2);
    QCOMPARE(timeline.scale().spanMs(), qint64(3600 * 1000));
    QVERIFY(!timeline.isAutoSpan());
    QTest::mouseDClick(&timeline, Qt::LeftButton, {}, QPoint(500, 60));
    QVERIFY(timeline.isFollowing());
}

void TstGuiViews::timelineKeepsTheNewestSwitchReadable()
{
    // Issue 30, item 9: fifty minutes of history would make a 2 h span, where a one-minute
    // switch a minute ago is a sliver without its label; by default it is readable instead. A
    // time Switchyard did not run is an empty gap with its tooltip, not an engine bar.
    const QDateTime now = QDateTime::currentDateTime();
    FixedClock clock(now);
    TimelineModel events;
    HistoryEvent started;
    started.kind = HistoryEvent::Kind::RelayStarted;
    started.at = now.addSecs(-3000);
    events.append(started);
    events.append(hostEvent(HistoryEvent::Kind::HostUp, now.addSecs(-2999), u"mainline"_s));
    HistoryEvent stopped = started;
    stopped.kind = HistoryEvent::Kind::RelayStopped;
    stopped.at = now.addSecs(-240);
    events.append(stopped);
    started.at = now.addSecs(-180);
    events.append(started);
    events.append(hostEvent(HistoryEvent::Kind::HostUp, now.addSecs(-179), u"mainline"_s));
    const HistoryEvent start = hostEvent(HistoryEvent::Kind::SwitchStart, now.addSecs(-120), u"fork"_s);
    const HistoryEvent end = hostEvent(HistoryEvent::Kind::SwitchEnd, now.addSecs(-60), u"fork"_s, 60000ms);
    events.append(start);
    events.append(end);

    TimelineWidget timeline(clock);
    timeline.setEvents(&events);
    timeline.setHosts({u"h1"_s});
    timeline.resize(900, timeline.sizeHint().height());
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    QVERIFY(timeline.isAutoSpan());
    QVERIFY(timeline.isFollowing());
    const TimelineScale &scale = timeline.scale();
    QVERIFY2(scale.spanMs() < 3600 * 1000, qPrintable(QString::number(scale.spanMs())));
    QVERIFY(scale.spanMs() >= 5 * 60 * 1000);
    const qint64 startMs = start.at.toMSecsSinceEpoch();
    const qint64 endMs = end.at.toMSecsSinceEpoch();
    QVERIFY(scale.isVisible(startMs) && scale.isVisible(endMs));
    const double width = scale.xForTime(endMs) - scale.xForTime(startMs);
    const QString label = TimelineText::switchLabel({TimelineContent::Span::Kind::Switch, startMs, endMs, false, u"fork"_s, {}});
    QVERIFY2(width >= 40 && width > timeline.fontMetrics().horizontalAdvance(label) + 10,
             qPrintable(u"%1 px for %2"_s.arg(width).arg(label)));

    // The gap: no engine colour in the bar, and a tooltip that says why.
    const int gapX = int(scale.xForTime(now.addSecs(-210).toMSecsSinceEpoch()));
    const int barY = timeline.engineBarRect(0).center().y();
    const QImage image = timeline.grab().toImage();
    QVERIFY(QColor(image.pixel(gapX, barY)) != StatusPalette::forEngine(u"mainline"));
    QCOMPARE(QColor(image.pixel(int(scale.xForTime(now.addSecs(-250).toMSecsSinceEpoch())), barY)),
             StatusPalette::forEngine(u"mainline"));
    const QPoint pos(gapX, barY);
    QHelpEvent help(QEvent::ToolTip, pos, timeline.mapToGlobal(pos));
    QApplication::sendEvent(&timeline, &help);
    QVERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().startsWith(u"Switchyard was not running"_s), qPrintable(QToolTip::text()));
}

void TstGuiViews::timelineReadsStoreHistory()
{
    // Events and requests recorded before the view existed are on it (the past), and new ones
    // arrive live.
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    QVERIFY(store.isOpen());
    const QDateTime t0 = QDateTime::currentDateTime().addSecs(-600);
    store.recordEvent(hostEvent(HistoryEvent::Kind::HostUp, t0, u"mainline"_s));
    store.recordEvent(hostEvent(HistoryEvent::Kind::SwitchStart, t0.addSecs(100), u"fork"_s));
    store.recordEvent(hostEvent(HistoryEvent::Kind::SwitchEnd, t0.addSecs(104), u"fork"_s, 4000ms));
    store.record(record(u"h1"_s, u"h1-m1"_s, 200, t0.addSecs(200)));
    QVERIFY(store.sync());

    HostTableModel hosts;
    TimelineView view(clock, &hosts);
    view.setHistory(&store);
    QCOMPARE(view.events()->rowCount(), 3);
    const auto intervals = view.events()->engineIntervals(u"h1"_s, t0, QDateTime::currentDateTime());
    QCOMPARE(intervals.size(), 2);
    QCOMPARE(intervals.last().engine, u"fork"_s);
    QCOMPARE(view.density().count(u"h1"_s, t0.addSecs(200).toMSecsSinceEpoch(),
                                  t0.addSecs(201).toMSecsSinceEpoch()).requests, 1);
    store.recordEvent(hostEvent(HistoryEvent::Kind::Load, QDateTime::currentDateTime(), u"fork"_s));
    QCOMPARE(view.events()->rowCount(), 4);
    store.record(record(u"h1"_s, u"h1-m1"_s, 500, QDateTime::currentDateTime()));
    QCOMPARE(view.density().total(), qint64(2));
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TstGuiViews test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guiviews.moc"
