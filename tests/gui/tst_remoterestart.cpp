// The watched relay's history and the window's cursors into it (issue 22). A relay that
// restarts: on the same history database the window goes on from its cursor, nothing copied
// twice; on a new database (its ids start again, below the cursor) the window tells by the
// database's id in the history answers, drops what it copied from the old one, copies the new
// history from its beginning, and says so. The relay restarts in-process on the same port (one
// kept with portForLater()). An idle relay is asked for no history page: the hosts' answer says
// where its history stands, and the next poll after a new request or event still copies it.
#include "app/remoterelayfeed.h"
#include "catalog/catalog.h"
#include "desktop/desktopapp.h"
#include "guifleet.h"
#include "laterport.h"
#include "models/hosttablemodel.h"
#include "remoterelayfixture.h"
#include "store/requestlogmodel.h"
#include "store/requestquery.h"
#include "window/mainwindow.h"
#include "window/noticebar.h"

#include <QSignalSpy>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 15000;

int rowsFor(const RequestLogModel *log, const QString &model)
{
    int n = 0;
    for (int row = 0; row < log->rowCount(); ++row)
        n += log->recordAt(row).model == model;
    return n;
}

int eventsFor(HistoryStore *store, const QString &model)
{
    int n = 0;
    for (const HistoryEvent &e : store->events(QDateTime(), 0))
        n += e.model == model;
    return n;
}

// n finished requests (and one load event) for `model`, straight into the relay's history.
void recordOn(HistoryStore *store, const QString &model, int n)
{
    for (int i = 0; i < n; ++i) {
        RequestRecord r;
        r.startedAt = QDateTime::currentDateTime();
        r.method = u"POST"_s;
        r.path = u"/v1/chat/completions"_s;
        r.model = model;
        r.host = u"r1"_s;
        r.status = 200;
        r.userAgent = u"bench/1"_s;
        store->record(r);
    }
    HistoryEvent e;
    e.at = QDateTime::currentDateTime();
    e.kind = HistoryEvent::Kind::Load;
    e.host = u"r1"_s;
    e.model = model;
    store->recordEvent(e);
    store->flush();
}

} // namespace

class TstRemoteRestart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void historyIdIsTheDatabases();
    void restartedRelayIsFollowed();
    void idlePollsAskNoHistoryPages();
};

void TstRemoteRestart::historyIdIsTheDatabases()
{
    QTemporaryDir dir;
    QString first;
    {
        HistoryStore store(dir.filePath(u"a.sqlite"_s), systemClock());
        QVERIFY(store.isOpen());
        first = store.historyId();
        QCOMPARE(first.size(), 32);
    }
    HistoryStore again(dir.filePath(u"a.sqlite"_s), systemClock());
    QCOMPARE(again.historyId(), first);   // the same file: the same history
    HistoryStore other(dir.filePath(u"b.sqlite"_s), systemClock());
    QVERIFY(!other.historyId().isEmpty());
    QVERIFY(other.historyId() != first);
}

