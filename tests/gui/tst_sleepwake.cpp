// A planned sleep and the wake after it, as the desktop shows them (issue 30, items 1 and 5), on
// the demo fleet whose 3060 stops its engine when idle and sleeps: the polls then find its engine
// refusing the connection and record "host down", yet the timeline draws a sleep band (no "down"
// band), its tooltip says it is and was asleep, the fleet's summary reads "2 up · 1 asleep" in a
// neutral colour, the tray agrees; a request wakes it, and while the box that woke starts its
// engine the card reads "waking · engine main starting · N s", without a switch arrow or a poll's
// age. Offscreen and under Xvfb.
#include "demo/demofleet.h"
#include "demorun.h"
#include "models/hostsummary.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "shared/hostactivity.h"
#include "shared/statuspalette.h"
#include "store/historystore.h"
#include "store/timelinemodel.h"
#include "timeline/timelinecontent.h"
#include "timeline/timelinetext.h"
#include "timeline/timelineview.h"
#include "tray/traycontroller.h"
#include "tray/traystate.h"
#include "window/hostcarddelegate.h"

#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>

#include <memory>

using namespace switchyard;
using switchyard::test::DemoRun;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 20000;   // generous: a loaded 2-core machine
using Span = TimelineContent::Span;

QNetworkReply *postChat(QNetworkAccessManager &network, const QUrl &endpoint, const QString &model)
{
    QUrl url = endpoint;
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const QByteArray body = R"({"model":")" + model.toUtf8() + R"(","messages":[{"role":"user","content":"Hi"}],"max_tokens":4})";
    return network.post(request, body);
}

bool recorded(HistoryStore &store, const QString &host, HistoryEvent::Kind kind)
{
    store.flush();
    for (const HistoryEvent &e : store.events({})) {
        if (e.host == host && e.kind == kind)
            return true;
    }
    return false;
}

// The 3060's lane over its whole history, as the timeline widget gets it.
QList<Span> lane(HistoryStore &store, TimelineModel &model, const QString &host)
{
    store.flush();
    model.loadFrom(store, {});
    TimelineContent content;
    content.setEvents(&model);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    return content.spans(host, now - 10 * 60 * 1000, now);
}

QList<Span> ofKind(const QList<Span> &spans, Span::Kind kind)
{
    QList<Span> out;
    for (const Span &s : spans) {
        if (s.kind == kind)
            out.append(s);
    }
    return out;
}

} // namespace

class TstSleepWake : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sleepIsNotDownAndAWakeReadsAsAWake();
};

