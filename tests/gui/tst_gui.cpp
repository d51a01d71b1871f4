// The desktop's tests: models, views, timeline, tray, single instance, autostart, settings,
// config reload and responsiveness. Runs offscreen; the tray tests start their own Xvfb.
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
#include <QTest>

#include <QScopeGuard>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

RequestRecord record(const QString &host, const QString &model, int status, const QDateTime &at,
                     const QString &path = u"/v1/chat/completions"_s)
{
    RequestRecord r;
    r.startedAt = at;
    r.method = u"POST"_s;
    r.path = path;
    r.model = model;
    r.host = host;
    r.engine = u"main"_s;
    r.status = status;
    r.duration = 1500ms;
    r.clientAddress = u"192.0.2.10"_s;
    r.userAgent = u"opencode/1.0"_s;
    if (status == 200) {
        r.streamedTokens = 90;
        r.tokensPerSecond = 60.0;
        r.timeToFirstByte = 120ms;
    }
    return r;
}

HistoryEvent hostEvent(HistoryEvent::Kind kind, const QDateTime &at, const QString &engine,
                   std::optional<std::chrono::milliseconds> duration = std::nullopt)
{
    HistoryEvent e;
    e.kind = kind;
    e.at = at;
    e.host = u"h1"_s;
    e.engine = engine;
    e.duration = duration;
    e.model = u"h1-m1"_s;
    return e;
}

QString binDir()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR");
}

// A child under Xvfb (see trayChildMain): SWITCHYARD_GUI_TRAY_CHILD=expect-tray|expect-no-tray.
int trayChildMain(int argc, char *argv[], const QByteArray &mode)
{
    QApplication app(argc, argv);
    initUiResources();
    const bool wantTray = mode == "expect-tray";
    // A tray that starts with us may take a moment to claim its selection.
    if (wantTray && !QTest::qWaitFor([] { return TrayController::isAvailable(); }, 8000)) {
        fprintf(stderr, "child: no system tray appeared\n");
        return 3;
    }
    HostTableModel hosts;
    InFlightCounter inFlight;
    TrayController tray(&hosts, &inFlight);
    if (wantTray) {
        if (!tray.show() || !QTest::qWaitFor([&] { return tray.isVisible(); }, 3000)) {
            fprintf(stderr, "child: tray icon did not show\n");
            return 4;
        }
        if (tray.icon()->icon().isNull()) {
            fprintf(stderr, "child: tray icon has no image\n");
            return 5;
        }
        fprintf(stdout, "child: tray icon shown\n");
        return 0;
    }
    if (TrayController::isAvailable()) {
        fprintf(stderr, "child: a tray is available under bare Xvfb\n");
        return 6;
    }
    // No tray: --tray falls back to a window that says so.
    GuiFleet fleet;
    if (!fleet.start())
        return 7;
    DesktopApp::Options options;
    options.trayOnly = true;
    options.trayWait = 300ms;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    desktop.start();
    if (!QTest::qWaitFor([&] { return desktop.window()->isVisible(); }, 3000)) {
        fprintf(stderr, "child: no window without a tray\n");
        return 8;
    }
    if (desktop.window()->notice()->text() != DesktopApp::noTrayMessage())
        return 9;
    fprintf(stdout, "child: window shown, tray unavailable\n");
    return 0;
}

} // namespace

class TstGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void timelineScaleMapsTimeToPixels_data();
    void timelineScaleMapsTimeToPixels();
    void timelineScaleZoomKeepsAnchor();
    void timelineScaleTicks();
    void requestDensityCountsActiveRequests();
    void trayState_data();
    void trayState();

    void hostTableModel();
    void modelTableModelAndFilters();
    void requestLogFilters();
    void requestLogViewDetailsAndCopy();

    void timelineDrawsSwitchFromHistory();
    void timelineZoomPanFollow();
    void timelineReadsStoreHistory();

    void mainWindowShowsFleetAndLoads();
    void switchShowsOnHostsTimelineAndTray();

    void singleInstanceAnswers();
    void secondLaunchActivatesFirst();
    void autostartWritesAndRemoves();
    void settingsDialogValidatesBeforeSaving();
    void configReloadAppliesOnlyValidConfigs();
    void trayUnavailableFallsBackToWindow();
    void trayMenuListsHosts();
    void exportDialogPreviewsCopiesSavesAndMerges();
    void trayUnderXvfbWithoutTray();
    void trayUnderXvfbWithTrayer();

    void windowStaysResponsiveUnderLoad();

private:
    bool startXvfb(QProcess &xvfb, QString *display);
};

void TstGui::initTestCase()
{
    initUiResources();
    QStandardPaths::setTestModeEnabled(true);
}

// ---- pure pieces --------------------------------------------------------------------------

void TstGui::timelineScaleMapsTimeToPixels_data()
{
    QTest::addColumn<qint64>("endMs");
    QTest::addColumn<double>("msPerPixel");
    QTest::addColumn<int>("left");
    QTest::addColumn<int>("width");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<double>("x");

    QTest::newRow("end is the right edge") << qint64(100000) << 100.0 << 0 << 500 << qint64(100000) << 500.0;
    QTest::newRow("start is the left edge") << qint64(100000) << 100.0 << 0 << 500 << qint64(50000) << 0.0;
    QTest::newRow("left offset") << qint64(100000) << 100.0 << 128 << 500 << qint64(50000) << 128.0;
    QTest::newRow("middle") << qint64(100000) << 100.0 << 128 << 500 << qint64(75000) << 378.0;
    QTest::newRow("before the range") << qint64(100000) << 100.0 << 0 << 500 << qint64(40000) << -100.0;
    QTest::newRow("after the range") << qint64(100000) << 1000.0 << 0 << 100 << qint64(110000) << 110.0;
    QTest::newRow("fine zoom") << qint64(1000) << 10.0 << 10 << 100 << qint64(505) << 60.5;
}

void TstGui::timelineScaleMapsTimeToPixels()
{
    QFETCH(qint64, endMs);
    QFETCH(double, msPerPixel);
    QFETCH(int, left);
    QFETCH(int, width);
    QFETCH(qint64, time);
    QFETCH(double, x);
    const TimelineScale scale(endMs, msPerPixel, left, width);
    QCOMPARE(scale.xForTime(time), x);
    QCOMPARE(scale.timeForX(x), time);
    QCOMPARE(scale.startMs(), endMs - qint64(msPerPixel * width));
}

