// The request log as a user watches it (#21 requests live, #22 items 4, 5, 6, 14 and 19): a
// request shows from its arrival (waiting, and for what), streams, and becomes its finished
// record; durations are honest; the window's own calls stay out of the way; the details pane
// shows only the selected request. Offscreen and under Xvfb.
#include "guifleet.h"
#include "twoenginehost.h"

#include "app/catalogeventrecorder.h"
#include "app/remoterelayfeed.h"
#include "app/remoterelayjson.h"
#include "hosts/hostcontroller.h"
#include "journal/journalformat.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/requestlogfilterproxy.h"
#include "shared/statuspalette.h"
#include "store/historystore.h"
#include "store/requestlogmodel.h"
#include "window/hostcarddelegate.h"
#include "window/mainwindow.h"
#include "window/relayclient.h"
#include "window/requestdetailspane.h"
#include "window/requestlogview.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

QNetworkReply *postChat(QNetworkAccessManager &network, const QUrl &endpoint, const QString &model, int tokens,
                        bool stream)
{
    QUrl url = endpoint;
    url.setPath(u"/v1/chat/completions"_s);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setHeader(QNetworkRequest::UserAgentHeader, u"opencode/1.18.33"_s);
    const QByteArray body = R"({"model":")" + model.toUtf8() + R"(","messages":[{"role":"user","content":"Hi"}],)"
        + R"("max_tokens":)" + QByteArray::number(tokens) + (stream ? R"(,"stream":true})" : "}");
    return network.post(request, body);
}

// The model's row for the request to this alias (the newest), -1 when none.
int rowOf(const RequestLogModel *log, const QString &alias)
{
    for (int row = log->rowCount() - 1; row >= 0; --row) {
        if (log->recordAt(row).model == alias)
            return row;
    }
    return -1;
}

// The window in front of a GuiFleet.
struct Window
{
    HostTableModel hosts;
    InFlightCounter inFlight;
    std::unique_ptr<MainWindow> window;

    explicit Window(GuiFleet &fleet)
    {
        hosts.setInFlightCounter(&inFlight);
        hosts.setService(fleet.service());
        window = std::make_unique<MainWindow>(fleet.clock, &hosts, &inFlight, nullptr);
        window->setHistory(fleet.store.get());
        window->setService(fleet.service());
        window->resize(1360, 860);
        window->show();
    }
    RequestLogModel *log() const { return window->requestLog(); }
    RequestLogView *view() const { return window->requestLogView(); }
    // Selects the source row in the table; false when the filters hide it.
    bool select(int sourceRow) const
    {
        const QModelIndex index = view()->proxy()->mapFromSource(log()->index(sourceRow, 0));
        if (!index.isValid())
            return false;
        view()->table()->selectRow(index.row());
        return true;
    }
};

} // namespace

class TstRequestLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void requestWaitingForASwitchShowsLiveThenDone();
    void inFlightStreamShowsWithRisingTokens();
    void honestDurationsAndAbortedRequests();
    void addressColumnIsNotStretched();
    void windowsOwnCallsAreHiddenByDefault();
    void searchNeverLeavesAnUnselectedRequestInThePane();
    void paneSaysWhenARestoredCacheServedIt();
    void heldRequestSaysWhatItWaitsForAndUntilWhen();
};

void TstRequestLog::initTestCase()
{
    // ctest runs it offscreen, and again with xcb on an Xvfb of its own (tst_requestlog_xvfb).
    const QString platform = QGuiApplication::platformName();
    QVERIFY2(platform == "offscreen"_L1 || platform == "xcb"_L1, qPrintable(platform));
}

