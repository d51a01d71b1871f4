// The desktop's pure pieces: the timeline's scale and ticks, the request density, the tray's state.
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

#include "guitesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace guitest;

class TstGuiPieces : public QObject
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
};

void TstGuiPieces::initTestCase()
{
    initUiResources();
    QStandardPaths::setTestModeEnabled(true);
}

// ---- pure pieces --------------------------------------------------------------------------

void TstGuiPieces::timelineScaleMapsTimeToPixels_data()
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

void TstGuiPieces::timelineScaleMapsTimeToPixels()
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

void TstGuiPieces::timelineScaleZoomKeepsAnchor()
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

void TstGuiPieces::timelineScaleTicks()
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

void TstGuiPieces::requestDensityCountsActiveRequests()
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

void TstGuiPieces::trayState_data()
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

void TstGuiPieces::trayState()
{
    QFETCH(QList<HostActivity>, hosts);
    QFETCH(int, inFlight);
    QFETCH(int, expected);
    QCOMPARE(int(TrayState::compute(hosts, inFlight)), expected);
    QVERIFY(!QIcon(TrayState::iconPath(TrayState::Kind(expected))).isNull());
}

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TstGuiPieces test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guipieces.moc"
