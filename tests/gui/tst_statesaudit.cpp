// States that do not mislead (issue 22), the parts the first tests left to a model or a helper
// function: here each on the widget or model the user looks at. Items 1 (a switch that drains on
// the card), 2 (the status bar and the
// card through a lease), 3 (the legend for every engine), 5 (the App and address columns), 6 (a
// 404), 8 (the window's real Load and a real 423), 11 (the timeline's own tooltips), 14 (the
// export's /v1/models) and 16 (the running engine in Switch Engine). The table of every item
// and its tests is docs/DESKTOP-STATES.md.
#include "fleetwindow.h"
#include "guifleet.h"
#include "twoenginehost.h"

#include "dialogs/exportdialog.h"
#include "dialogs/switchenginedialog.h"
#include "hosts/hostcontroller.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/modeltablemodel.h"
#include "models/requestlogfilterproxy.h"
#include "shared/clientconfigexporter.h"
#include "shared/statuspalette.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinescale.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "window/hostcarddelegate.h"
#include "window/mainwindow.h"
#include "window/relayclient.h"
#include "window/requestdetailspane.h"
#include "window/requestlogview.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QToolTip>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

QNetworkReply *postChat(QNetworkAccessManager &network, const QUrl &endpoint, const QString &model,
                        const QByteArray &userAgent)
{
    QUrl url = endpoint;
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("User-Agent", userAgent);
    return network.post(request, R"({"model":")" + model.toUtf8() + R"(","messages":[{"role":"user","content":"Hi"}],"max_tokens":2})");
}

// The newest row of the log with this path (and model, when given), -1 when none.
int newestRow(const RequestLogModel *log, const QString &path, const QString &model = {})
{
    for (int row = log->rowCount() - 1; row >= 0; --row) {
        const RequestRecord &r = log->recordAt(row);
        if (r.path == path && (model.isEmpty() || r.model == model))
            return row;
    }
    return -1;
}

// TwoEngineHost with a (alpha, running) and b (beta). What a lease needs: the relay stops the
// engine for it.
struct AuditHost : TwoEngineHost
{
    AuditHost()
    {
        optionsA.tokensPerSecond = 20;   // a stream of 40 tokens keeps a switch draining for 2 s
        // In arrival order a request for b drains a at once (the default batch policy lets a
        // serve on for its dwell first).
        policy = SchedulingConfig::Policy::Arrival;
        wait = std::chrono::milliseconds(WaitMs);
    }
};

// The host table as the window has it, counting the relay's requests in flight.
} // namespace

class TstStatesAudit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void switchShowsFromToElapsedAndWhatItDrainsFor();
    void batchDwellSaysWhichSwitchWaits();
    void leaseCountsOnItsOwnAndReleasesToIdle();
    void legendNamesEveryEngineInItsBarColour();
    void appAndAddressOfRealRequests();
    void notFoundHasHonestTimes();
    void onlyRealUseCountsAsUse();
    void exportsModelListStaysOutOfTheLog();
    void timelineTooltipsOnTheWidget();
    void switchEngineSaysWhatRuns();
};