void TstGui::timelineScaleZoomKeepsAnchor()
{
    TimelineScale scale(1'000'000, 1000.0, 100, 600);
    const double anchorX = 250;
    const qint64 anchor = scale.timeForX(anchorX);
    scale.zoomAround(anchorX, 4.0);
    QCOMPARE(scale.msPerPixel(), 250.0);
    QCOMPARE(scale.timeForX(anchorX), anchor);
    scale.zoomAround(anchorX, 0.5);
    QCOMPARE(scale.msPerPixel(), 500.0);
    QCOMPARE(scale.timeForX(anchorX), anchor);

    // Dragging the content right shows the past.
    const qint64 end = scale.endMs();
    scale.panByPixels(10);
    QCOMPARE(scale.endMs(), end - 5000);

    // Limits hold.
    scale.zoomAround(anchorX, 1e9);
    QCOMPARE(scale.msPerPixel(), TimelineScale::MinMsPerPixel);
    scale.zoomAround(anchorX, 1e-12);
    QCOMPARE(scale.msPerPixel(), TimelineScale::MaxMsPerPixel);

    scale.setSpan(15min);
    QCOMPARE(scale.spanMs(), qint64(15 * 60 * 1000));
}

void TstGui::timelineScaleTicks()
{
    // 10 minutes over 600 px: ticks at least 90 px apart means 2-minute steps.
    const qint64 end = QDateTime(QDate(2026, 10, 24), QTime(22, 21, 41), Qt::UTC).toMSecsSinceEpoch();
    const TimelineScale scale(end, 1000.0, 0, 600);
    QCOMPARE(scale.tickStepMs(90), qint64(2 * 60 * 1000));
    const QList<qint64> utc = scale.ticks(90, 0);
    QVERIFY(!utc.isEmpty());
    for (qint64 t : utc) {
        QVERIFY(t >= scale.startMs() && t <= scale.endMs());
        QCOMPARE(t % (2 * 60 * 1000), 0);
    }
    QCOMPARE(utc.first(), QDateTime(QDate(2026, 10, 24), QTime(22, 12), Qt::UTC).toMSecsSinceEpoch());
    // At UTC+5:30 the ticks sit on local even minutes, i.e. 30 s off UTC's odd ones.
    const QList<qint64> local = scale.ticks(90, 5 * 3600 + 30 * 60);
    for (qint64 t : local)
        QCOMPARE((t + (5 * 3600 + 30 * 60) * 1000LL) % (2 * 60 * 1000), 0);
}

void TstGui::requestDensityCountsActiveRequests()
{
    RequestDensity d;
    d.add(u"h1"_s, 1000, 3000, false);
    d.add(u"h1"_s, 2000, 2500, true);
    d.add(u"h1"_s, 5000, 5000, false);   // instant
    d.add(u"h2"_s, 1000, 9000, false);
    QCOMPARE(d.count(u"h1"_s, 0, 1000).requests, 0);
    QCOMPARE(d.count(u"h1"_s, 0, 1001).requests, 1);
    QCOMPARE(d.count(u"h1"_s, 2100, 2200).requests, 2);
    QCOMPARE(d.count(u"h1"_s, 2100, 2200).errors, 1);
    QCOMPARE(d.count(u"h1"_s, 2500, 2600).requests, 1);
    QCOMPARE(d.count(u"h1"_s, 3000, 4000).requests, 0);
    QCOMPARE(d.count(u"h1"_s, 4990, 5010).requests, 1);
    QCOMPARE(d.count(u"h2"_s, 4000, 4001).requests, 1);
    QCOMPARE(d.count(u"nope"_s, 0, 10000).requests, 0);
    QCOMPARE(d.total(), qint64(4));
    // Late arrivals find their place.
    d.add(u"h1"_s, 1500, 1600, false);
    QCOMPARE(d.count(u"h1"_s, 1550, 1560).requests, 2);
    // The cap drops the oldest.
    RequestDensity capped;
    capped.setCapacityPerHost(100);
    for (int i = 0; i < 250; ++i)
        capped.add(u"h"_s, i * 10, i * 10 + 5, false);
    QVERIFY(capped.total() <= 100);
    QCOMPARE(capped.count(u"h"_s, 2490, 2500).requests, 1);
}

void TstGui::trayState_data()
{
    QTest::addColumn<QList<HostActivity>>("hosts");
    QTest::addColumn<int>("inFlight");
    QTest::addColumn<int>("expected");
    using A = HostActivity;
    using K = TrayState::Kind;
    QTest::newRow("idle") << QList<A>{A::Up, A::Up} << 0 << int(K::Idle);
    QTest::newRow("no hosts") << QList<A>{} << 0 << int(K::Idle);
    QTest::newRow("busy") << QList<A>{A::Up, A::Up} << 3 << int(K::Busy);
    QTest::newRow("switching beats busy") << QList<A>{A::Switching, A::Up} << 3 << int(K::Switching);
    QTest::newRow("draining is switching") << QList<A>{A::Draining} << 0 << int(K::Switching);
    QTest::newRow("down beats all") << QList<A>{A::Switching, A::Down} << 3 << int(K::Error);
    QTest::newRow("leased is not an error") << QList<A>{A::Leased, A::Up} << 0 << int(K::Idle);
    QTest::newRow("not polled yet") << QList<A>{A::Unknown} << 0 << int(K::Idle);
}

void TstGui::trayState()
{
    QFETCH(QList<HostActivity>, hosts);
    QFETCH(int, inFlight);
    QFETCH(int, expected);
    QCOMPARE(int(TrayState::compute(hosts, inFlight)), expected);
    QVERIFY(!QIcon(TrayState::iconPath(TrayState::Kind(expected))).isNull());
}

// ---- item models ----------------------------------------------------------------------------

void TstGui::hostTableModel()
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

void TstGui::modelTableModelAndFilters()
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

void TstGui::requestLogFilters()
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

void TstGui::requestLogViewDetailsAndCopy()
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

void TstGui::timelineDrawsSwitchFromHistory()
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