void TstRequestLog::requestWaitingForASwitchShowsLiveThenDone()
{
    // Host h1 with engine "a" (alpha, running) and "b" (beta): a request for h1-beta waits for
    // the switch, which takes 1.5 s.
    TwoEngineHost host;
    host.optionsB.loadDelay = 100ms;
    host.adjustDriver = [](TestEngineDriver &driver) { driver.startDelay = 1500ms; };
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    SystemClock &clock = host.clock;
    HistoryStore &store = *host.store;
    RelayRunner &runner = *host.runner;

    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(runner.service());
    MainWindow window(clock, &hosts, &inFlight, nullptr);
    window.setHistory(&store);
    window.setService(runner.service());
    window.show();
    RequestLogModel *log = window.requestLog();
    RequestLogView *view = window.requestLogView();

    QNetworkAccessManager network;
    QNetworkReply *reply = postChat(network, runner.service()->endpoint(), u"h1-beta"_s, 4, false);
    QScopedPointer<QNetworkReply> owned(reply);

    // Before it ends: a live row, waiting, and for what.
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(log, u"h1-beta"_s) >= 0
                                 && log->index(rowOf(log, u"h1-beta"_s), RequestLogModel::StatusColumn).data().toString()
                                        == u"waiting: switch a→b"_s, 5000);
    QVERIFY(!reply->isFinished());
    const int row = rowOf(log, u"h1-beta"_s);
    QVERIFY(log->isLive(row));
    QCOMPARE(log->index(row, RequestLogModel::HostColumn).data().toString(), u"h1"_s);
    QCOMPARE(log->index(row, RequestLogModel::TtfbColumn).data().toString(), u"—"_s);
    // The table shows it, amber-ish, and the details pane says why and how long so far.
    view->table()->selectRow(view->proxy()->mapFromSource(log->index(row, 0)).row());
    const QModelIndex shown = view->proxy()->mapFromSource(log->index(row, RequestLogModel::StatusColumn));
    QCOMPARE(shown.data(Qt::ForegroundRole).value<QColor>(), StatusPalette::switching());
    QCOMPARE(view->details()->fieldText(u"status"_s).contains(u"waiting: switch a→b"_s), true);
    QVERIFY2(view->details()->fieldText(u"wait"_s).endsWith(u" for switch a→b"_s),
             qPrintable(view->details()->fieldText(u"wait"_s)));
    QVERIFY(view->details()->fieldText(u"duration"_s).endsWith(u"so far"_s));
    QCOMPARE(view->details()->fieldText(u"journal"_s), QString());   // written when it ends

    // After: the same row is the finished record, with the wait it had.
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QTRY_VERIFY_WITH_TIMEOUT(!log->isLive(row), 5000);
    QCOMPARE(rowOf(log, u"h1-beta"_s), row);
    QCOMPARE(log->index(row, RequestLogModel::StatusColumn).data().toString(), u"200"_s);
    QVERIFY(log->recordAt(row).id > 0);   // the store's record
    QCOMPARE(log->recordAt(row).waitReason, (WaitReason{WaitReason::Kind::Switch, u"a"_s, u"b"_s}));
    QVERIFY(log->recordAt(row).waited >= 1200ms);
    QCOMPARE(log->liveCount(), 0);
    // The pane follows the selected row to its end.
    QCOMPARE(view->details()->fieldText(u"status"_s).contains(u"200"_s), true);
    QVERIFY(view->details()->fieldText(u"wait"_s).endsWith(u" for switch a→b"_s));
    QVERIFY(!view->details()->fieldText(u"duration"_s).endsWith(u"so far"_s));
    QCOMPARE(view->details()->fieldText(u"journal"_s), JournalFormat::requestLine(log->recordAt(row)));
}

void TstRequestLog::inFlightStreamShowsWithRisingTokens()
{
    GuiFleet fleet;
    fake::FakeOptions h1 = GuiFleet::defaultH1();
    h1.tokensPerSecond = 30;
    QVERIFY(fleet.start(h1));
    Window w(fleet);
    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> reply(postChat(network, fleet.endpoint(), u"h1-m1"_s, 60, true));   // 2 s
    // #22 item 4: in flight, it is in the log, streaming, with its tokens rising.
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(w.log(), u"h1-m1"_s) >= 0
                                 && w.log()->index(rowOf(w.log(), u"h1-m1"_s), RequestLogModel::StatusColumn).data().toString()
                                        == u"streaming"_s, 5000);
    const int row = rowOf(w.log(), u"h1-m1"_s);
    const auto tokens = [&] { return w.log()->recordAt(row).streamedTokens.value_or(0); };
    QTRY_VERIFY_WITH_TIMEOUT(tokens() > 0, 3000);
    const qint64 first = tokens();
    QTRY_VERIFY_WITH_TIMEOUT(tokens() > first, 3000);
    QVERIFY(w.log()->isLive(row));
    QVERIFY(w.log()->index(row, RequestLogModel::TokensPerSecondColumn).data().toString().endsWith(u" tokens"_s));
    QVERIFY(!reply->isFinished());
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.log()->isLive(row), 5000);
    QCOMPARE(w.log()->index(row, RequestLogModel::StatusColumn).data().toString(), u"200"_s);
    QVERIFY(w.log()->recordAt(row).tokensPerSecond.has_value());
}