void TstStatesAudit::switchShowsFromToElapsedAndWhatItDrainsFor()
{
    // Item 1, switch: while a stream on a keeps the host draining for a switch to b, the card
    // says "a → b" with the time it has taken, and what it waits for; never the old engine
    // alone, never down; then b runs.
    AuditHost host;
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    HostCards cards(host.runner->service());
    HostTableModel &hosts = cards.hosts;
    const QModelIndex h1 = hosts.index(0);
    QStringList engineLines;
    QStringList detailLines;
    QList<HostActivity> seen;
    QStringList seenTexts;
    // Every state the model passed through, also for a moment: when the switch ends the
    // controller serves b before the catalog has polled it, and b must read up then, not down
    // (a red blink on the card and the tray).
    const auto look = [&] {
        const auto activity = HostActivity(h1.data(HostTableModel::ActivityRole).toInt());
        seen.append(activity);
        seenTexts.append(QTime::currentTime().toString(u"ss.zzz"_s) + u' ' + h1.data(HostTableModel::ActivityTextRole).toString());
        if (activity != HostActivity::Draining && activity != HostActivity::Switching)
            return;
        const QDateTime since = h1.data(HostTableModel::ActivitySinceRole).toDateTime();
        engineLines.append(HostCardDelegate::engineLine(h1, since.addSecs(3)));
        detailLines.append(HostCardDelegate::detailLine(h1, since.addSecs(3)));
    };
    connect(&hosts, &QAbstractItemModel::dataChanged, this, look);

    QNetworkAccessManager network;
    QUrl url = host.runner->service()->endpoint();
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QScopedPointer<QNetworkReply> stream(network.post(request, R"({"model":"h1-alpha","messages":[{"role":"user","content":"Hi"}],"max_tokens":40,"stream":true})"));
    QTRY_VERIFY_WITH_TIMEOUT(stream->bytesAvailable() > 0, WaitMs);
    RelayClient client;
    client.setEndpoint(host.runner->service()->endpoint());
    QSignalSpy answered(&client, &RelayClient::finished);
    client.load(u"h1-beta"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!detailLines.isEmpty(), WaitMs);
    QVERIFY2(engineLines.first().startsWith(u"a → b · "_s) && engineLines.first().endsWith(u" · 3 s"_s),
             qPrintable(engineLines.join(u" | "_s)));
    QVERIFY2(detailLines.first().contains(u"finishing h1-alpha (since "_s), qPrintable(detailLines.join(u" | "_s)));
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, WaitMs);
    QVERIFY2(answered.first().at(2).toBool(), qPrintable(answered.first().at(3).toString()));
    QTRY_COMPARE(h1.data(HostTableModel::EngineRole).toString(), u"b"_s);
    QTRY_COMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    QVERIFY(stream->isFinished() && stream->error() == QNetworkReply::NoError);   // the stream was not cut
    QVERIFY(seen.contains(HostActivity::Draining));
    // Never down: not while it drained or switched, not for a moment after.
    QVERIFY2(!seen.contains(HostActivity::Down), qPrintable(seenTexts.join(u" | "_s)));
    QVERIFY2(HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()).startsWith(u"engine b · "_s),
             qPrintable(HostCardDelegate::engineLine(h1, QDateTime::currentDateTime())));
}

void TstStatesAudit::batchDwellSaysWhichSwitchWaits()
{
    // Item 1 under the default batch policy: a request for b while a stream runs on a waits for
    // a's work and then its dwell (20 s). The card says so, the target and who waits, not plain
    // "engine a"; it stays up (a serves on), and the tooltip's state says it too.
    AuditHost host;
    host.policy = SchedulingConfig::Policy::Batch;
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(host.controller()->scheduling().dwell, 20s);
    HostTableModel hosts;
    hosts.setService(host.runner->service());
    const QModelIndex h1 = hosts.index(0);
    const auto engineLine = [&h1] { return HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()); };

    QNetworkAccessManager network;
    QUrl url = host.runner->service()->endpoint();
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QScopedPointer<QNetworkReply> stream(network.post(request, R"({"model":"h1-alpha","messages":[{"role":"user","content":"Hi"}],"max_tokens":40,"stream":true})"));
    QTRY_VERIFY_WITH_TIMEOUT(stream->bytesAvailable() > 0, WaitMs);
    QCOMPARE(HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()).left(16), u"engine a · 1 of "_s);
    QScopedPointer<QNetworkReply> waiter(postChat(network, host.runner->service()->endpoint(), u"h1-beta"_s, "curl/8"));
    QTRY_COMPARE_WITH_TIMEOUT(engineLine(), u"engine a · switch to b after the running requests (1 waiting)"_s, WaitMs);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    QCOMPARE(h1.data(HostTableModel::ActivityTextRole).toString(), u"up (1 waiting for b)"_s);

    // The stream ends: a's dwell runs, and the card counts it down.
    QTRY_VERIFY_WITH_TIMEOUT(stream->isFinished(), WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(engineLine().startsWith(u"engine a · switch to b in "_s), WaitMs);
    const QRegularExpressionMatch in = QRegularExpression(u"^engine a · switch to b in (\\d+) s \\(1 waiting\\)$"_s).match(engineLine());
    QVERIFY2(in.hasMatch() && in.captured(1).toInt() > 10 && in.captured(1).toInt() <= 20, qPrintable(engineLine()));
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    QVERIFY(!waiter->isFinished());
}