void TstSleepWake::sleepIsNotDownAndAWakeReadsAsAWake()
{
    DemoRun demo;
    DemoFleet::Timing timing;
    timing.idleStop = 3s;
    timing.boot = 1500ms;
    timing.engineStart = 3s;   // long enough to read the card while the engine starts
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));
    const QString sleeper(DemoFleet::SleeperHost);

    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(demo.runner->service());
    TrayController tray(&hosts, &inFlight);
    const auto card = [&] { return hosts.index(hosts.rowOf(sleeper)); };
    const auto activity = [&] { return HostActivity(card().data(HostTableModel::ActivityRole).toInt()); };

    // Up first, then idle: its engine stops, the sleep command runs, the box sleeps, and the
    // polls of its engine fail: "host down" in the history, as in the issue.
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Asleep, WaitMs);
    QTRY_VERIFY2_WITH_TIMEOUT(!demo.fleet->power(sleeper).awake, "the simulated box did not go to sleep", WaitMs);
    QTRY_VERIFY2_WITH_TIMEOUT(recorded(*demo.store, sleeper, HistoryEvent::Kind::SleepCommand), "no sleep command recorded", WaitMs);
    // (The catalog polls a host that does not answer less often: up to half a minute.)
    QTRY_VERIFY2_WITH_TIMEOUT(recorded(*demo.store, sleeper, HistoryEvent::Kind::HostDown),
                              "the polls of the sleeping box recorded no \"host down\"", 3 * WaitMs);

    // The timeline: a sleep band, going on, and no "down" band.
    TimelineModel history;
    QList<Span> spans = lane(*demo.store, history, sleeper);
    QVERIFY2(ofKind(spans, Span::Kind::Down).isEmpty(), "a planned sleep is drawn as downtime");
    QList<Span> sleeps = ofKind(spans, Span::Kind::Sleep);
    QCOMPARE(sleeps.size(), 1);
    QVERIFY(sleeps.first().ongoing);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QString tip = TimelineText::spanTooltip(sleeps.first(), sleeper, now);
    QVERIFY2(tip.startsWith(u"<b>3060</b> is asleep<br>"_s), qPrintable(tip));
    QVERIFY2(!tip.contains(u"down"_s) && !tip.contains(u"refused"_s), qPrintable(tip));
    QCOMPARE(TimelineContent::spanAt(spans, sleeps.first().startMs + 1, 0, false)->kind, Span::Kind::Sleep);
    // The legend names the band in the colour it is painted in, apart from "down or failed".
    TimelineView view(demo.clock, &hosts);
    QVERIFY2(view.legend()->text().contains(u"asleep"_s), qPrintable(view.legend()->text()));
    QCOMPARE(view.legendColor(u"asleep"_s), StatusPalette::idle());
    QVERIFY(view.legendColor(u"asleep"_s) != view.legendColor(u"down"_s));

    // The fleet's summary: two serve, one sleeps, nothing is wrong.
    QTRY_COMPARE_WITH_TIMEOUT(hosts.activities().count(HostActivity::Up), 2, WaitMs);
    const HostSummary asleep(hosts.activities());
    QCOMPARE(asleep.text(), u"2 up · 1 asleep"_s);
    QCOMPARE(asleep.statusBarText(), u"2 up · 1 asleep"_s);
    QCOMPARE(asleep.color(), StatusPalette::idle());
    QVERIFY(asleep.color() != StatusPalette::busy());
    QVERIFY2(tray.toolTip().contains(u"\n2 up · 1 asleep, "_s), qPrintable(tray.toolTip()));
    QCOMPARE(TrayState::compute(hosts.activities(), 0), TrayState::Kind::Idle);

    // A request wakes it: first the box, then the engine a box that woke starts, one wake on one
    // clock; never "switching", no arrow, no poll's age.
    QNetworkAccessManager network;
    std::unique_ptr<QNetworkReply> reply(postChat(network, demo.runner->service()->endpoint(), u"3060-ember-14b"_s));
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Waking, WaitMs);
    const QDateTime since = card().data(HostTableModel::ActivitySinceRole).toDateTime();
    QVERIFY(since.isValid());
    QCOMPARE(HostCardDelegate::engineLine(card(), since.addSecs(1)), u"waking · waiting for the host to answer · 1 s"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(!card().data(HostTableModel::SwitchToRole).toString().isEmpty() || activity() != HostActivity::Waking,
                              "the box that woke never started its engine", WaitMs);
    QCOMPARE(activity(), HostActivity::Waking);
    QCOMPARE(HostTableModel::activityTitle(activity()), u"waking"_s);
    QCOMPARE(card().data(HostTableModel::ActivitySinceRole).toDateTime(), since);
    const QString starting = HostCardDelegate::engineLine(card(), since.addSecs(2));
    QCOMPARE(starting, u"waking · engine main starting · 2 s"_s);
    QVERIFY2(!starting.contains(u"→"_s), qPrintable(starting));
    const QString facts = HostCardDelegate::factsLine(card(), QDateTime::currentDateTime());
    QVERIFY2(!facts.contains(u"polled"_s), qPrintable(facts));
    const QString detail = HostCardDelegate::detailLine(card(), QDateTime::currentDateTime());
    QVERIFY2(!detail.contains(u"the old engine stopped"_s), qPrintable(detail));
    QCOMPARE(card().data(HostTableModel::ActivityTextRole).toString(), u"waking (engine main starting)"_s);
    const HostSummary waking(hosts.activities());
    QCOMPARE(waking.text(), u"2 up · 1 waking"_s);
    QVERIFY(waking.color() != StatusPalette::busy());

    // Awake and served: up again, the summary back to its usual words, and the sleep band ended
    // where the wake began, its tooltip in the past.
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Up, WaitMs);
    QCOMPARE(HostSummary(hosts.activities()).text(), u"3 of 3 up"_s);
    QCOMPARE(HostSummary(hosts.activities()).color(), StatusPalette::good());
    spans = lane(*demo.store, history, sleeper);
    QVERIFY2(ofKind(spans, Span::Kind::Down).isEmpty(), "a planned sleep is drawn as downtime");
    sleeps = ofKind(spans, Span::Kind::Sleep);
    QCOMPARE(sleeps.size(), 1);
    QVERIFY(!sleeps.first().ongoing);
    tip = TimelineText::spanTooltip(sleeps.first(), sleeper, QDateTime::currentMSecsSinceEpoch());
    QVERIFY2(tip.startsWith(u"<b>3060</b> was asleep<br>"_s), qPrintable(tip));
    QVERIFY2(!tip.contains(u"down"_s) && !tip.contains(u"refused"_s), qPrintable(tip));
}

QTEST_MAIN(TstSleepWake)
#include "tst_sleepwake.moc"
