// States that do not mislead (issue 22): what the window shows, asserted on its widgets and item
// models, not on pixels. The host cards, the timeline and German here: items 1 (loading), 3, 10
// (the default span), 12, 18 and 20; items 7, 9, 13, 15, 16 and 17 (the models table, dialogs,
// layout) in tst_stateswindow; items 1 (switch) and 2 in tst_guiwindow's
// switchShowsOnHostsTimelineAndTray; 10 (labels) and 11 in tst_timelinecontent.
#include "app/catalogeventrecorder.h"
#include "catalog/catalog.h"
#include "dialogs/welcomedialog.h"
#include "germanwindow.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "shared/statuspalette.h"
#include "store/timelinemodel.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "twoenginehost.h"
#include "window/hostcarddelegate.h"
#include "window/relayclient.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>

#include <cmath>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

double distance(const QColor &a, const QColor &b)
{
    return std::sqrt(std::pow(a.red() - b.red(), 2) + std::pow(a.green() - b.green(), 2) + std::pow(a.blue() - b.blue(), 2));
}

} // namespace

class TstStates : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadingShowsOnTheCard();
    void leaseColourIsNoEngineColour();
    void timelineSpanFromTheData();
    void reloadKeepsTheEngineBar();
    void liveFromTheEventFeed();
    void germanFitsAndQtSpeaksIt();   // last: it installs the German catalogues
};

void TstStates::loadingShowsOnTheCard()
{
    // Item 1: a model load keeps the host up, and the card says "loading M" with the time.
    fake::FakeOptions slow = GuiFleet::defaultH1();
    slow.loadDelay = 3s;
    GuiFleet fleet;
    QVERIFY(fleet.start(slow));
    HostTableModel hosts;
    hosts.setService(fleet.service());
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    client.load(u"h1-m2"_s);
    const QModelIndex h1 = hosts.index(0);
    QTRY_COMPARE_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList(), QStringList{u"m2"_s}, WaitMs);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    const QDateTime since = h1.data(HostTableModel::LoadingSinceRole).toDateTime();
    QVERIFY(since.isValid());
    const QString line = HostCardDelegate::engineLine(h1, since.addSecs(2));
    QVERIFY2(line.startsWith(u"engine main · loading m2 · "_s) && line.endsWith(u" · 2 s"_s), qPrintable(line));   // progress: tst_hostcardload
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList().isEmpty(), WaitMs);
    QVERIFY(HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()).contains(u"2 of 2 model"_s));
}

void TstStates::leaseColourIsNoEngineColour()
{
    // Item 3: no engine's colour is the lease's (or a status colour), whatever it is called.
    QSet<QRgb> hues;
    for (int i = 0; i < 400; ++i) {
        const QString name = i < 6 ? QStringList{u"main"_s, u"mainline"_s, u"fork"_s, u"ik-llama"_s, u"a"_s, u"b"_s}.at(i)
                                   : u"engine%1"_s.arg(i);
        const QColor c = StatusPalette::forEngine(name);
        hues.insert(c.rgb());
        QVERIFY2(distance(c, StatusPalette::lease()) > 60, qPrintable(name + u" "_s + c.name()));
        QVERIFY2(distance(c, StatusPalette::switching()) > 60, qPrintable(name + u" "_s + c.name()));
        QVERIFY2(distance(c, StatusPalette::bad()) > 60, qPrintable(name + u" "_s + c.name()));
    }
    QCOMPARE(hues.size(), 8);

    // The legend names the engines in the colours their bars have, not one teal "engine up".
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    SystemClock clock;
    TimelineView view(clock, &hosts);
    const QString legend = view.legend()->text();
    QVERIFY2(legend.contains(StatusPalette::forEngine(u"main").name()) && legend.contains(u"main"_s), qPrintable(legend));
    QCOMPARE(view.legendColor(u"main"_s), StatusPalette::forEngine(u"main"));
    QCOMPARE(view.legendColor(u"lease"_s), StatusPalette::lease());
    QVERIFY(view.legendColor(u"lease"_s) != view.legendColor(u"main"_s));
}

void TstStates::timelineSpanFromTheData()
{
    // Item 10: the default span follows the newest events (here 3 minutes back: 5 minutes
    // shown), until the user picks one.
    FixedClock clock(QDateTime::currentDateTime());
    TimelineModel events;
    HistoryEvent up;
    up.kind = HistoryEvent::Kind::HostUp;
    up.host = u"h1"_s;
    up.engine = u"main"_s;
    up.at = clock.now().addSecs(-180);
    events.append(up);
    TimelineWidget timeline(clock);
    timeline.setHosts({u"h1"_s});
    timeline.setEvents(&events);
    timeline.resize(900, timeline.sizeHint().height());
    timeline.setFollowing(true);
    QVERIFY(timeline.isAutoSpan());
    QCOMPARE(timeline.scale().spanMs(), qint64(5 * 60 * 1000));
    timeline.setSpan(std::chrono::hours(1));
    QVERIFY(!timeline.isAutoSpan());
    HistoryEvent later = up;
    later.at = clock.now().addSecs(-3600 * 5);   // older data no longer changes the user's span
    events.append(later);
    timeline.setFollowing(true);
    QCOMPARE(timeline.scale().spanMs(), qint64(3600 * 1000));
}

