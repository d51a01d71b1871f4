// The demo fleet shows the fleet's features to a newcomer (`switchyard --demo`): a model served
// by two boxes is one row naming both hosts, and the 3060 sleeps after idling and wakes for the
// next request, with the wait on its card, in the request log and on the timeline. The demo's
// wake packet goes to 127.0.0.1 only. The simulated boxes run in their own process
// (switchyard-demo-fleet), as they do for the executable, and end with it. Offscreen and under Xvfb.
#include "app/catalogeventrecorder.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "demo/demofleet.h"
#include "demo/demofleetprocess.h"
#include "demorun.h"
#include "models/hosttablemodel.h"
#include "processlaunch.h"
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

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

#include <csignal>

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using switchyard::test::DemoRun;

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

// The switchyard-demo-fleet process whose parent is `parent`, from /proc; 0 when there is none.
qint64 demoFleetChildOf(qint64 parent)
{
    const QStringList pids = QDir(u"/proc"_s).entryList({u"[0-9]*"_s}, QDir::Dirs);
    for (const QString &pid : pids) {
        QFile stat(u"/proc/%1/stat"_s.arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields.at(1).toLongLong() != parent)
            continue;
        if (QFileInfo(u"/proc/%1/exe"_s.arg(pid)).symLinkTarget().endsWith(u"/switchyard-demo-fleet"_s))
            return pid.toLongLong();
    }
    return 0;
}

// Running, not a zombie left for a reaper.
bool isRunning(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    return line.mid(line.lastIndexOf(')') + 2, 1) != "Z";
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
    void fleetSwitchesTheForkEngine();
    void helperIsFoundNextToTheExecutable();
    void missingHelperIsNamed();
    void helperEndsWhenItsStdinCloses();
    void killedRelayTakesItsFleetAlong();
};