void TstGui::timelineZoomPanFollow()
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

    QTest::keyClick(&timeline, Qt::Key_2);
    QCOMPARE(timeline.scale().spanMs(), qint64(3600 * 1000));
    QTest::mouseDClick(&timeline, Qt::LeftButton, {}, QPoint(500, 60));
    QVERIFY(timeline.isFollowing());
}

void TstGui::timelineReadsStoreHistory()
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

// ---- the window -----------------------------------------------------------------------------

void TstGui::mainWindowShowsFleetAndLoads()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(fleet.service());
    MainWindow window(fleet.clock, &hosts, &inFlight, nullptr);
    window.setHistory(fleet.store.get());
    window.setService(fleet.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.modelTable()->rowCount(), 3);
    QVERIFY(window.statusText().contains(fleet.endpoint().toString()));
    QVERIFY(window.statusText().contains(u"2 of 2"_s));
    QCOMPARE(window.timelineView()->timeline()->hosts(), (QStringList{u"h1"_s, u"h2"_s}));

    // Load through the window: a POST to the relay's own endpoint reaches the host.
    ModelsView *models = window.modelsView();
    const int row = models->proxy()->mapFromSource(window.modelTable()->index(window.modelTable()->rowOfAlias(u"h1-m2"_s), 0)).row();
    models->table()->selectRow(row);
    QCOMPARE(models->selectedAlias(), u"h1-m2"_s);
    QVERIFY(models->loadAction()->isEnabled());
    QVERIFY(!models->unloadAction()->isEnabled());
    models->loadAction()->trigger();
    QTRY_VERIFY(!fleet.h1->received().isEmpty()
                && std::any_of(fleet.h1->received().cbegin(), fleet.h1->received().cend(),
                               [](const fake::ReceivedRequest &r) { return r.path == "/models/load"; }));
    // The load shows in the table, and in the request log (through the store).
    QTRY_COMPARE(window.modelTable()->statusAt(window.modelTable()->rowOfAlias(u"h1-m2"_s)), u"loaded"_s);
    QTRY_VERIFY(window.requestLog()->rowCount() >= 1);
    QCOMPARE(window.requestLog()->recordAt(window.requestLog()->rowCount() - 1).path, u"/models/load"_s);
}

