// The demo fleet shows the fleet's features to a newcomer (`switchyard --demo`): a model served
// by two boxes is one row naming both hosts, and the 3060 sleeps after idling and wakes for the
// next request, with the wait on its card, in the request log and on the timeline. The demo's
// wake packet goes to 127.0.0.1 only. Offscreen and under Xvfb.
#include "demo/demoboxpower.h"
#include "demo/demofleet.h"
#include "demorun.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/modeltablemodel.h"
#include "models/requestlogfilterproxy.h"
#include "shared/hostactivity.h"
#include "store/historystore.h"
#include "store/requestlogmodel.h"
#include "timeline/timelinetext.h"
#include "window/hostcarddelegate.h"
#include "window/mainwindow.h"
#include "window/requestdetailspane.h"
#include "window/requestlogview.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace switchyard;
using switchyard::test::DemoRun;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 20000;   // generous: a loaded 2-core machine

QNetworkReply *postChat(QNetworkAccessManager &network, const QUrl &endpoint, const QString &model)
{
    QUrl url = endpoint;
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const QByteArray body = R"({"model":")" + model.toUtf8() + R"(","messages":[{"role":"user","content":"Hi"}],"max_tokens":4})";
    return network.post(request, body);
}

int rowOf(const RequestLogModel *log, const QString &alias)
{
    for (int row = log->rowCount() - 1; row >= 0; --row) {
        if (log->recordAt(row).model == alias)
            return row;
    }
    return -1;
}

} // namespace

class TstDemoFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replicatedModelNamesBothHosts();
    void sleeperSleepsAndWakesForARequest();
};

void TstDemoFleet::replicatedModelNamesBothHosts()
{
    DemoRun demo;
    fake::DemoFleet::Timing timing;
    timing.idleStop = 10min;   // awake throughout
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));

    HostTableModel hosts;
    hosts.setService(demo.runner->service());
    QCOMPARE(hosts.rowCount(), 3);
    QVERIFY(hosts.rowOf(u"3060"_s) >= 0);

    ModelTableModel models(demo.clock);
    models.setService(demo.runner->service());
    const QString alias(fake::DemoFleet::ReplicatedAlias);
    // Once both boxes have said what they serve.
    QTRY_VERIFY_WITH_TIMEOUT(models.rowOfAlias(alias) >= 0 && models.rowOfAlias(u"a9-strata-8b"_s) >= 0
                                 && models.rowOfAlias(u"3060-strata-8b"_s) >= 0,
                             WaitMs);
    const int row = models.rowOfAlias(alias);
    QCOMPARE(models.index(row, ModelTableModel::HostColumn).data().toString(), u"a9, 3060"_s);
    QCOMPARE(models.index(row, ModelTableModel::HostColumn).data(Qt::ToolTipRole).toString(), u"Replicated on 2 hosts"_s);
    // Each box's own row stays too, with its own host.
    QCOMPARE(models.index(models.rowOfAlias(u"a9-strata-8b"_s), ModelTableModel::HostColumn).data().toString(), u"a9"_s);
    QCOMPARE(models.index(models.rowOfAlias(u"3060-strata-8b"_s), ModelTableModel::HostColumn).data().toString(), u"3060"_s);

    // A request for it is served by one of them.
    QNetworkAccessManager network;
    std::unique_ptr<QNetworkReply> reply(postChat(network, demo.runner->service()->endpoint(), alias));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
}