void TstRequestLog::honestDurationsAndAbortedRequests()
{
    GuiFleet fleet;
    fake::FakeOptions h1 = GuiFleet::defaultH1();
    h1.tokensPerSecond = 20;
    QVERIFY(fleet.start(h1));
    Window w(fleet);
    QNetworkAccessManager network;

    // #22 item 6: a GET answered at once has a sub-millisecond duration, not "0s", and the
    // table and the pane agree on it.
    QUrl url = fleet.endpoint();
    url.setPath(u"/v1/models"_s);
    QScopedPointer<QNetworkReply> models(network.get(QNetworkRequest(url)));
    QTRY_VERIFY_WITH_TIMEOUT(models->isFinished(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(w.log()->rowCount() >= 1 && !w.log()->isLive(w.log()->rowCount() - 1), 5000);
    int row = w.log()->rowCount() - 1;
    QCOMPARE(w.log()->recordAt(row).path, u"/v1/models"_s);
    const QString duration = w.log()->index(row, RequestLogModel::DurationColumn).data().toString();
    QVERIFY2(duration != u"0s"_s && duration != u"0 ms"_s && !duration.startsWith(u"0 "_s), qPrintable(duration));
    QVERIFY(duration.endsWith(u"µs"_s) || duration.endsWith(u"ms"_s));
    QVERIFY(w.select(row));
    QCOMPARE(w.view()->details()->fieldText(u"duration"_s), duration);
    QCOMPARE(w.view()->details()->fieldText(u"ttfb"_s),
             w.log()->index(row, RequestLogModel::TtfbColumn).data().toString());

    // A request with no body to send: "—" for its first byte.
    QScopedPointer<QNetworkReply> options(network.sendCustomRequest(QNetworkRequest(url), "OPTIONS"));
    QTRY_VERIFY_WITH_TIMEOUT(options->isFinished(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(w.log()->rowCount() >= 2 && w.log()->recordAt(w.log()->rowCount() - 1).method == "OPTIONS"_L1
                                 && !w.log()->isLive(w.log()->rowCount() - 1), 5000);
    row = w.log()->rowCount() - 1;
    QCOMPARE(w.log()->index(row, RequestLogModel::TtfbColumn).data().toString(), u"—"_s);

    // A stream the client aborts: "aborted", grey, not a red 200.
    QNetworkReply *stream = postChat(network, fleet.endpoint(), u"h1-m1"_s, 200, true);
    QTRY_VERIFY_WITH_TIMEOUT(stream->bytesAvailable() > 0, 5000);
    stream->abort();
    stream->deleteLater();
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(w.log(), u"h1-m1"_s) >= 0 && !w.log()->isLive(rowOf(w.log(), u"h1-m1"_s)), 5000);
    row = rowOf(w.log(), u"h1-m1"_s);
    QCOMPARE(w.log()->index(row, RequestLogModel::StatusColumn).data().toString(), u"aborted"_s);
    const QModelIndex status = w.view()->proxy()->mapFromSource(w.log()->index(row, RequestLogModel::StatusColumn));
    QCOMPARE(status.data(Qt::ForegroundRole).value<QColor>(), StatusPalette::idle());
    QVERIFY(w.select(row));
    QVERIFY(w.view()->details()->fieldText(u"status"_s).contains(u"aborted by the client"_s));
}

void TstRequestLog::addressColumnIsNotStretched()
{
    // #22 item 5: the App column and the address, each as wide as it needs, however wide the
    // window: the address does not take up the free space.
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    QHeaderView *header = view.table()->horizontalHeader();
    QVERIFY(!header->stretchLastSection());
    QCOMPARE(header->sectionResizeMode(RequestLogModel::ClientColumn), QHeaderView::Interactive);
    view.resize(1000, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int narrow = view.table()->columnWidth(RequestLogModel::ClientColumn);
    view.resize(2400, 500);
    QTRY_COMPARE(view.width(), 2400);
    QCOMPARE(view.table()->columnWidth(RequestLogModel::ClientColumn), narrow);
    const QFontMetrics fm = view.table()->fontMetrics();
    QVERIFY(narrow >= fm.horizontalAdvance(u"192.168.100.200"_s));
    QVERIFY(narrow < 3 * fm.horizontalAdvance(u"192.168.100.200"_s));
    QVERIFY(view.table()->columnWidth(RequestLogModel::AppColumn) >= fm.horizontalAdvance(u"Claude Code"_s));
    QVERIFY(header->visualIndex(RequestLogModel::AppColumn) < header->visualIndex(RequestLogModel::ClientColumn));
}

void TstRequestLog::windowsOwnCallsAreHiddenByDefault()
{
    // #22 item 14: the window's Load (RelayClient) reaches the relay and the history, but the
    // log hides it until asked.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    Window w(fleet);
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    QSignalSpy answered(&client, &RelayClient::finished);
    client.load(u"h1-m2"_s);
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(w.log(), u"h1-m2"_s) >= 0 && !w.log()->isLive(rowOf(w.log(), u"h1-m2"_s)), 5000);
    const int row = rowOf(w.log(), u"h1-m2"_s);
    QVERIFY(RequestLogModel::isOwnRequest(w.log()->recordAt(row)));
    QVERIFY(!w.view()->proxy()->mapFromSource(w.log()->index(row, 0)).isValid());
    QVERIFY(!w.view()->ownRequestsToggle()->isChecked());
    // A client's request is shown.
    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> reply(postChat(network, fleet.endpoint(), u"h1-m1"_s, 2, false));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(w.log(), u"h1-m1"_s) >= 0, 5000);
    QVERIFY(w.view()->proxy()->mapFromSource(w.log()->index(rowOf(w.log(), u"h1-m1"_s), 0)).isValid());
    // Issue 30 item 12: the tab counts the rows its table shows, not the hidden own calls.
    const auto tabText = [&w] { return w.window->tabs()->tabText(w.window->tabs()->indexOf(w.view())); };
    QTRY_COMPARE_WITH_TIMEOUT(tabText(), u"Requests (%1)"_s.arg(w.view()->proxy()->rowCount()), 5000);
    QVERIFY2(w.view()->proxy()->rowCount() < w.log()->rowCount(), qPrintable(tabText()));
    // Asked for, the window's own show too, and the tab counts them.
    w.view()->ownRequestsToggle()->setChecked(true);
    QVERIFY(w.view()->proxy()->mapFromSource(w.log()->index(row, 0)).isValid());
    QTRY_COMPARE_WITH_TIMEOUT(tabText(), u"Requests (%1)"_s.arg(w.log()->rowCount()), 5000);
}

void TstRequestLog::searchNeverLeavesAnUnselectedRequestInThePane()
{
    // #22 item 19: select a request, search for another: the pane must not show a request that
    // is not selected; with one selected again, it shows that one and Copy works.
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    RequestRecord a;
    a.startedAt = QDateTime::currentDateTime().addSecs(-20);
    a.method = u"POST"_s;
    a.path = u"/v1/chat/completions"_s;
    a.model = u"h1-alpha"_s;
    a.host = u"h1"_s;
    a.status = 200;
    a.clientAddress = u"192.0.2.10"_s;
    RequestRecord b = a;
    b.startedAt = a.startedAt.addSecs(1);
    b.model = u"h2-beta"_s;
    b.host = u"h2"_s;
    RequestRecord c = b;
    c.startedAt = a.startedAt.addSecs(2);
    c.model = u"h2-gamma"_s;
    log.appendRecords({a, b, c});
    view.resize(1200, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    view.table()->selectRow(2);   // newest on top: a
    QCOMPARE(view.details()->fieldText(u"heading"_s).contains(u"h1-alpha"_s), true);
    QVERIFY(view.copyJournalLineAction()->isEnabled());

    view.searchField()->setText(u"h2-"_s);   // hides a; the current index moves to b or c
    QCOMPARE(view.proxy()->rowCount(), 2);
    QVERIFY(!view.table()->selectionModel()->hasSelection());
    QCOMPARE(view.details()->fieldText(u"heading"_s), QString());
    QVERIFY(!view.copyJournalLineAction()->isEnabled());

    // Select one of what the search shows: the pane and Copy follow it.
    view.table()->selectRow(0);
    const RequestRecord selected = log.recordAt(view.proxy()->mapToSource(view.proxy()->index(0, 0)).row());
    QCOMPARE(view.details()->fieldText(u"heading"_s).contains(selected.model), true);
    QVERIFY(view.copyJournalLineAction()->isEnabled());
    QCOMPARE(view.selectedJournalLines(), JournalFormat::requestLine(selected));

    // Clearing the search keeps that selection and what the pane shows.
    view.searchField()->clear();
    QCOMPARE(view.proxy()->rowCount(), 3);
    QCOMPARE(view.details()->fieldText(u"heading"_s).contains(selected.model), true);
    QVERIFY(view.copyJournalLineAction()->isEnabled());
}

// The first request after a switch back went out on restored prompt caches: the pane says so
// (and how many tokens); any other request says nothing of it.
void TstRequestLog::paneSaysWhenARestoredCacheServedIt()
{
    RequestLogModel log;
    HostTableModel hosts;
    RequestLogView view(&log, &hosts);
    RequestRecord plain;
    plain.startedAt = QDateTime::currentDateTime().addSecs(-10);
    plain.method = u"POST"_s;
    plain.path = u"/v1/chat/completions"_s;
    plain.model = u"ws-coder"_s;
    plain.host = u"ws"_s;
    plain.engine = u"ea"_s;
    plain.status = 200;
    RequestRecord restored = plain;
    restored.startedAt = plain.startedAt.addSecs(1);
    restored.restoredPromptTokens = 20860;
    log.appendRecords({plain, restored});
    view.resize(1200, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    view.table()->selectRow(0);   // newest on top: the restored one
    const QString cache = view.details()->fieldText(u"cache"_s);
    QVERIFY2(cache.startsWith(u"served from a restored cache"_s) && cache.contains(QLocale().toString(20860)),
             qPrintable(cache));
    QVERIFY(view.details()->fieldText(u"journal"_s).endsWith(u" cache=restored:20860"_s));
    view.table()->selectRow(1);
    QCOMPARE(view.details()->fieldText(u"cache"_s), u"—"_s);
}

// Issue 31 item 1: a request the batch policy holds for another engine's work says, in the log's
// row, its details and the host's card, what it waits for and the latest its host switches for it
// (its arrival plus the wait limit: the same bound the keepalive comment counts down).
void TstRequestLog::heldRequestSaysWhatItWaitsForAndUntilWhen()
{
    TwoEngineHost host;
    host.policy = SchedulingConfig::Policy::Batch;
    host.optionsA.tokensPerSecond = 20;   // a stream of 400 tokens keeps a busy for 20 s
    host.adjustConfig = [](Config &config) {
        config.hosts.first().scheduling.maxWait = 40s;
        config.hosts.first().scheduling.sideCallMaxWait = 40s;
        config.hosts.first().scheduling.dwell = 500ms;   // once the stream is cut, the switch comes soon
    };
    const QString error = host.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(host.runner->service());
    MainWindow window(host.clock, &hosts, &inFlight, nullptr);
    window.setHistory(host.store.get());
    window.setService(host.runner->service());
    window.show();
    RequestLogModel *log = window.requestLog();
    RequestLogView *view = window.requestLogView();

    QNetworkAccessManager network;
    QScopedPointer<QNetworkReply> stream(postChat(network, host.runner->service()->endpoint(), u"h1-alpha"_s, 400, true));
    QTRY_VERIFY_WITH_TIMEOUT(stream->bytesAvailable() > 0, 5000);
    QScopedPointer<QNetworkReply> held(postChat(network, host.runner->service()->endpoint(), u"h1-beta"_s, 4, false));

    // The row: what it waits for, and until when.
    const QRegularExpression rowWords(u"^waiting: switch a→b · at the latest (\\d\\d:\\d\\d:\\d\\d)$"_s);
    const auto statusOf = [log] {
        const int row = rowOf(log, u"h1-beta"_s);
        return row < 0 ? QString() : log->index(row, RequestLogModel::StatusColumn).data().toString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(rowWords.match(statusOf()).hasMatch(), 5000);
    const int row = rowOf(log, u"h1-beta"_s);
    const RequestRecord record = log->recordAt(row);
    QVERIFY(log->isLive(row));
    const QDateTime bound = record.startedAt.addSecs(40);
    QVERIFY2(qAbs(record.waitUntil.secsTo(bound)) <= 1, qPrintable(record.waitUntil.toString(Qt::ISODateWithMs)));
    const auto nearBound = [&bound](const QString &clock) {
        const QTime time = QTime::fromString(clock, u"HH:mm:ss"_s);
        return time.isValid() && qAbs(time.secsTo(bound.time())) <= 2;
    };
    QVERIFY2(nearBound(rowWords.match(statusOf()).captured(1)), qPrintable(statusOf()));

    // The admin API gives the same bound (wait_until), so a window watching this relay from
    // elsewhere says it too.
    {
        QNetworkRequest ask(host.runner->service()->endpoint().resolved(QUrl(u"/admin/requests?state=active"_s)));
        QScopedPointer<QNetworkReply> active(network.get(ask));
        QTRY_VERIFY_WITH_TIMEOUT(active->isFinished(), 5000);
        QJsonObject listed;
        for (const QJsonValue &v : QJsonDocument::fromJson(active->readAll()).array()) {
            if (v.toObject().value("model"_L1).toString() == "h1-beta"_L1)
                listed = v.toObject();
        }
        QVERIFY2(listed.value("wait_until"_L1).isString(), QJsonDocument(listed).toJson().constData());
        QCOMPARE(RemoteRelayJson::request(listed).waitUntil.toMSecsSinceEpoch(), record.waitUntil.toMSecsSinceEpoch());
    }

    // Its details: what it waits for, the bound and how soon.
    QVERIFY(view->proxy()->mapFromSource(log->index(row, 0)).isValid());
    view->table()->selectRow(view->proxy()->mapFromSource(log->index(row, 0)).row());
    const QRegularExpression paneWords(u"^waits for engine b · switch at the latest (\\d\\d:\\d\\d:\\d\\d) \\(in (\\d+) s\\)$"_s);
    const QRegularExpressionMatch pane = paneWords.match(view->details()->fieldText(u"waiting"_s));
    QVERIFY2(pane.hasMatch(), qPrintable(view->details()->fieldText(u"waiting"_s)));
    QVERIFY2(nearBound(pane.captured(1)), qPrintable(pane.captured(0)));
    QVERIFY2(pane.captured(2).toInt() > 25 && pane.captured(2).toInt() <= 40, qPrintable(pane.captured(0)));
    QVERIFY(view->details()->fieldText(u"status"_s).contains(u"at the latest "_s + pane.captured(1)));
    QVERIFY(log->index(row, RequestLogModel::StatusColumn).data(Qt::ToolTipRole).toString().startsWith(u"waits for engine b · "_s));

    // The host's card: who waits for which engine, and the same bound.
    const QRegularExpression cardWords(u"^1 waiting for engine b · switch at the latest (\\d\\d:\\d\\d:\\d\\d) \\(in (\\d+) s\\)$"_s);
    const auto cardLine = [&hosts] { return HostCardDelegate::detailLine(hosts.index(0), QDateTime::currentDateTime()); };
    QTRY_VERIFY_WITH_TIMEOUT(cardWords.match(cardLine()).hasMatch(), 5000);
    const QRegularExpressionMatch card = cardWords.match(cardLine());
    QVERIFY2(nearBound(card.captured(1)), qPrintable(card.captured(0)));
    QVERIFY2(card.captured(2).toInt() > 25 && card.captured(2).toInt() <= 40, qPrintable(card.captured(0)));
    QCOMPARE(HostActivity(hosts.index(0).data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);

    // A window watching this relay from elsewhere (its /admin/hosts' next_switch) says the same.
    QTemporaryDir copyDir;
    HistoryStore copy(copyDir.filePath(u"watched.sqlite"_s), host.clock);
    RemoteRelayFeed feed(host.runner->service()->endpoint(), QString(), &copy, std::chrono::hours(1));
    HostTableModel watched;
    watched.setRemote(&feed);
    feed.start();
    const auto watchedLine = [&watched] {
        return watched.rowCount() == 0 ? QString() : HostCardDelegate::detailLine(watched.index(0), QDateTime::currentDateTime());
    };
    QTRY_VERIFY2_WITH_TIMEOUT(cardWords.match(watchedLine()).hasMatch(), qPrintable(watchedLine()), 5000);
    QVERIFY2(nearBound(cardWords.match(watchedLine()).captured(1)), qPrintable(watchedLine()));

    // Once no bound holds it (the stream is cut, the host switches), the words say no time.
    stream->abort();
    QTRY_VERIFY_WITH_TIMEOUT(!statusOf().contains(u"at the latest"_s), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(held->isFinished(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!cardLine().contains(u"waiting for engine"_s), 5000);
}

QTEST_MAIN(TstRequestLog)
#include "tst_requestlog.moc"