void TstGui::switchShowsOnHostsTimelineAndTray()
{
    // Host h1 with engine "a" (alpha, running) and engine "b" (beta): a load of h1-beta makes
    // its HostController switch. The host card, the tray state and the timeline follow.
    fake::FakeOptions optionsA;
    optionsA.models = {u"alpha"_s};
    optionsA.loaded = {u"alpha"_s};
    fake::FakeOptions optionsB;
    optionsB.models = {u"beta"_s};
    optionsB.loadDelay = 100ms;
    fake::FakeLlamaServer engineA(optionsA);
    fake::FakeLlamaServer engineB(optionsB);
    QVERIFY(engineA.listen() && engineB.listen());
    const quint16 portB = engineB.port();
    engineB.close();   // one engine runs on a host
    ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1="_s + engineA.baseUrl().toString()});
    QVERIFY(result.ok());
    Config config = *result.config;
    config.hosts.first().engines.first().name = u"a"_s;
    EngineConfig b;
    b.name = u"b"_s;
    b.url = QUrl(u"http://127.0.0.1:%1"_s.arg(portB));
    b.models = {u"beta"_s};
    config.hosts.first().engines.append(b);
    const QHash<QString, fake::FakeLlamaServer *> engines{{u"a"_s, &engineA}, {u"b"_s, &engineB}};
    const QHash<QString, quint16> ports{{u"a"_s, engineA.port()}, {u"b"_s, portB}};

    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    runner.setDriverFactory([engines, ports](const Config &) -> RelayService::DriverFactory {
        return [engines, ports](const HostConfig &) { return std::make_unique<TestEngineDriver>(engines, ports, u"a"_s); };
    });
    CatalogEventRecorder recorder(&store, clock);
    QObject::connect(&runner, &RelayRunner::serviceChanged, &recorder, &CatalogEventRecorder::setService);
    QString error;
    QVERIFY2(runner.start(config, &error), qPrintable(error));
    HostController *controller = runner.service()->hostController(u"h1"_s);
    QVERIFY(controller);
    QTRY_VERIFY(controller->state() == HostStateMachine::State::Serving
                && runner.service()->catalog()->host(u"h1"_s)->reachable);

    HostTableModel hosts;
    QAbstractItemModelTester tester(&hosts, QAbstractItemModelTester::FailureReportingMode::QtTest);
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(runner.service());
    QCOMPARE(hosts.controller(u"h1"_s), controller);
    QList<HostActivity> seen;
    QStringList cardLines;   // the card's engine line while it drains or switches (issue 22, item 1)
    QObject::connect(&hosts, &HostTableModel::activitiesChanged, &hosts, [&] {
        seen.append(hosts.activity(0));
        if (hosts.activity(0) == HostActivity::Switching || hosts.activity(0) == HostActivity::Draining)
            cardLines.append(HostCardDelegate::engineLine(hosts.index(0), QDateTime::currentDateTime().addSecs(3)));
    });
    TimelineView timeline(clock, &hosts);
    timeline.setHistory(&store);
    QTRY_COMPARE(timeline.events()->rowCount(), 1);   // h1 seen up, with engine a
    QCOMPARE(timeline.events()->eventAt(0).kind, HistoryEvent::Kind::HostUp);

    // The models table lists the engine that is not running too: beta, on b, unloaded.
    ModelTableModel models(clock);
    models.setService(runner.service());
    QTRY_VERIFY(models.rowOfAlias(u"h1-beta"_s) >= 0);
    const int beta = models.rowOfAlias(u"h1-beta"_s);
    QCOMPARE(models.index(beta, ModelTableModel::EngineColumn).data().toString(), u"b"_s);
    QCOMPARE(models.statusAt(beta), u"unloaded"_s);
    QCOMPARE(models.index(models.rowOfAlias(u"h1-alpha"_s), ModelTableModel::EngineColumn).data().toString(), u"a"_s);

    RelayClient client;
    client.setEndpoint(runner.service()->endpoint());
    QSignalSpy answered(&client, &RelayClient::finished);
    client.load(u"h1-beta"_s);
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 10000);
    QVERIFY2(answered.first().at(2).toBool(), qPrintable(answered.first().at(3).toString()));
    QTRY_COMPARE(hosts.index(0).data(HostTableModel::EngineRole).toString(), u"b"_s);
    QVERIFY2(seen.contains(HostActivity::Switching) || seen.contains(HostActivity::Draining),
             qPrintable(QString::number(seen.size())));
    // From → to and the time it has taken, not the old engine alone.
    QVERIFY(!cardLines.isEmpty());
    QVERIFY2(cardLines.first().startsWith(u"a → b · "_s), qPrintable(cardLines.join(u" | "_s)));
    QVERIFY2(cardLines.first().endsWith(u" · 3 s"_s), qPrintable(cardLines.first()));
    QTRY_COMPARE(HostActivity(hosts.index(0).data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);

    // The controller's events reach the timeline through the store; no "host down" for a
    // switch the relay made on purpose.
    QTRY_VERIFY(timeline.events()->rowCount() >= 3);
    QList<HistoryEvent::Kind> kinds;
    for (int i = 0; i < timeline.events()->rowCount(); ++i)
        kinds.append(timeline.events()->eventAt(i).kind);
    QVERIFY(kinds.contains(HistoryEvent::Kind::SwitchStart));
    QVERIFY(kinds.contains(HistoryEvent::Kind::SwitchEnd));
    QVERIFY(!kinds.contains(HistoryEvent::Kind::HostDown));
    const auto intervals = timeline.events()->engineIntervals(u"h1"_s, QDateTime::currentDateTime().addSecs(-60),
                                                              QDateTime::currentDateTime());
    QVERIFY(!intervals.isEmpty());
    QCOMPARE(intervals.last().engine, u"b"_s);
    QCOMPARE(intervals.first().engine, u"a"_s);

    // And the widget paints engine b at the end of the lane.
    TimelineWidget *widget = timeline.timeline();
    widget->resize(TimelineWidget::LabelWidth + 8 + 600, widget->sizeHint().height());
    // Engine b's bar is drawn once it has lasted a few pixels (10 s over 600 px: 17 ms each).
    const QDateTime bUp = intervals.last().start;
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTime() >= bUp.addMSecs(600), 5000);
    widget->setSpan(10s);
    widget->setFollowing(true);
    const QImage image = widget->grab().toImage();
    const int x = int(widget->scale().xForTime(QDateTime::currentDateTime().addMSecs(-300).toMSecsSinceEpoch()));
    QCOMPARE(QColor(image.pixel(x, widget->engineBarRect(0).top() + 3)), StatusPalette::forEngine(u"b"));

    // A lease: the card says who has the GPU; the tray does not call it an error.
    bool granted = false;
    controller->takeLease(u"bench"_s, 10min, [&granted](const std::optional<HostRefusal> &refused) { granted = !refused; });
    QTRY_VERIFY_WITH_TIMEOUT(granted, 10000);
    QCOMPARE(hosts.index(0).data(HostTableModel::LeaseOwnerRole).toString(), u"bench"_s);
    QCOMPARE(HostActivity(hosts.index(0).data(HostTableModel::ActivityRole).toInt()), HostActivity::Leased);
    QCOMPARE(TrayState::compute(hosts.activities(), 0), TrayState::Kind::Idle);
    // During the lease the card does not count models as loaded, and the header counts the host
    // as leased, not as down (issue 22, item 2).
    QCOMPARE(HostCardDelegate::engineLine(hosts.index(0), QDateTime::currentDateTime()), u"no engine: the GPU is lent out"_s);
    QCOMPARE(hosts.hostsUp(), 0);
    QCOMPARE(hosts.hostsLeased(), 1);
    controller->releaseLease();
    QTRY_VERIFY(hosts.index(0).data(HostTableModel::LeaseOwnerRole).toString().isEmpty());
    // Released: idle (the next request starts an engine), not "down: connection refused", also
    // after the catalog has polled the stopped engine.
    QCOMPARE(HostActivity(hosts.index(0).data(HostTableModel::ActivityRole).toInt()), HostActivity::Idle);
    runner.service()->catalog()->refreshHost(u"h1"_s);
    QTRY_VERIFY(!runner.service()->catalog()->host(u"h1"_s)->reachable);
    QCOMPARE(HostActivity(hosts.index(0).data(HostTableModel::ActivityRole).toInt()), HostActivity::Idle);
    QCOMPARE(StatusPalette::forActivity(HostActivity::Idle), StatusPalette::idle());
    QCOMPARE(hosts.hostsUp(), 1);

    // Switch Engine… on the card: the dialog offers the host's engines, the host switches back to a.
    HostsView view(&hosts, clock);
    view.setService(runner.service());
    view.setCurrentIndex(hosts.index(0));
    QVERIFY(view.switchEngineAction()->isEnabled());
    QSignalSpy messages(&view, &HostsView::message);
    QStringList offered;
    QStringList lines;
    QTimer::singleShot(0, &view, [&offered, &lines] {
        auto *dialog = qobject_cast<SwitchEngineDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        for (int i = 0; i < dialog->list()->count(); ++i) {
            offered.append(dialog->list()->item(i)->data(Qt::UserRole).toString());
            lines.append(dialog->list()->item(i)->text());
        }
        dialog->list()->setCurrentRow(0);
        QCOMPARE(dialog->engine(), u"a"_s);
        dialog->accept();
    });
    view.switchEngineAction()->trigger();
    // One dialog: every engine with the models it serves (issue 22, item 16).
    QCOMPARE(offered, (QStringList{u"a"_s, u"b"_s}));
    QVERIFY2(lines.at(0).contains(u"alpha"_s) && lines.at(1).contains(u"beta"_s), qPrintable(lines.join(u" | "_s)));
    QTRY_COMPARE_WITH_TIMEOUT(controller->currentEngine(), u"a"_s, 10000);
    QTRY_VERIFY(!messages.isEmpty() && messages.last().at(0).toString() == u"h1 runs a"_s);
    QTRY_COMPARE(hosts.index(0).data(HostTableModel::EngineRole).toString(), u"a"_s);
}

// ---- single instance, autostart, settings, reload ------------------------------------------