void TstStatesAudit::leaseCountsOnItsOwnAndReleasesToIdle()
{
    // Item 2, on the window: the status bar and the hosts section count a leased host as leased
    // (green: nothing is wrong), the card says leased and who has it, not "1 of 2 models
    // loaded"; released, the host is idle at once and stays so after the stopped engine has been
    // polled, never down, until the next request starts an engine.
    AuditHost host;
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    HostCards cards(host.runner->service());
    HostTableModel &hosts = cards.hosts;
    InFlightCounter &inFlight = cards.inFlight;
    MainWindow window(host.clock, &hosts, &inFlight, nullptr);
    window.setService(host.runner->service());
    const QModelIndex h1 = hosts.index(0);
    QTRY_COMPARE_WITH_TIMEOUT(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up, WaitMs);
    QTRY_VERIFY2(window.statusText().contains(u"1 of 1 host(s) up"_s), qPrintable(window.statusText()));
    QList<HostActivity> seen;
    connect(&hosts, &HostTableModel::activitiesChanged, this, [&] { seen.append(hosts.activity(0)); });

    QVERIFY(host.takeLease(u"bench"_s));
    QTRY_COMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Leased);
    QTRY_VERIFY2(window.statusText().contains(u"0 of 1 host(s) up, 1 leased"_s), qPrintable(window.statusText()));
    QVERIFY2(window.statusText().contains(StatusPalette::good().name()) && !window.statusText().contains(StatusPalette::bad().name()),
             qPrintable(window.statusText()));
    bool summarySaysLeased = false;
    for (const QLabel *label : window.findChildren<QLabel *>())
        summarySaysLeased = summarySaysLeased || label->text() == u"0 of 1 up · 1 leased"_s;
    QVERIFY(summarySaysLeased);
    QCOMPARE(HostTableModel::activityTitle(HostActivity::Leased), u"leased"_s);
    const QDateTime now = QDateTime::currentDateTime();
    const QString engine = HostCardDelegate::engineLine(h1, now);
    QVERIFY2(!engine.contains(u"model"_s), qPrintable(engine));
    QVERIFY2(HostCardDelegate::detailLine(h1, now).startsWith(u"leased by bench until "_s),
             qPrintable(HostCardDelegate::detailLine(h1, now)));
    QCOMPARE(StatusPalette::forActivity(HostActivity::Leased), StatusPalette::lease());

    seen.clear();
    host.controller()->releaseLease();
    QTRY_COMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Idle);
    host.runner->service()->catalog()->refreshHost(u"h1"_s);
    QTRY_VERIFY(!host.runner->service()->catalog()->host(u"h1"_s)->reachable);   // the engine is stopped
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Idle);
    QVERIFY(!seen.contains(HostActivity::Down));
    const QString detail = HostCardDelegate::detailLine(h1, QDateTime::currentDateTime());
    QVERIFY2(!detail.contains(u"refused"_s) && !detail.contains(u"down"_s), qPrintable(detail));
    QTRY_VERIFY2(window.statusText().contains(u"1 of 1 host(s) up"_s) && !window.statusText().contains(u"leased"_s),
                 qPrintable(window.statusText()));
    QVERIFY(!window.statusText().contains(StatusPalette::bad().name()));
}