void TstRemoteRestart::restartedRelayIsFollowed()
{
    GuiFleet local;
    QVERIFY(local.start());
    const quint16 port = portForLater();
    RemoteRelay remote;
    QVERIFY(remote.start(GuiFleet::defaultH2(), [port](Config &c) { c.listenPort = port; }));
    QCOMPARE(remote.relay->endpoint().port(), int(port));
    recordOn(remote.store.get(), u"old-instance"_s, 3);
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(remote.relay->endpoint(), RemoteToken);
    RemoteRelayFeed *feed = desktop.remote();
    QSignalSpy replaced(feed, &RemoteRelayFeed::historyReplaced);
    const RequestLogModel *log = desktop.window()->requestLog();
    QTRY_COMPARE_WITH_TIMEOUT(rowsFor(log, u"old-instance"_s), 3, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(eventsFor(feed->store(), u"old-instance"_s), 1, WaitMs);
    QCOMPARE(feed->historyId(), remote.store->historyId());
    const QString firstHistory = feed->historyId();

    // Restarted on the same database: its ids go on; the window goes on from its cursor.
    QVERIFY(remote.restart());
    recordOn(remote.store.get(), u"same-database"_s, 1);
    QTRY_COMPARE_WITH_TIMEOUT(rowsFor(log, u"same-database"_s), 1, WaitMs);
    QCOMPARE(rowsFor(log, u"old-instance"_s), 3);
    QCOMPARE(replaced.size(), 0);
    QVERIFY(!desktop.window()->notice()->text().contains(u"new history"_s));
    QCOMPARE(feed->historyId(), firstHistory);

    // Restarted on a new database, which has more requests than the cursor by the time the
    // window asks: ids 1..6 where the window had read up to 4. All six show; the old ones go.
    QVERIFY(remote.restart(u"remote-new.sqlite"_s));
    QVERIFY(remote.store->historyId() != firstHistory);
    recordOn(remote.store.get(), u"new-instance"_s, 6);
    QTRY_COMPARE_WITH_TIMEOUT(rowsFor(log, u"new-instance"_s), 6, WaitMs);
    QCOMPARE(replaced.size(), 1);
    QCOMPARE(feed->historyId(), remote.store->historyId());
    QCOMPARE(rowsFor(log, u"old-instance"_s), 0);
    QCOMPARE(rowsFor(log, u"same-database"_s), 0);
    QCOMPARE(log->rowCount(), 6);
    // The timeline's history is the new one's alone, and the window says what happened.
    QTRY_COMPARE_WITH_TIMEOUT(eventsFor(feed->store(), u"new-instance"_s), 1, WaitMs);
    QCOMPARE(eventsFor(feed->store(), u"old-instance"_s), 0);
    QVERIFY(desktop.window()->notice()->isVisibleTo(desktop.window()));
    QVERIFY2(desktop.window()->notice()->text().contains(u"new history"_s), qPrintable(desktop.window()->notice()->text()));

    // Later polls copy nothing twice.
    QSignalSpy finished(feed, &RemoteRelayFeed::pollFinished);
    feed->refresh();
    QVERIFY(finished.wait(WaitMs));
    feed->refresh();
    QVERIFY(finished.wait(WaitMs));
    QCOMPARE(rowsFor(log, u"new-instance"_s), 6);
    QCOMPARE(eventsFor(feed->store(), u"new-instance"_s), 1);
    QCOMPARE(replaced.size(), 1);

    // Back to the relay here: the notice about the watched relay goes.
    desktop.runHere();
    QVERIFY(!desktop.window()->notice()->isVisibleTo(desktop.window()));
}

void TstRemoteRestart::idlePollsAskNoHistoryPages()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    // Its hosts' first polls (and the events they record) are done before the window watches.
    const auto reachable = [&remote](const QString &host) {
        const Catalog::HostState *s = remote.relay->catalog()->host(host);
        return s && s->reachable;
    };
    QTRY_VERIFY_WITH_TIMEOUT(reachable(u"r1"_s) && reachable(u"r2"_s), WaitMs);
    recordOn(remote.store.get(), u"before"_s, 2);
    QTemporaryDir dir;
    HistoryStore copy(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(remote.relay->endpoint(), RemoteToken, &copy, std::chrono::hours(1));   // polls when told
    feed.setLiveStreamEnabled(false);   // what the polls ask, without the stream's pushes
    QSignalSpy finished(&feed, &RemoteRelayFeed::pollFinished);
    const auto sentByARefresh = [&] {
        const int before = feed.requestsSent();
        feed.refresh();
        return finished.wait(WaitMs) ? feed.requestsSent() - before : -1;
    };
    const auto copied = [&copy](const QString &model) {
        RequestQuery q;
        q.model = model;
        q.limit = 0;
        return int(copy.requests(q).size());
    };
    feed.start();
    QVERIFY(finished.wait(WaitMs));
    QCOMPARE(feed.requestsSent(), 5);   // hosts, models, running now; then requests and events
    QCOMPARE(copied(u"before"_s), 2);
    // Idle: hosts, models and what runs now, no history page.
    QCOMPARE(sentByARefresh(), 3);
    QCOMPARE(sentByARefresh(), 3);
    // A request and an event on the relay: the very next poll asks for both pages and copies them.
    recordOn(remote.store.get(), u"after"_s, 1);
    QCOMPARE(sentByARefresh(), 5);
    QCOMPARE(copied(u"after"_s), 1);
    QCOMPARE(eventsFor(&copy, u"after"_s), 1);
    // An event alone: its page alone.
    HistoryEvent e;
    e.kind = HistoryEvent::Kind::Unload;
    e.host = u"r1"_s;
    e.model = u"event-only"_s;
    remote.store->recordEvent(e);
    QCOMPARE(sentByARefresh(), 4);
    QCOMPARE(eventsFor(&copy, u"event-only"_s), 1);
    QCOMPARE(sentByARefresh(), 3);
    QCOMPARE(copied(u"before"_s), 2);   // nothing copied twice
    QCOMPARE(copied(u"after"_s), 1);
}

QTEST_MAIN(TstRemoteRestart)
#include "tst_remoterestart.moc"