void TstGui::singleInstanceAnswers()
{
    const QString name = u"switchyard-test-%1"_s.arg(QCoreApplication::applicationPid());
    SingleInstance first(name);
    QString error;
    QVERIFY2(first.listen(&error), qPrintable(error));
    QSignalSpy activated(&first, &SingleInstance::activationRequested);
    // The second instance blocks while it asks, as a starting process does: another thread.
    bool answered = false;
    std::thread second([&] { answered = SingleInstance::activateRunning(name, 3000ms); });
    QTRY_COMPARE(activated.count(), 1);
    second.join();
    QVERIFY(answered);
    // Nobody on another name.
    QVERIFY(!SingleInstance::activateRunning(name + u"-other"_s, 200ms));
    // Port 0 shares nothing; a real port does, per user.
    qunsetenv("SWITCHYARD_INSTANCE_NAME");
    QVERIFY(SingleInstance::serverNameFor(0).isEmpty());
    QVERIFY(SingleInstance::serverNameFor(18766).endsWith(u"-18766"_s));
}

void TstGui::secondLaunchActivatesFirst()
{
    // The first instance: the real desktop app, window hidden (tray mode, no tray offscreen
    // would show it: use a plain instance and hide its window).
    GuiFleet fleet;
    QVERIFY(fleet.start());
    DesktopApp::Options options;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    const QString name = u"switchyard-test-second-%1"_s.arg(QCoreApplication::applicationPid());
    QString error;
    QVERIFY2(desktop.listenForActivation(name, &error), qPrintable(error));
    QVERIFY(!desktop.window()->isVisible());
    QSignalSpy activated(&desktop, &DesktopApp::activated);

    // The second: the real executable, as a user would start it again.
    QTemporaryDir data;
    QProcess second;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"SWITCHYARD_INSTANCE_NAME"_s, name);
    env.insert(u"SWITCHYARD_SETTINGS_FILE"_s, data.filePath(u"settings.ini"_s));
    second.setProcessEnvironment(env);
    second.start(binDir() + u"/switchyard"_s,
                 {u"--tray"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--data-dir"_s, data.path()});
    QVERIFY2(second.waitForStarted(), qPrintable(second.errorString()));
    const bool settled = QTest::qWaitFor([&] { return activated.count() > 0 || second.state() == QProcess::NotRunning; }, 10000);
    Q_UNUSED(settled)   // either way, what follows says what happened
    if (activated.isEmpty()) {
        second.kill();
        second.waitForFinished();
        QFAIL(qPrintable(u"not activated; the second launch said: "_s + QString::fromUtf8(second.readAllStandardError())
                         + QString::fromUtf8(second.readAllStandardOutput())));
    }
    QVERIFY(desktop.window()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(second.state() == QProcess::NotRunning, 10000);
    QCOMPARE(second.exitCode(), 0);
    const QString said = QString::fromUtf8(second.readAllStandardError());
    QVERIFY2(said.contains(u"already running"_s), qPrintable(said));
    // It started no relay of its own: no journal line about listening.
    QVERIFY(!QString::fromUtf8(second.readAllStandardOutput()).contains(u"listening on"_s));
}

void TstGui::autostartWritesAndRemoves()
{
    QTemporaryDir dir;
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    Autostart autostart(u"switchyard"_s);
    QCOMPARE(autostart.filePath(), dir.filePath(u"autostart/switchyard.desktop"_s));
    QVERIFY(!autostart.isEnabled());
    QString error;
    QVERIFY2(autostart.setEnabled(true, &error), qPrintable(error));
    QVERIFY(autostart.isEnabled());
    QFile file(autostart.filePath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString entry = QString::fromUtf8(file.readAll());
    QVERIFY(entry.startsWith(u"[Desktop Entry]\n"_s));
    QVERIFY(entry.contains(u"\nExec=switchyard --tray\n"_s));
    QVERIFY(entry.contains(u"\nType=Application\n"_s));
    file.close();
    QVERIFY(autostart.setEnabled(true, &error));   // again: still one file
    QVERIFY(autostart.setEnabled(false, &error));
    QVERIFY(!autostart.isEnabled());
    QVERIFY(!QFile::exists(autostart.filePath()));
    QVERIFY(autostart.setEnabled(false, &error));   // already off

    // A path with a space is quoted as the spec says.
    Autostart spaced(u"/opt/my apps/switchyard"_s);
    QVERIFY(spaced.desktopEntry().contains(u"Exec=\"/opt/my apps/switchyard\" --tray"_s));
    qunsetenv("SWITCHYARD_AUTOSTART_DIR");
}

void TstGui::settingsDialogValidatesBeforeSaving()
{
    QTemporaryDir dir;
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    Autostart autostart(u"switchyard"_s);
    SettingsDialog dialog(&settings, &autostart, {});
    QSignalSpy applied(&dialog, &SettingsDialog::applied);

    dialog.listenField()->setText(u"not an address"_s);
    QVERIFY(!dialog.save());
    QCOMPARE(applied.count(), 0);
    QVERIFY(settings.listen().isEmpty());

    const QString broken = dir.filePath(u"broken.json"_s);
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"listen": "127.0.0.1:18766", "hosts": {"bad-name": {"engines": {}}}})");
    f.close();
    dialog.listenField()->setText(u"127.0.0.1:18999"_s);
    dialog.configField()->setText(broken);
    const QStringList problems = dialog.validate();
    QVERIFY(!problems.isEmpty());
    QVERIFY2(problems.join(u'\n').contains(u"broken.json"_s), qPrintable(problems.join(u'\n')));
    QVERIFY(!dialog.save());
    QVERIFY(settings.configPath().isEmpty());

    dialog.configField()->clear();
    dialog.early200Field()->setValue(7);
    dialog.autostartField()->setChecked(true);
    QVERIFY(dialog.save());
    QCOMPARE(applied.count(), 1);
    QCOMPARE(settings.listen(), u"127.0.0.1:18999"_s);
    QCOMPARE(settings.early200After(), std::optional<std::chrono::seconds>(7s));
    QVERIFY(!settings.commentEvery());
    QVERIFY(autostart.isEnabled());
    dialog.autostartField()->setChecked(false);
    QVERIFY(dialog.save());
    QVERIFY(!autostart.isEnabled());
    qunsetenv("SWITCHYARD_AUTOSTART_DIR");
}

void TstGui::configReloadAppliesOnlyValidConfigs()
{
    fake::FakeLlamaServer one(GuiFleet::defaultH1());
    fake::FakeLlamaServer two(GuiFleet::defaultH2());
    QVERIFY(one.listen() && two.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    auto write = [&](const QByteArray &text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    };
    const QByteArray hostOne = R"("one": {"driver": "static", "engines": {"main": {"url": ")"
                               + one.baseUrl().toString().toUtf8() + R"("}}})";
    const QByteArray hostTwo = R"("two": {"driver": "static", "engines": {"main": {"url": ")"
                               + two.baseUrl().toString().toUtf8() + R"("}}})";
    write(R"({"listen": "127.0.0.1:0", "hosts": {)" + hostOne + "}}");

    AppOptions options;
    options.configPath = path;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    settings.setEarly200After(3s);
    ConfigReloader reloader(options, &settings, &runner, nullptr);
    const ConfigResult first = StartupConfig::resolve(options, &settings);
    QVERIFY(first.ok());
    QCOMPARE(first.config->waiting.early200After, std::chrono::milliseconds(3s));   // the setting wins
    QString error;
    QVERIFY(runner.start(*first.config, &error));
    RelayService *before = runner.service();
    QCOMPARE(reloader.watchedFile(), QFileInfo(path).absoluteFilePath());

    // A broken file changes nothing, and says why.
    QSignalSpy failed(&reloader, &ConfigReloader::reloadFailed);
    QSignalSpy reloaded(&reloader, &ConfigReloader::reloaded);
    QSignalSpy changed(&runner, &RelayRunner::serviceChanged);
    write(R"({"listen": "127.0.0.1:0", "hosts": {"one": {"driver": "static", "engines": {"main": {"url": "ftp://x"}}}}})");
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
    QVERIFY(failed.first().first().toStringList().join(u'\n').contains(u"hosts.one"_s));
    QCOMPARE(runner.service(), before);
    QCOMPARE(changed.count(), 0);

    // A good one replaces the running relay, with the second host.
    write(R"({"listen": "127.0.0.1:0", "hosts": {)" + hostOne + "," + hostTwo + "}}");
    QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 5000);
    QCOMPARE(changed.count(), 1);
    QVERIFY(runner.service() != before);
    QCOMPARE(runner.service()->catalog()->hostNames(), (QStringList{u"one"_s, u"two"_s}));
    QCOMPARE(runner.service()->config().waiting.early200After, std::chrono::milliseconds(3s));
    // The old one retires once it has nothing left to answer.
    QTRY_COMPARE_WITH_TIMEOUT(runner.retiringCount(), 0, 5000);
}