void TstStatesAudit::legendNamesEveryEngineInItsBarColour()
{
    // Item 3: every engine of the hosts has its legend entry in the colour its bar is painted
    // with (StatusPalette::forEngine, see tst_guiwindow's switch test for the pixels), the lease its own.
    AuditHost host;
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    HostTableModel hosts;
    hosts.setService(host.runner->service());
    TimelineView view(host.clock, &hosts);
    const QString legend = view.legend()->text();
    for (const QString &engine : {u"a"_s, u"b"_s}) {
        QCOMPARE(view.legendColor(engine), StatusPalette::forEngine(engine));
        QVERIFY2(legend.contains(u"color:%1"_s.arg(StatusPalette::forEngine(engine).name())), qPrintable(legend));
        QVERIFY(view.legendColor(engine) != view.legendColor(u"lease"_s));
    }
    QVERIFY(view.legendColor(u"a"_s) != view.legendColor(u"b"_s));
    QVERIFY2(legend.contains(u"color:%1"_s.arg(StatusPalette::lease().name())), qPrintable(legend));
    QVERIFY2(!legend.contains(u"engine up"_s), qPrintable(legend));
}

void TstStatesAudit::appAndAddressOfRealRequests()
{
    // Item 5: requests from two clients through the relay: the App column names each program,
    // the Client column the address, and the pane agrees.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    connect(fleet.store.get(), &HistoryStore::requestRecorded, &log, &RequestLogModel::append);
    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> opencode(postChat(network, fleet.endpoint(), u"h1-m1"_s,
                                                    "opencode/1.18.33 ai-sdk/provider-utils/4.0.23 runtime/bun/1.3.14"));
    QScopedPointer<QNetworkReply> claude(postChat(network, fleet.endpoint(), u"h2-m3"_s, "claude-cli/2.1.197 (external, sdk-cli)"));
    QTRY_VERIFY_WITH_TIMEOUT(opencode->isFinished() && claude->isFinished(), WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(newestRow(&log, u"/v1/chat/completions"_s, u"h1-m1"_s) >= 0
                                 && newestRow(&log, u"/v1/chat/completions"_s, u"h2-m3"_s) >= 0, WaitMs);
    const int first = newestRow(&log, u"/v1/chat/completions"_s, u"h1-m1"_s);
    const int second = newestRow(&log, u"/v1/chat/completions"_s, u"h2-m3"_s);
    QCOMPARE(log.index(first, RequestLogModel::AppColumn).data().toString(), u"opencode"_s);
    QCOMPARE(log.index(second, RequestLogModel::AppColumn).data().toString(), u"Claude Code"_s);
    QCOMPARE(log.index(first, RequestLogModel::ClientColumn).data().toString(), u"127.0.0.1"_s);
    view.table()->selectRow(view.proxy()->mapFromSource(log.index(second, 0)).row());
    QCOMPARE(view.details()->fieldText(u"app"_s), u"Claude Code"_s);
    QCOMPARE(view.details()->fieldText(u"client"_s), u"127.0.0.1"_s);
}

void TstStatesAudit::notFoundHasHonestTimes()
{
    // Item 6: a 404 (a model nobody serves) answered at once: a duration and a first byte that
    // are not "0s", the table and the pane alike.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    connect(fleet.store.get(), &HistoryStore::requestRecorded, &log, &RequestLogModel::append);
    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> reply(postChat(network, fleet.endpoint(), u"no-such-model"_s, "curl/8.0"));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), WaitMs);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 404);
    QTRY_VERIFY_WITH_TIMEOUT(newestRow(&log, u"/v1/chat/completions"_s, u"no-such-model"_s) >= 0, WaitMs);
    const int row = newestRow(&log, u"/v1/chat/completions"_s, u"no-such-model"_s);
    QCOMPARE(log.index(row, RequestLogModel::StatusColumn).data().toString(), u"404"_s);
    const QString duration = log.index(row, RequestLogModel::DurationColumn).data().toString();
    QVERIFY2(duration != u"0s"_s && !duration.startsWith(u"0 "_s) && (duration.endsWith(u"µs"_s) || duration.endsWith(u"ms"_s)),
             qPrintable(duration));
    const QString ttfb = log.index(row, RequestLogModel::TtfbColumn).data().toString();
    QVERIFY2(ttfb != u"0s"_s && !ttfb.startsWith(u"0 "_s), qPrintable(ttfb));
    view.table()->selectRow(view.proxy()->mapFromSource(log.index(row, 0)).row());
    QCOMPARE(view.details()->fieldText(u"duration"_s), duration);
    QCOMPARE(view.details()->fieldText(u"ttfb"_s), ttfb);
}