void TstStates::reloadKeepsTheEngineBar()
{
    // Item 12: Reload Config re-creates every host's catalog state and controller. The new
    // catalog starts at a host's first engine until the controller has probed which one runs;
    // here the second one runs, and the first is not there. That is no downtime: the timeline
    // keeps one bar for the running engine.
    TwoEngineHost host;
    host.running = u"b"_s;   // b runs on the host
    host.recordEvents = true;
    host.adjustConfig = [](Config &config) {
        config.hosts.first().engines.first().models = {u"alpha"_s};   // listed: nothing to discover
    };
    QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const Config &config = host.config;
    HistoryStore &store = *host.store;
    RelayRunner &runner = *host.runner;
    const auto servingB = [&runner] {
        const Catalog::HostState *h = runner.service()->catalog()->host(u"h1"_s);
        return h->engine == u"b"_s && h->reachable;
    };
    QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
    const QDateTime before = QDateTime::currentDateTime();
    for (int i = 0; i < 2; ++i) {
        RelayService *old = runner.service();
        QVERIFY2(runner.replace(config, &error), qPrintable(error));
        QVERIFY(runner.service() != old);
        QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
        runner.service()->catalog()->refreshAll();
        QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
    }
    TimelineModel timeline;
    timeline.loadFrom(store, {});
    QStringList seen;
    for (const HistoryEvent &e : store.events({}))
        seen.append(HistoryEvent::kindName(e.kind) + u' ' + e.engine + u' ' + e.detail);
    const QList<EngineInterval> bars = timeline.engineIntervals(u"h1"_s, before.addSecs(-60), QDateTime::currentDateTime());
    QVERIFY2(bars.size() == 1, qPrintable(QString::number(bars.size()) + u" bars from\n"_s + seen.join(u'\n')));
    QCOMPARE(bars.first().engine, u"b"_s);
    QVERIFY(bars.first().ongoing);
    QVERIFY2(!seen.join(u'\n').contains(u"host_down"_s), qPrintable(seen.join(u'\n')));
}

void TstStates::liveFromTheEventFeed()
{
    // Item 20: while the host's /models/sse feed is connected, the card says "live", not how
    // old the last poll is.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    const QModelIndex h1 = hosts.index(0);
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    const QString facts = HostCardDelegate::factsLine(h1, QDateTime::currentDateTime().addSecs(25));
    QVERIFY2(facts.startsWith(u"live · "_s) && !facts.contains(u"polled"_s), qPrintable(facts));

    // The feed gone (the box is off): the poll's age again.
    fleet.h1->close();
    fleet.service()->catalog()->refreshHost(u"h1"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    QVERIFY(HostCardDelegate::factsLine(h1, QDateTime::currentDateTime()).contains(u"polled"_s));
}

void TstStates::germanFitsAndQtSpeaksIt()
{
    // Item 18: Qt's own buttons in German (qtbase_de), our "Merge Into" as merging, and the
    // card's lines within the narrowest card.
    QVERIFY2(useGerman(QStringLiteral(SWITCHYARD_QM_DIR)), SWITCHYARD_QM_DIR);
    QDialogButtonBox box(QDialogButtonBox::Cancel | QDialogButtonBox::Close);
    QCOMPARE(box.button(QDialogButtonBox::Cancel)->text(), u"Abbrechen"_s);
    QCOMPARE(box.button(QDialogButtonBox::Close)->text().remove(u'&'), u"Schließen"_s);
    const QString merge = QCoreApplication::translate("switchyard::ExportDialog", "&Merge Into…");
    QVERIFY2(!merge.contains(u"Einfügen"_s) && merge != u"&Merge Into…"_s, qPrintable(merge));
    WelcomeDialog welcome(u"/nonexistent/switchyard.json"_s);
    QVERIFY2(welcome.windowTitle() != u"Switchyard: Welcome"_s, qPrintable(welcome.windowTitle()));

    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(fleet.service());
    const QModelIndex h1 = hosts.index(0);
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    const QFontMetrics fm(QApplication::font());
    const int content = HostCardDelegate::CardWidth - 2 * 4 - 5 - 2 * 12;   // margins, strip, padding
    const QDateTime now = QDateTime::currentDateTime();
    for (const QString &line : {HostCardDelegate::engineLine(h1, now), HostCardDelegate::factsLine(h1, now),
                                HostCardDelegate::detailLine(h1, now)}) {
        QVERIFY2(fm.horizontalAdvance(line) <= content, qPrintable(u"%1: %2 px of %3"_s.arg(line).arg(fm.horizontalAdvance(line)).arg(content)));
    }
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

QTEST_MAIN(TstStates)
#include "tst_states.moc"