// ---- tray -----------------------------------------------------------------------------------

void TstGui::trayUnavailableFallsBackToWindow()
{
    QVERIFY(!TrayController::isAvailable());   // offscreen has no tray
    GuiFleet fleet;
    QVERIFY(fleet.start());
    DesktopApp::Options options;
    options.trayOnly = true;
    options.trayWait = 0ms;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    desktop.start();
    QVERIFY(desktop.window()->isVisible());
    QVERIFY(!desktop.hasTray());
    QCOMPARE(desktop.window()->notice()->kind(), NoticeBar::Kind::Warning);
    QCOMPARE(desktop.window()->notice()->text(), DesktopApp::noTrayMessage());
    // Closing the window quits through DesktopApp (gracefully), not through Qt's last-window rule.
    QVERIFY(!QApplication::quitOnLastWindowClosed());
}

void TstGui::exportDialogPreviewsCopiesSavesAndMerges()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    ExportDialog dialog(fleet.endpoint(), QString(), fleet.service()->catalog()->aliases());
    dialog.exporter()->setProgram(binDir() + u"/switchyard"_s);
    QSignalSpy exported(&dialog, &ExportDialog::exported);

    // opencode first: the preview is the export command's config for this relay.
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    QJsonObject config = QJsonDocument::fromJson(dialog.preview().toUtf8()).object();
    const QJsonObject provider = config.value("provider"_L1).toObject().value("switchyard"_L1).toObject();
    QCOMPARE(provider.value("options"_L1).toObject().value("baseURL"_L1).toString(), fleet.endpoint().toString() + u"/v1"_s);
    QVERIFY(provider.value("models"_L1).toObject().contains("h1-m1"_L1));

    // Copy puts exactly the preview on the clipboard.
    QApplication::clipboard()->clear();
    dialog.copyButton()->click();
    QCOMPARE(QApplication::clipboard()->text(), dialog.preview());

    // Merge into a user's opencode.json: their settings stay, the provider is added; the file
    // changes only on Save, and then whole.
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.json"_s);
    const QByteArray mine = R"({"theme": "tokyonight", "provider": {"other": {"name": "mine"}}})";
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(mine);
    }
    dialog.mergeInto(file);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    config = QJsonDocument::fromJson(dialog.preview().toUtf8()).object();
    QCOMPARE(config.value("theme"_L1).toString(), u"tokyonight"_s);
    QVERIFY(config.value("provider"_L1).toObject().contains("other"_L1));
    QVERIFY(config.value("provider"_L1).toObject().contains("switchyard"_L1));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), mine);   // not written yet
    }
    QVERIFY(dialog.save(file));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), dialog.preview());
    }

    // Claude Code as shell exports, with the chosen model.
    dialog.setClient(u"claude-code"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 3, 20000);
    QVERIFY(dialog.preview().contains("ANTHROPIC_BASE_URL"_L1));
    QVERIFY2(!dialog.preview().contains("export "_L1), qPrintable(dialog.preview()));   // JSON by default
    // Codex: its config.toml, on the Responses API.
    dialog.setClient(u"codex"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 4, 20000);
    QVERIFY2(dialog.preview().contains("wire_api = \"responses\""_L1), qPrintable(dialog.preview()));
    QVERIFY2(!dialog.preview().contains("model_catalog_json"_L1), qPrintable(dialog.preview()));
    // With its model catalog, asked for: written next to the config.toml merged into, and named.
    const QString codexConfig = dir.filePath(u"config.toml"_s);
    {
        QFile f(codexConfig);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("approval_policy = \"never\"\n");
    }
    dialog.mergeInto(codexConfig);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 5, 20000);
    QVERIFY(dialog.codexCatalogBox()->isEnabled());
    QCOMPARE(dialog.codexCatalogFile(), dir.filePath(u"switchyard-models.json"_s));
    QVERIFY(!QFile::exists(dialog.codexCatalogFile()));   // not before it is asked for
    dialog.codexCatalogBox()->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 6, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    QVERIFY2(dialog.preview().contains(u"model_catalog_json = \""_s + dialog.codexCatalogFile() + u'"'), qPrintable(dialog.preview()));
    QVERIFY2(dialog.preview().contains("approval_policy = \"never\""_L1), qPrintable(dialog.preview()));
    {
        QFile f(dialog.codexCatalogFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray entries = QJsonDocument::fromJson(f.readAll()).object().value("models"_L1).toArray();
        QVERIFY(!entries.isEmpty());
        QVERIFY(fleet.service()->catalog()->aliases().contains(entries.first().toObject().value("slug"_L1).toString()));
    }
    dialog.codexCatalogBox()->setChecked(false);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 7, 20000);
    // A broken export says why, and offers nothing to copy or save.
    dialog.exporter()->setProgram(dir.filePath(u"no-such-switchyard"_s));
    dialog.setClient(u"pi"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 8, 20000);
    QVERIFY(!dialog.codexCatalogBox()->isEnabled());
    QVERIFY(!exported.last().at(0).toBool());
    QVERIFY(!dialog.copyButton()->isEnabled());
}