void TstStatesAudit::onlyRealUseCountsAsUse()
{
    // Item 8, end to end: the window's own Load (RelayClient, through the relay) and a client's
    // request refused with 423 while the host is leased leave "Today" and "Last used" empty; a
    // request answered afterwards counts once.
    AuditHost host;
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    ModelTableModel models(host.clock);
    models.setHistory(host.store.get());
    models.setService(host.runner->service());
    QTRY_VERIFY(models.rowOfAlias(u"h1-alpha"_s) >= 0);
    const auto cell = [&](int column) {
        return models.index(models.rowOfAlias(u"h1-alpha"_s), column).data().toString();
    };

    RelayClient client;
    client.setEndpoint(host.runner->service()->endpoint());
    QSignalSpy answered(&client, &RelayClient::finished);
    client.load(u"h1-alpha"_s);
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, WaitMs);
    QVERIFY(host.takeLease(u"bench"_s));
    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> refused(postChat(network, host.runner->service()->endpoint(), u"h1-alpha"_s, "curl/8.0"));
    QTRY_VERIFY_WITH_TIMEOUT(refused->isFinished(), WaitMs);
    QCOMPARE(refused->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 423);
    QTRY_COMPARE_WITH_TIMEOUT(host.store->requests({}).size(), 2, WaitMs);   // both are in the history
    models.refreshStats();
    QCOMPARE(cell(ModelTableModel::RequestsColumn), QString());
    QCOMPARE(cell(ModelTableModel::LastUsedColumn), QString());

    host.controller()->releaseLease();
    QScopedPointer<QNetworkReply> used(postChat(network, host.runner->service()->endpoint(), u"h1-alpha"_s, "curl/8.0"));
    QTRY_VERIFY_WITH_TIMEOUT(used->isFinished(), WaitMs);
    QCOMPARE(used->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QTRY_COMPARE_WITH_TIMEOUT(cell(ModelTableModel::RequestsColumn), u"1"_s, WaitMs);
    QVERIFY(!cell(ModelTableModel::LastUsedColumn).isEmpty());
    models.refreshStats();   // the store's count agrees with the live one
    QCOMPARE(cell(ModelTableModel::RequestsColumn), u"1"_s);
}

void TstStatesAudit::exportsModelListStaysOutOfTheLog()
{
    // Item 14: the export the window runs (`switchyard export`, which asks the relay for
    // /v1/models) reaches the history but stays out of the log until asked for.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    connect(fleet.store.get(), &HistoryStore::requestRecorded, &log, &RequestLogModel::append);
    ExportDialog dialog(fleet.endpoint(), QString(), fleet.service()->catalog()->aliases());
    dialog.exporter()->setProgram(qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard"_s);
    QSignalSpy exported(&dialog, &ExportDialog::exported);
    dialog.show();
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, WaitMs * 2);
    QTRY_VERIFY_WITH_TIMEOUT(newestRow(&log, u"/v1/models"_s) >= 0, WaitMs);
    const int row = newestRow(&log, u"/v1/models"_s);
    QVERIFY(RequestLogModel::isOwnRequest(log.recordAt(row)));
    QVERIFY(!view.proxy()->mapFromSource(log.index(row, 0)).isValid());
    view.ownRequestsToggle()->setChecked(true);
    QVERIFY(view.proxy()->mapFromSource(log.index(row, 0)).isValid());
}