void TstDemoFleet::sleeperSleepsAndWakesForARequest()
{
    DemoRun demo;
    fake::DemoFleet::Timing timing;
    timing.idleStop = 3s;
    timing.boot = 1500ms;
    timing.engineStart = 300ms;
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));
    DemoBoxPower *power = demo.fleet->sleeperPower();

    // The demo's wake packet never leaves the machine.
    const HostConfig *sleeper = nullptr;
    for (const HostConfig &h : std::as_const(demo.config.hosts)) {
        if (h.name == fake::DemoFleet::SleeperHost)
            sleeper = &h;
    }
    QVERIFY(sleeper);
    QVERIFY(sleeper->wake.enabled());
    QCOMPARE(sleeper->wake.broadcast, QHostAddress(QHostAddress::LocalHost));
    QCOMPARE(sleeper->wake.port, power->port());
    QVERIFY(!sleeper->sleepCommand.isEmpty());

    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(demo.runner->service());
    MainWindow window(demo.clock, &hosts, &inFlight, nullptr);
    window.setHistory(demo.store.get());
    window.setService(demo.runner->service());
    window.resize(1000, 650);
    window.show();
    const auto card = [&hosts] { return hosts.index(hosts.rowOf(u"3060"_s)); };
    const auto activity = [&card] { return HostActivity(card().data(HostTableModel::ActivityRole).toInt()); };

    // Up first, then idle: its engine stops, the sleep command runs, the box sleeps.
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Asleep, WaitMs);
    QVERIFY2(HostCardDelegate::engineLine(card(), QDateTime::currentDateTime()).startsWith(u"asleep"_s),
             qPrintable(HostCardDelegate::engineLine(card(), QDateTime::currentDateTime())));
    QTRY_VERIFY2_WITH_TIMEOUT(!power->isAwake(), "the sleep command did not put the simulated box to sleep", WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(HostCardDelegate::gpuLine(card()).isEmpty(), WaitMs);   // no reading from a box asleep
    ModelTableModel models(demo.clock);
    models.setService(demo.runner->service());
    QTRY_COMPARE_WITH_TIMEOUT(models.index(models.rowOfAlias(u"3060-ember-14b"_s), ModelTableModel::StatusColumn).data().toString(),
                              u"asleep"_s, WaitMs);
    QCOMPARE(power->wakePackets(), 0);

    // A request for its model wakes it: the card says so with the time it waits, the request
    // log says what the request waits for.
    QNetworkAccessManager network;
    std::unique_ptr<QNetworkReply> reply(postChat(network, demo.runner->service()->endpoint(), u"3060-ember-14b"_s));
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Waking, WaitMs);
    const QDateTime since = card().data(HostTableModel::ActivitySinceRole).toDateTime();
    QVERIFY(since.isValid());
    const QString line = HostCardDelegate::engineLine(card(), since.addSecs(3));
    QVERIFY2(line.startsWith(u"waking"_s) && line.endsWith(u" · 3 s"_s), qPrintable(line));
    RequestLogModel *log = window.requestLog();
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(log, u"3060-ember-14b"_s) >= 0
                                 && log->index(rowOf(log, u"3060-ember-14b"_s), RequestLogModel::StatusColumn).data().toString()
                                        == u"waiting: host wake-up"_s,
                             WaitMs);
    QCOMPARE(power->wakePackets(), 1);

    // Awake, its engine started, the request answered; its record keeps what it waited for.
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QVERIFY(power->isAwake());
    const int row = rowOf(log, u"3060-ember-14b"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!log->isLive(row), WaitMs);
    QCOMPARE(log->recordAt(row).waitReason.kind, WaitReason::Kind::Wake);
    RequestLogView *view = window.requestLogView();
    view->table()->selectRow(view->proxy()->mapFromSource(log->index(row, 0)).row());
    QVERIFY2(view->details()->fieldText(u"wait"_s).endsWith(u" for host wake-up"_s),
             qPrintable(view->details()->fieldText(u"wait"_s)));

    // The timeline names what woke it.
    bool sent = false;
    bool woke = false;
    for (const HistoryEvent &e : demo.store->events({})) {
        if (e.host != "3060"_L1)
            continue;
        if (e.kind == HistoryEvent::Kind::WakeSent) {
            sent = true;
            QCOMPARE(e.model, u"3060-ember-14b"_s);
            QVERIFY(e.detail.contains(u"to 127.0.0.1:"_s));
        }
        if (e.kind == HistoryEvent::Kind::Woke) {
            woke = true;
            const QString tip = TimelineText::markerTooltip(e, QDateTime::currentMSecsSinceEpoch());
            QVERIFY2(tip.contains(u"woken for a request for <b>3060-ember-14b</b>"_s), qPrintable(tip));
            QVERIFY2(!tip.contains(u"host check"_s), qPrintable(tip));
        }
    }
    QVERIFY(sent);
    QVERIFY(woke);
}

QTEST_MAIN(TstDemoFleet)
#include "tst_demofleet.moc"