void TstGui::trayMenuListsHosts()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    TrayController tray(&hosts, &inFlight);
    hosts.setService(fleet.service());
    tray.setEndpoint(fleet.endpoint());
    QStringList texts;
    for (QAction *a : tray.menu()->actions())
        texts.append(a->text());
    const QString all = texts.join(u'\n');
    QVERIFY2(all.contains(u"h1 — main, up"_s), qPrintable(all));
    QVERIFY(all.contains(u"h2 — main, up"_s));
    QVERIFY(tray.toolTip().contains(fleet.endpoint().toString()));
    QCOMPARE(tray.state(), TrayState::Kind::Idle);
    RequestRecord r = record(u"h1"_s, u"h1-m1"_s, 0, QDateTime::currentDateTime());
    r.startedSteady = std::chrono::steady_clock::now();
    inFlight.started(r);
    QCOMPARE(tray.state(), TrayState::Kind::Busy);
    inFlight.finished(r);
    QCOMPARE(tray.state(), TrayState::Kind::Idle);
    hosts.setActivity(u"h2"_s, HostActivity::Switching);
    QCOMPARE(tray.state(), TrayState::Kind::Switching);
    QSignalSpy open(&tray, &TrayController::openWindowRequested);
    tray.openAction()->trigger();
    QCOMPARE(open.count(), 1);
}

bool TstGui::startXvfb(QProcess &xvfb, QString *display)
{
    // -displayfd: Xvfb picks a free display and writes its number when it is ready.
    xvfb.start(u"Xvfb"_s, {u"-displayfd"_s, u"1"_s, u"-screen"_s, u"0"_s, u"1024x768x24"_s, u"-nolisten"_s, u"tcp"_s});
    if (!xvfb.waitForStarted(5000))
        return false;
    if (!QTest::qWaitFor([&] { return xvfb.canReadLine() || xvfb.state() == QProcess::NotRunning; }, 10000))
        return false;
    const QByteArray number = xvfb.readLine().trimmed();
    if (number.isEmpty())
        return false;
    *display = u":"_s + QString::fromLatin1(number);
    return true;
}

static void stopProcess(QProcess &p)
{
    if (p.state() == QProcess::NotRunning)
        return;
    p.terminate();
    if (!p.waitForFinished(3000)) {
        p.kill();
        p.waitForFinished(3000);
    }
}

void TstGui::trayUnderXvfbWithoutTray()
{
    if (QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty())
        QSKIP("Xvfb is not installed (apt-get install xvfb)");
    QProcess xvfb;
    QString display;
    QVERIFY(startXvfb(xvfb, &display));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);
    env.insert(u"SWITCHYARD_GUI_TRAY_CHILD"_s, u"expect-no-tray"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    const bool done = child.waitForFinished(30000);
    const QString output = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
    stopProcess(child);
    stopProcess(xvfb);
    QVERIFY2(done, qPrintable(output));
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
}

void TstGui::trayUnderXvfbWithTrayer()
{
    if (QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty())
        QSKIP("Xvfb is not installed (apt-get install xvfb)");
    if (QStandardPaths::findExecutable(u"trayer"_s).isEmpty())
        QSKIP("trayer is not installed (apt-get install trayer): no system tray to test against");
    QProcess xvfb;
    QString display;
    QVERIFY(startXvfb(xvfb, &display));
    QProcess trayer;
    QProcessEnvironment trayEnv = QProcessEnvironment::systemEnvironment();
    trayEnv.insert(u"DISPLAY"_s, display);
    trayer.setProcessEnvironment(trayEnv);
    trayer.start(u"trayer"_s, {u"--edge"_s, u"top"_s, u"--align"_s, u"right"_s, u"--widthtype"_s, u"pixel"_s,
                               u"--width"_s, u"200"_s, u"--height"_s, u"24"_s});
    QVERIFY(trayer.waitForStarted(5000));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);
    env.insert(u"SWITCHYARD_GUI_TRAY_CHILD"_s, u"expect-tray"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    const bool done = child.waitForFinished(30000);
    const QString output = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
    stopProcess(child);
    stopProcess(trayer);
    stopProcess(xvfb);
    QVERIFY2(done, qPrintable(output));
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
    QVERIFY(output.contains(u"tray icon shown"_s));
}

// ---- responsiveness -------------------------------------------------------------------------