void TstDemoFleet::replicatedModelNamesBothHosts()
{
    DemoRun demo;
    DemoFleet::Timing timing;
    timing.idleStop = 10min;   // awake throughout
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));

    HostTableModel hosts;
    hosts.setService(demo.runner->service());
    QCOMPARE(hosts.rowCount(), 3);
    QVERIFY(hosts.rowOf(u"3060"_s) >= 0);

    ModelTableModel models(demo.clock);
    models.setService(demo.runner->service());
    const QString alias(DemoFleet::ReplicatedAlias);
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
    DemoFleet::Timing timing;
    timing.idleStop = 3s;
    timing.boot = 1500ms;
    timing.engineStart = 300ms;
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));
    const auto power = [&demo] { return demo.fleet->power(DemoFleet::SleeperHost); };

    // The demo's wake packet never leaves the machine.
    const HostConfig *sleeper = nullptr;
    for (const HostConfig &h : std::as_const(demo.config.hosts)) {
        if (h.name == DemoFleet::SleeperHost)
            sleeper = &h;
    }
    QVERIFY(sleeper);
    QVERIFY(sleeper->wake.enabled());
    QCOMPARE(sleeper->wake.broadcast, QHostAddress(QHostAddress::LocalHost));
    QVERIFY(power().port > 0);
    QCOMPARE(sleeper->wake.port, power().port);
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
    // Issue 30 item 12: the window says it shows the demo, not a real fleet.
    QVERIFY2(window.windowTitle().contains(u"Demo fleet"_s), qPrintable(window.windowTitle()));
    const auto card = [&hosts] { return hosts.index(hosts.rowOf(u"3060"_s)); };
    const auto activity = [&card] { return HostActivity(card().data(HostTableModel::ActivityRole).toInt()); };

    // Up first, then idle: its engine stops, the sleep command runs, the box sleeps.
    QTRY_COMPARE_WITH_TIMEOUT(activity(), HostActivity::Asleep, WaitMs);
    QVERIFY2(HostCardDelegate::engineLine(card(), QDateTime::currentDateTime()).startsWith(u"asleep"_s),
             qPrintable(HostCardDelegate::engineLine(card(), QDateTime::currentDateTime())));
    QTRY_VERIFY2_WITH_TIMEOUT(!power().awake, "the sleep command did not put the simulated box to sleep", WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(HostCardDelegate::gpuLine(card()).isEmpty(), WaitMs);   // no reading from a box asleep
    ModelTableModel models(demo.clock);
    models.setService(demo.runner->service());
    QTRY_COMPARE_WITH_TIMEOUT(models.index(models.rowOfAlias(u"3060-ember-14b"_s), ModelTableModel::StatusColumn).data().toString(),
                              u"asleep"_s, WaitMs);
    QCOMPARE(power().wakePackets, 0);

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
    QTRY_COMPARE_WITH_TIMEOUT(power().wakePackets, 1, WaitMs);

    // Awake, its engine started, the request answered; its record keeps what it waited for.
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QVERIFY(power().awake);
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

void TstDemoFleet::fleetSwitchesTheForkEngine()
{
    DemoRun demo;
    DemoFleet::Timing timing;
    timing.idleStop = 10min;
    timing.engineStart = 300ms;
    QString error;
    QVERIFY2(demo.start(timing, &error), qPrintable(error));
    HostTableModel hosts;
    hosts.setService(demo.runner->service());
    const auto engine = [&hosts] {
        return hosts.index(hosts.rowOf(u"3090"_s)).data(HostTableModel::EngineRole).toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(engine(), u"mainline"_s, WaitMs);
    // Issue 30 item 11: the fork has never run (a new data folder), yet its model's context size
    // is known: the fork's command line says it (-c), as a real box's config would.
    ModelTableModel models(demo.clock);
    models.setService(demo.runner->service());
    const int forkModel = models.rowOfAlias(u"3090-qwen38-27b-128k"_s);
    QVERIFY(forkModel >= 0);
    QCOMPARE(models.index(forkModel, ModelTableModel::EngineColumn).data().toString(), u"fork"_s);
    QCOMPARE(models.index(forkModel, ModelTableModel::ContextColumn).data().toString(), u"128k"_s);

    // A fork model: the helper closes mainline and opens the fork, the relay serves from it.
    QNetworkAccessManager network;
    std::unique_ptr<QNetworkReply> reply(postChat(network, demo.runner->service()->endpoint(), u"3090-qwen38-27b-128k"_s));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(engine(), u"fork"_s);
}

void TstDemoFleet::helperIsFoundNextToTheExecutable()
{
    // The tests are built into the executables' folder: the helper is next to this one.
    QStringList lookedAt;
    const QString found = DemoFleetProcess::findHelper(&lookedAt);
    QVERIFY2(!found.isEmpty(), qPrintable(lookedAt.join(u", "_s)));
    QCOMPARE(QFileInfo(found).canonicalFilePath(), QFileInfo(QStringLiteral(SWITCHYARD_DEMO_FLEET_HELPER)).canonicalFilePath());
}

void TstDemoFleet::missingHelperIsNamed()
{
    const QString missing = QDir(QDir::tempPath()).filePath(u"no-such-folder/switchyard-demo-fleet"_s);
    DemoFleet fleet(missing, DemoFleet::Timing{});
    QString error;
    QVERIFY(!fleet.start(&error));
    QVERIFY2(error.contains(missing), qPrintable(error));
}

void TstDemoFleet::helperEndsWhenItsStdinCloses()
{
    QProcess helper;
    helper.start(QStringLiteral(SWITCHYARD_DEMO_FLEET_HELPER), {});
    QVERIFY2(helper.waitForStarted(WaitMs), qPrintable(helper.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(helper.canReadLine(), WaitMs);
    const QByteArray first = helper.readLine();
    QVERIFY2(first.startsWith(R"({"boxes":[)") && first.contains(R"("event":"fleet")"), first.constData());
    QVERIFY2(first.contains(R"("host":"3090")") && first.contains(R"("name":"fork")") && first.contains(R"("power":{)"),
             first.constData());

    // A command is answered with the box's events.
    helper.write(R"({"host":"3060","do":"probe"})" "\n");
    QTRY_VERIFY_WITH_TIMEOUT(helper.canReadLine(), WaitMs);
    QByteArray answers = helper.readLine();
    QTRY_VERIFY_WITH_TIMEOUT(helper.canReadLine(), WaitMs);
    answers += helper.readLine();
    QVERIFY2(answers.contains(R"("event":"gpus")") && answers.contains(R"("event":"status")")
                 && answers.contains(R"("running":"main")"),
             answers.constData());

    // The relay's end of the pipe closed (it quit or died): the simulated boxes go with it.
    helper.closeWriteChannel();
    QVERIFY2(helper.waitForFinished(WaitMs), "switchyard-demo-fleet outlived its stdin");
    QCOMPARE(helper.exitStatus(), QProcess::NormalExit);
    QCOMPARE(helper.exitCode(), 0);
}

void TstDemoFleet::killedRelayTakesItsFleetAlong()
{
    // The executable as a user runs it: it finds the helper next to itself and relays to it.
    QTemporaryDir dir;
    QVERIFY(test::makeIsolatedFolders(dir));
    test::Launch relay;
    relay.start(test::isolatedEnvironment(dir), {u"--headless"_s, u"--demo"_s, u"--listen"_s, u"127.0.0.1:0"_s,
                                                 u"--data-dir"_s, dir.filePath(u"data"_s)});
    QTRY_VERIFY2_WITH_TIMEOUT(relay.exited() || relay.out.contains("listening on"), qPrintable(relay.said()), WaitMs);
    QVERIFY2(!relay.exited(), qPrintable(relay.said()));
    const QRegularExpressionMatch listening = QRegularExpression(u"listening on (http://127\\.0\\.0\\.1:\\d+)"_s)
                                                  .match(QString::fromUtf8(relay.out));
    QVERIFY2(listening.hasMatch(), qPrintable(relay.said()));
    QNetworkAccessManager network;
    std::unique_ptr<QNetworkReply> models(network.get(QNetworkRequest(QUrl(listening.captured(1) + u"/v1/models"_s))));
    QTRY_VERIFY_WITH_TIMEOUT(models->isFinished(), WaitMs);
    const QByteArray listed = models->readAll();
    QVERIFY2(listed.contains("\"3090-qwen38-27b-128k\"") && listed.contains("\"3060-ember-14b\""), listed.constData());
    // Issue 30 item 12: stderr carries no debug output unless asked for (QT_LOGGING_RULES). The
    // engine discovery said what it asked each host before the 3090's models were known; once
    // they are, it has had its say.
    const auto modelList = [&network, &listening] {
        std::unique_ptr<QNetworkReply> again(network.get(QNetworkRequest(QUrl(listening.captured(1) + u"/v1/models"_s))));
        QEventLoop loop;
        QObject::connect(again.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(WaitMs, &loop, &QEventLoop::quit);
        if (!again->isFinished())
            loop.exec();
        return again->readAll();
    };
    QTRY_VERIFY_WITH_TIMEOUT(modelList().contains("\"3090-flint-40b\""), WaitMs);
    QVERIFY2(!relay.err.contains("what they serve"), qPrintable(relay.said()));

    const qint64 helper = demoFleetChildOf(relay.process.processId());
    QVERIFY2(helper > 0, "no switchyard-demo-fleet runs as a child of the relay");
    QVERIFY(isRunning(helper));
    // Killed, the relay closes nothing itself: the helper still ends (its stdin's end, or the
    // parent-death signal), and no simulated box outlives the window.
    ::kill(pid_t(relay.process.processId()), SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(relay.exited(), WaitMs);
    QTRY_VERIFY2_WITH_TIMEOUT(!isRunning(helper), "switchyard-demo-fleet outlived the relay killed with SIGKILL", WaitMs);
}

QTEST_MAIN(TstDemoFleet)
#include "tst_demofleet.moc"