void TstStatesAudit::timelineTooltipsOnTheWidget()
{
    // Item 11, through the widget's own tooltip event: empty space says nothing; an unload
    // glyph says unloaded, not loaded; the lease says until when in the time of day.
    FixedClock clock(QDateTime::currentDateTime());
    const QDateTime now = clock.now();
    TimelineModel events;
    const auto event = [&](HistoryEvent::Kind kind, int secondsAgo, const QString &model, const QString &detail) {
        HistoryEvent e;
        e.kind = kind;
        e.host = u"h1"_s;
        e.engine = u"main"_s;
        e.model = model;
        e.detail = detail;
        e.at = now.addSecs(-secondsAgo);
        events.append(e);
    };
    const QDateTime until = now.addSecs(3600);
    event(HistoryEvent::Kind::HostUp, 100, {}, {});
    event(HistoryEvent::Kind::Load, 80, u"m1"_s, {});
    event(HistoryEvent::Kind::Unload, 60, u"m1"_s, {});
    event(HistoryEvent::Kind::LeaseTaken, 30, {}, u"desktop until %1"_s.arg(until.toString(Qt::ISODate)));
    TimelineWidget timeline(clock);
    timeline.setHosts({u"h1"_s});
    timeline.setEvents(&events);
    timeline.resize(TimelineWidget::LabelWidth + 8 + 600, timeline.sizeHint().height());
    timeline.setSpan(2min);
    timeline.setFollowing(true);
    timeline.show();
    QVERIFY(QTest::qWaitForWindowExposed(&timeline));
    const auto tooltipAt = [&](int secondsAgo, const QRect &row) {
        const QPoint pos(int(timeline.scale().xForTime(now.addSecs(-secondsAgo).toMSecsSinceEpoch())), row.center().y());
        QHelpEvent help(QEvent::ToolTip, pos, timeline.mapToGlobal(pos));
        QApplication::sendEvent(&timeline, &help);
        return QToolTip::isVisible() ? QToolTip::text() : QString();
    };
    QCOMPARE(tooltipAt(50, timeline.densityRect(0)), QString());   // no requests there
    const QString unload = tooltipAt(60, timeline.markerRect(0));
    QVERIFY2(unload.startsWith(u"<b>m1</b> unloaded"_s), qPrintable(unload));
    const QString load = tooltipAt(80, timeline.markerRect(0));
    QVERIFY2(load.startsWith(u"<b>m1</b> loaded"_s), qPrintable(load));
    const QString lease = tooltipAt(20, timeline.markerRect(0));
    QVERIFY2(lease.startsWith(u"Leased by <b>desktop</b> until "_s) && !lease.contains(until.toString(Qt::ISODate)),
             qPrintable(lease));
    QVERIFY2(lease.contains(until.toString(u"HH:mm"_s)), qPrintable(lease));
    QToolTip::hideText();
}

void TstStatesAudit::switchEngineSaysWhatRuns()
{
    // Item 16: one dialog that says which engine runs (and does not offer it), each engine with
    // its models, the other engine chosen.
    SwitchEngineDialog dialog(u"h1"_s, {{u"a"_s, {u"alpha"_s}}, {u"b"_s, {u"beta"_s, u"gamma"_s}}}, u"b"_s);
    bool saysRuns = false;
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        saysRuns = saysRuns || label->text().startsWith(u"h1 runs b now."_s);
    QVERIFY(saysRuns);
    QCOMPARE(dialog.list()->count(), 2);
    const QListWidgetItem *running = dialog.list()->item(1);
    QVERIFY2(running->text().startsWith(u"b (running now)\n"_s) && running->text().contains(u"beta, gamma"_s),
             qPrintable(running->text()));
    QVERIFY(!(running->flags() & Qt::ItemIsEnabled));
    QVERIFY(dialog.list()->item(0)->text().contains(u"alpha"_s));
    QCOMPARE(dialog.engine(), u"a"_s);
    dialog.list()->setCurrentRow(1);
    QCOMPARE(dialog.engine(), QString());   // the running one is no choice
}

QTEST_MAIN(TstStatesAudit)
#include "tst_statesaudit.moc"