void TstGui::windowStaysResponsiveUnderLoad()
{
    // As in real use, the hosts and the clients are elsewhere: here on threads of their own,
    // so the GUI thread carries what it carries in the app, the relay and the window.
    QThread hostThread;
    QThread clientThread;
    hostThread.start();
    clientThread.start();
    QObject hostContext;
    QObject clientContext;
    hostContext.moveToThread(&hostThread);
    clientContext.moveToThread(&clientThread);
    fake::FakeLlamaServer *host = nullptr;
    TrafficGenerator *traffic = nullptr;
    std::atomic<int> finished{0};
    std::atomic<int> ok{0};
    const auto cleanup = qScopeGuard([&] {
        QMetaObject::invokeMethod(&clientContext, [&] { delete traffic; }, Qt::BlockingQueuedConnection);
        QMetaObject::invokeMethod(&hostContext, [&] { delete host; }, Qt::BlockingQueuedConnection);
        clientThread.quit();
        hostThread.quit();
        clientThread.wait();
        hostThread.wait();
    });
    QUrl hostUrl;
    QMetaObject::invokeMethod(&hostContext, [&] {
        fake::FakeOptions options = GuiFleet::defaultH1();
        options.tokensPerSecond = 50;   // 100 tokens: two seconds per stream
        options.maxReplyTokens = 100;
        host = new fake::FakeLlamaServer(options);
        if (host->listen())
            hostUrl = host->baseUrl();
    }, Qt::BlockingQueuedConnection);
    QVERIFY(hostUrl.isValid());

    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    ConfigResult config = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1="_s + hostUrl.toString()});
    QVERIFY(config.ok());
    QString error;
    QVERIFY(runner.start(*config.config, &error));
    QTRY_VERIFY(runner.service()->catalog()->host(u"h1"_s)->reachable);
    DesktopApp desktop(clock, &runner, &store, nullptr, nullptr, DesktopApp::Options{});
    const bool noWindow = qEnvironmentVariableIsSet("LATENCY_NO_WINDOW");
    if (!noWindow)
        desktop.start();
    MainWindow *window = desktop.window();
    if (!noWindow)
        QVERIFY(QTest::qWaitForWindowExposed(window));
    window->tabs()->setCurrentWidget(window->requestLogView());   // the busiest view in front

    // The probe: a 10 ms timer; how late each tick comes is the event loop's latency. On a
    // shared machine most of that can be the scheduler running other processes, so each tick
    // also reads how much CPU this thread used since the last one: a tick can only have been
    // held up by the GUI thread's own work for as long as that thread ran.
    QElapsedTimer elapsed;
    elapsed.start();
    qint64 last = 0;
    qint64 lastCpuUs = 0;
    QList<qint64> lateness;      // wall clock
    QList<qint64> ownLateness;   // of it, what this thread's own work can account for
    const auto threadCpuUs = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
    };
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10ms);
    QObject::connect(&probe, &QTimer::timeout, &probe, [&] {
        const qint64 now = elapsed.elapsed();
        const qint64 cpu = threadCpuUs();
        if (last) {
            const qint64 late = std::max<qint64>(0, now - last - 10);
            lateness.append(late);
            ownLateness.append(std::min(late, (cpu - lastCpuUs) / 1000));
            if (late > 20 && qEnvironmentVariableIsSet("LATENCY_TRACE"))
                qInfo("late tick at %lld ms: %lld ms, this thread ran %lld ms of it", now, late, (cpu - lastCpuUs) / 1000);
        }
        last = now;
        lastCpuUs = cpu;
    });
    // The yardstick, taken in this run on this machine as loaded as it is now: the GUI thread's
    // CPU time for rendering the whole window once, as every frame of a busy window costs. A
    // machine that is slow or shared makes it and the thread's other work slow alike, so a stall
    // is judged against it, not against a fixed number of milliseconds alone.
    const auto renderCpuMs = [&] {
        qint64 worst = 0;
        for (int i = 0; i < 5; ++i) {
            const qint64 before = threadCpuUs();
            const QPixmap frame = window->grab();
            worst = std::max(worst, (threadCpuUs() - before) / 1000);
        }
        return worst;
    };
    qint64 renderMs = renderCpuMs();
    probe.start();

    const QUrl endpoint = runner.service()->endpoint();
    QMetaObject::invokeMethod(&clientContext, [&] {
        traffic = new TrafficGenerator(endpoint);
        QObject::connect(traffic, &TrafficGenerator::requestFinished, traffic, [&](int status) {
            ok += status == 200;
            ++finished;
        });
        for (int i = 0; i < 50; ++i)
            traffic->chat(u"h1-m1"_s, 100);
        // And the log fills: quick requests alongside the streams.
        for (int i = 0; i < 300; ++i)
            traffic->get(u"/v1/models"_s);
    }, Qt::BlockingQueuedConnection);
    QTRY_VERIFY_WITH_TIMEOUT(finished == 350, 60000);
    probe.stop();
    QCOMPARE(ok.load(), 350);
    QTRY_VERIFY(window->requestLog()->rowCount() >= 350);
    renderMs = std::max(renderMs, renderCpuMs());   // and with the log full, as the window is at the end

    std::sort(lateness.begin(), lateness.end());
    std::sort(ownLateness.begin(), ownLateness.end());
    QVERIFY(lateness.size() > 100);
    const auto p99 = [](const QList<qint64> &sorted) { return sorted.at(qsizetype(sorted.size() * 0.99)); };
    qInfo("event-loop latency over %lld ticks: wall clock p99 %lld ms, worst %lld ms; "
          "of it the GUI thread's own work: p99 %lld ms, worst %lld ms; one render of the window: %lld ms",
          qint64(lateness.size()), p99(lateness), lateness.last(), p99(ownLateness), ownLateness.last(), renderMs);
    // No event-loop iteration does more work than a few renders of the whole window (50 ms on an
    // idle machine, where a render takes 10-15 ms): the log takes its rows in bounded batches.
    const qint64 limit = std::max<qint64>(50, 4 * renderMs);
    QVERIFY2(ownLateness.last() < limit,
             qPrintable(u"the GUI thread held the event loop %1 ms (limit %2 ms: 4 renders of the window, %3 ms each)"_s
                            .arg(ownLateness.last()).arg(limit).arg(renderMs)));
}

int main(int argc, char *argv[])
{
    const QByteArray child = qgetenv("SWITCHYARD_GUI_TRAY_CHILD");
    if (!child.isEmpty())
        return trayChildMain(argc, argv, child);
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TstGui test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_gui.moc"
