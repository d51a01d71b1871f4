// Watching a relay that runs elsewhere (issue 22): the window attaches to a second relay by URL
// and admin token and shows its hosts, its models (loaded and unloaded from here, through its
// admin API), its requests in the log and, in the status bar, which relay it shows; Refresh Now
// asks it at once; a busy relay's requests are paged through, none lost; its times keep their
// zone; the admin token loads only through the admin API; Settings chooses "run here" or
// "watch URL"; a refused token is said.
#include "app/appsettings.h"
#include "app/remoterelayfeed.h"
#include "desktop/desktopapp.h"
#include "dialogs/settingsdialog.h"
#include "guifleet.h"
#include "remoterelayfixture.h"
#include "models/hosttablemodel.h"
#include "models/modeltablemodel.h"
#include "journal/journalformat.h"
#include "window/modelsview.h"
#include "rawhttpclient.h"
#include "store/requestlogmodel.h"
#include "store/requestquery.h"
#include "tray/autostart.h"
#include "hosts/hostcontroller.h"
#include "relay/peerpolicy.h"
#include "relay/relay.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QRadioButton>
#include <QSettings>
#include <QTcpServer>
#include <QTcpSocket>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QScopeGuard>

#include <ctime>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
const QString Token = RemoteToken;

bool logHasModel(const RequestLogModel *log, const QString &model)
{
    for (int row = 0; row < log->rowCount(); ++row) {
        if (log->recordAt(row).model == model)
            return true;
    }
    return false;
}

int requestsFor(HistoryStore &store, const QString &model)
{
    RequestQuery query;
    query.model = model;
    query.limit = 0;
    return int(store.requests(query).size());
}

// A relay stood in by a socket that answers each admin path with a canned body (keep-alive, so
// several requests may come on one connection) and keeps what was asked.
struct CannedRelay
{
    QTcpServer server;
    QHash<QString, QByteArray> bodies;   // by path; "?state=active" told apart by its query
    QByteArrayList asked;

    bool listen()
    {
        QObject::connect(&server, &QTcpServer::newConnection, &server, [this] {
            while (QTcpSocket *socket = server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                    *buffer += socket->readAll();
                    qsizetype end;
                    while ((end = buffer->indexOf("\r\n\r\n")) >= 0) {
                        const QByteArray target = buffer->left(buffer->indexOf("\r\n")).split(' ').value(1);
                        buffer->remove(0, end + 4);
                        asked.append(target);
                        const QByteArray path = target.contains("state=active") ? target : target.split('?').first();
                        const QByteArray body = bodies.value(QString::fromLatin1(path), "[]");
                        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    }
                });
            }
        });
        return server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(server.serverPort())); }
};

// This process's zone for a test, and back after it.
auto inZone(const QByteArray &zone)
{
    const QByteArray before = qgetenv("TZ");
    const bool had = qEnvironmentVariableIsSet("TZ");
    qputenv("TZ", zone);
    tzset();
    return qScopeGuard([before, had] {
        if (had)
            qputenv("TZ", before);
        else
            qunsetenv("TZ");
        tzset();
    });
}

} // namespace

class TstRemoteRelay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void attachShowsHostsAndRequests();
    void inFlightOnTheRemote();
    void modelsComeFromTheRemote();
    void refreshNowAsksTheRemoteAtOnce();
    void busyRemoteLosesNoRequests();
    void timesKeepTheirZone();
    void adminTokenLoadsOnlyThroughTheAdminApi();
    void settingsChooseWhichRelay();
    void refusedTokenIsSaid();
};

void TstRemoteRelay::attachShowsHostsAndRequests()
{
    GuiFleet local;   // the relay this window would run itself: h1, h2
    QVERIFY(local.start());
    RemoteRelay remote;
    QVERIFY(remote.start());
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    QCOMPARE(desktop.hosts()->hostNames(), (QStringList{u"h1"_s, u"h2"_s}));
    QVERIFY(desktop.window()->statusText().contains(u"Listening on"_s));

    desktop.watchRemote(remote.relay->endpoint(), Token);
    QVERIFY(desktop.remote());
    QTRY_COMPARE_WITH_TIMEOUT(desktop.hosts()->hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(desktop.window()->statusText().contains(u"Watching the relay at"_s), WaitMs);
    QVERIFY(desktop.window()->statusText().contains(remote.relay->endpoint().toString()));
    QVERIFY2(desktop.remote()->error().isEmpty(), qPrintable(desktop.remote()->error()));
    // The cards read the remote's hosts: up, its engine, its models.
    const QModelIndex r1 = desktop.hosts()->index(desktop.hosts()->rowOf(u"r1"_s));
    QTRY_COMPARE_WITH_TIMEOUT(HostActivity(r1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(r1.data(HostTableModel::ModelsTotalRole).toInt(), 2, WaitMs);
    QCOMPARE(r1.data(HostTableModel::UrlRole).toString(), remote.r1->baseUrl().toString());
    QCOMPARE(r1.data(HostTableModel::DriverRole).toString(), u"static"_s);
    QCOMPARE(r1.data(HostTableModel::EnginesRole).toStringList().size(), 1);
    QVERIFY(desktop.window()->hostsView()->refreshAction()->isEnabled());

    // A request made to the remote relay shows in this window's log.
    RawHttpClient client(remote.relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions",
                                    R"({"model":"r1-m1","messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, WaitMs);
    QCOMPARE(client.responses().first().status, 200);
    QTRY_VERIFY_WITH_TIMEOUT(logHasModel(desktop.window()->requestLog(), u"r1-m1"_s), WaitMs);
    // ...and not a request of the relay here.
    QVERIFY(!logHasModel(desktop.window()->requestLog(), u"h1-m1"_s));
    // The window's polls of the admin API fill neither the watched relay's history nor this log.
    const RequestLogModel *log = desktop.window()->requestLog();
    for (int row = 0; row < log->rowCount(); ++row)
        QVERIFY2(!log->recordAt(row).path.startsWith("/admin/"_L1), qPrintable(log->recordAt(row).path));
    for (const RequestRecord &r : remote.store->requests(RequestQuery()))
        QVERIFY2(!r.path.startsWith("/admin/"_L1), qPrintable(r.path));
    QVERIFY(remote.store->requests(RequestQuery()).size() >= 1);

    // Actions go back through the admin API: the lease shows on the card and the menu follows.
    HostsView *view = desktop.window()->hostsView();
    view->setCurrentIndex(r1);
    QVERIFY(view->takeLeaseAction()->isEnabled());
    QVERIFY(!view->releaseLeaseAction()->isEnabled());
    QVERIFY(!view->switchEngineAction()->isEnabled());   // one engine: nothing to switch to
    int leaseStatus = 0;
    desktop.remote()->takeLease(u"r1"_s, u"bench queue"_s, std::chrono::seconds(600),
                                [&leaseStatus](int status, const QString &) { leaseStatus = status; });
    QTRY_COMPARE_WITH_TIMEOUT(leaseStatus, 200, WaitMs);
    QCOMPARE(remote.relay->hostController(u"r1"_s)->leaseOwner(), u"bench queue"_s);
    QTRY_COMPARE_WITH_TIMEOUT(r1.data(HostTableModel::LeaseOwnerRole).toString(), u"bench queue"_s, WaitMs);
    QCOMPARE(HostActivity(r1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Leased);
    QTRY_VERIFY_WITH_TIMEOUT(view->releaseLeaseAction()->isEnabled(), WaitMs);
    QVERIFY(!view->takeLeaseAction()->isEnabled());
    view->releaseLeaseAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(r1.data(HostTableModel::LeaseOwnerRole).toString(), QString(), WaitMs);
    QVERIFY(remote.relay->hostController(u"r1"_s)->leaseOwner().isEmpty());
    // The lease's events reach the watched history the timeline reads.
    const auto leaseReleasedSeen = [&desktop] {
        const QList<HistoryEvent> events = desktop.remote()->store()->events(QDateTime());
        return std::any_of(events.cbegin(), events.cend(), [](const HistoryEvent &e) {
            return e.kind == HistoryEvent::Kind::LeaseReleased && e.host == "r1"_L1;
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(leaseReleasedSeen(), WaitMs);

    // Back to the relay here: its hosts, and its status line.
    desktop.runHere();
    QVERIFY(!desktop.remote());
    QCOMPARE(desktop.hosts()->hostNames(), (QStringList{u"h1"_s, u"h2"_s}));
    QVERIFY(desktop.window()->statusText().contains(u"Listening on"_s));
    QVERIFY(!logHasModel(desktop.window()->requestLog(), u"r1-m1"_s));
}

void TstRemoteRelay::inFlightOnTheRemote()
{
    GuiFleet local;
    QVERIFY(local.start());
    fake::FakeOptions slow = GuiFleet::defaultH2();
    slow.prefillDelay = std::chrono::seconds(6);   // longer than two polls
    RemoteRelay remote;
    QVERIFY(remote.start(slow));
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(remote.relay->endpoint(), Token);
    QTRY_COMPARE_WITH_TIMEOUT(desktop.hosts()->hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);
    RawHttpClient client(remote.relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions",
                                    R"({"model":"r2-m3","stream":true,"messages":[{"role":"user","content":"hi"}]})"));
    // The remote's card and status bar count it while it runs (the relay here has nothing).
    const QModelIndex r2 = desktop.hosts()->index(desktop.hosts()->rowOf(u"r2"_s));
    QTRY_COMPARE_WITH_TIMEOUT(r2.data(HostTableModel::InFlightRole).toInt(), 1, WaitMs);
    QCOMPARE(desktop.hosts()->inFlightTotal(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(desktop.window()->statusText().contains(u"1 request"_s), WaitMs);
    // ...and the log shows it in flight, then its finished record in the same row.
    RequestLogModel *log = desktop.window()->requestLog();
    QTRY_VERIFY_WITH_TIMEOUT(log->liveCount() == 1 && logHasModel(log, u"r2-m3"_s), WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 3 * WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(r2.data(HostTableModel::InFlightRole).toInt(), 0, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(log->liveCount(), 0, WaitMs);
    int rows = 0;
    for (int row = 0; row < log->rowCount(); ++row) {
        if (log->recordAt(row).model == "r2-m3"_L1) {
            ++rows;
            QCOMPARE(log->recordAt(row).status, 200);
            QVERIFY(!log->isLive(row));
        }
    }
    QCOMPARE(rows, 1);
}

void TstRemoteRelay::settingsChooseWhichRelay()
{
    GuiFleet local;
    QVERIFY(local.start());
    RemoteRelay remote;
    QVERIFY(remote.start());
    QTemporaryDir dir;
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"settings.ini"_s), QSettings::IniFormat));
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    Autostart autostart(u"switchyard"_s);

    // The dialog: "run here" by default; "watch" wants a URL it can use.
    {
        SettingsDialog dialog(&settings, &autostart, {});
        QVERIFY(dialog.runHereField()->isChecked());
        QVERIFY(!dialog.watchUrlField()->isEnabled());
        dialog.watchField()->setChecked(true);
        QVERIFY(dialog.watchUrlField()->isEnabled());
        dialog.watchUrlField()->setText(u"gpu-server:18766"_s);
        QVERIFY(!dialog.save());
        QVERIFY(dialog.validate().join(u'\n').contains(u"Watch the relay at"_s));
        dialog.watchUrlField()->setText(remote.relay->endpoint().toString());
        dialog.watchTokenField()->setText(Token);
        QVERIFY2(dialog.save(), qPrintable(dialog.validate().join(u'\n')));
    }
    QCOMPARE(settings.watchUrl(), remote.relay->endpoint().toString());
    QCOMPARE(settings.watchToken(), Token);
    QFile ini(settings.fileName());   // the token is in a file of its own (tst_remotewatchstart)
    QVERIFY(ini.open(QIODevice::ReadOnly));
    QVERIFY(!ini.readAll().contains(Token.toUtf8()));

    // A window started with that setting watches the remote relay from the start.
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), &settings, nullptr, DesktopApp::Options());
    desktop.start();
    QVERIFY(desktop.remote());
    QTRY_COMPARE_WITH_TIMEOUT(desktop.hosts()->hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);

    // Back to "run here".
    {
        SettingsDialog dialog(&settings, &autostart, {});
        QVERIFY(dialog.watchField()->isChecked());
        QCOMPARE(dialog.watchTokenField()->echoMode(), QLineEdit::Password);
        dialog.runHereField()->setChecked(true);
        QVERIFY(dialog.save());
    }
    QCOMPARE(settings.watchUrl(), QString());
}

void TstRemoteRelay::refusedTokenIsSaid()
{
    // A relay that refuses the token (401), stood in by a socket that also shows what was sent.
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    QByteArray received;
    connect(&server, &QTcpServer::newConnection, &server, [&] {
        while (QTcpSocket *socket = server.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, socket, [socket, &received] {
                received += socket->readAll();
                const QByteArray body = R"({"error":{"message":"the admin API answers only on this machine, or with the admin token"}})";
                socket->write("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: "
                              + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            });
        }
    });
    QTemporaryDir dir;
    HistoryStore store(dir.filePath(u"never.sqlite"_s), systemClock());
    RemoteRelayFeed feed(QUrl(u"http://127.0.0.1:%1"_s.arg(server.serverPort())), u"wrong"_s, &store);
    QSignalSpy connection(&feed, &RemoteRelayFeed::connectionChanged);
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(!feed.error().isEmpty(), WaitMs);
    QVERIFY(!feed.connected());
    QVERIFY2(feed.error().contains(u"refused the admin token"_s), qPrintable(feed.error()));
    QVERIFY(received.contains("Authorization: Bearer wrong\r\n"));
    QVERIFY(feed.hosts().isEmpty());
}

void TstRemoteRelay::modelsComeFromTheRemote()
{
    GuiFleet local;   // h1, h2 here: none of their models may show
    QVERIFY(local.start());
    RemoteRelay remote;
    QVERIFY(remote.start());
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(remote.relay->endpoint(), Token);
    ModelTableModel *models = desktop.window()->modelTable();
    QTRY_COMPARE_WITH_TIMEOUT(models->rowCount(), 3, WaitMs);   // r1-m1, r1-m2, r2-m3
    QCOMPARE(models->rowOfAlias(u"h1-m1"_s), -1);
    // Host, engine, status and context as the remote's catalog knows them.
    const int m1 = models->rowOfAlias(u"r1-m1"_s);
    QVERIFY(m1 >= 0);
    const Catalog::ListedModel listed = [&remote] {
        for (const Catalog::ListedModel &l : remote.relay->catalog()->listedModels()) {
            if (l.host == "r1"_L1 && l.entry.key == "m1"_L1)
                return l;
        }
        return Catalog::ListedModel();
    }();
    QCOMPARE(models->index(m1, ModelTableModel::HostColumn).data().toString(), u"r1"_s);
    QCOMPARE(models->index(m1, ModelTableModel::EngineColumn).data().toString(), listed.engine);
    QCOMPARE(models->statusAt(m1), u"loaded"_s);
    QCOMPARE(models->index(m1, ModelTableModel::ContextColumn).data(ModelTableModel::SortRole).toLongLong(), 32768);
    QCOMPARE(models->statusAt(models->rowOfAlias(u"r1-m2"_s)), u"unloaded"_s);

    // Load from the window: through the remote's admin API, loaded on the remote's box.
    ModelsView *view = desktop.window()->modelsView();
    QSignalSpy messages(view, &ModelsView::message);
    QVERIFY(view->selectAlias(u"r1-m2"_s));
    QVERIFY(view->loadAction()->isEnabled());
    view->loadAction()->trigger();
    const auto remoteStatus = [&remote](const QString &key) {
        const std::optional<ModelEntry> m = remote.relay->catalog()->model(u"r1"_s, key);
        return m ? m->status : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(remoteStatus(u"m2"_s), u"loaded"_s, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(models->statusAt(models->rowOfAlias(u"r1-m2"_s)), u"loaded"_s, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty() && messages.last().value(0).toString().contains(u"load accepted"_s), WaitMs);
    // The box got a load, and never the admin token.
    bool loaded = false;
    for (const fake::ReceivedRequest &r : remote.r1->received()) {
        loaded = loaded || (r.path == "/models/load" && r.body.contains("\"m2\""));
        for (const auto &h : r.headers)
            QVERIFY2(!h.second.contains(Token.toUtf8()), r.path.constData());
    }
    QVERIFY(loaded);

    // Unload, the same way.
    QTRY_VERIFY_WITH_TIMEOUT(view->unloadAction()->isEnabled(), WaitMs);
    view->unloadAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(remoteStatus(u"m2"_s), u"unloaded"_s, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(models->statusAt(models->rowOfAlias(u"r1-m2"_s)), u"unloaded"_s, WaitMs);

    // Back to the relay here: its models again.
    desktop.runHere();
    QTRY_VERIFY_WITH_TIMEOUT(models->rowOfAlias(u"h1-m1"_s) >= 0, WaitMs);
    QCOMPARE(models->rowOfAlias(u"r1-m1"_s), -1);
}

void TstRemoteRelay::refreshNowAsksTheRemoteAtOnce()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    QTemporaryDir dir;
    HistoryStore store(dir.filePath(u"watched.sqlite"_s), systemClock());
    // No timed poll within this test: what it sees after the first comes from Refresh Now (and
    // not from the live stream: tst_remotelive has that).
    RemoteRelayFeed feed(remote.relay->endpoint(), Token, &store, std::chrono::hours(1));
    feed.setLiveStreamEnabled(false);
    HostTableModel hosts;
    hosts.setRemote(&feed);
    SystemClock clock;
    HostsView view(&hosts, clock);
    QVERIFY(view.refreshAction()->isEnabled());
    feed.start();
    QTRY_COMPARE_WITH_TIMEOUT(hosts.hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);
    QCOMPARE(feed.pollCount(), 1);
    // Someone takes r1 on the remote; the window learns it when it asks.
    int status = 0;
    remote.relay->hostController(u"r1"_s)->takeLease(u"someone else"_s, std::chrono::seconds(600),
                                                      [&status](const std::optional<HostRefusal> &refused) { status = refused ? refused->status() : 200; });
    QTRY_COMPARE_WITH_TIMEOUT(status, 200, WaitMs);
    QCOMPARE(hosts.index(hosts.rowOf(u"r1"_s)).data(HostTableModel::LeaseOwnerRole).toString(), QString());
    view.refreshAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(hosts.index(hosts.rowOf(u"r1"_s)).data(HostTableModel::LeaseOwnerRole).toString(),
                              u"someone else"_s, WaitMs);
    QCOMPARE(feed.pollCount(), 2);
}

void TstRemoteRelay::busyRemoteLosesNoRequests()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    const auto recordMany = [&remote](int n, const QString &model) {
        for (int i = 0; i < n; ++i) {
            RequestRecord r;
            r.startedAt = QDateTime::currentDateTime();
            r.method = u"POST"_s;
            r.path = u"/v1/chat/completions"_s;
            r.model = model;
            r.host = u"r1"_s;
            r.status = 200;
            r.userAgent = u"bench/1"_s;
            remote.store->record(r);
            HistoryEvent e;
            e.at = r.startedAt;
            e.kind = HistoryEvent::Kind::Load;
            e.host = u"busy"_s;
            e.model = model;
            remote.store->recordEvent(e);
        }
    };
    recordMany(5, u"before"_s);
    QTemporaryDir dir;
    HistoryStore store(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(remote.relay->endpoint(), Token, &store, std::chrono::hours(1));   // polls when told
    feed.setLiveStreamEnabled(false);   // the pages, not the stream, carry them here
    QSignalSpy finished(&feed, &RemoteRelayFeed::pollFinished);
    feed.start();
    QVERIFY(finished.wait(WaitMs));
    QCOMPARE(requestsFor(store, u"before"_s), 5);
    // Between two polls, more than two pages (and far more than the 200 a poll once read).
    const int between = 2 * RemoteRelayFeed::PageSize + 37;
    recordMany(between, u"between"_s);
    // One Refresh Now pages through them all (the poll ends after its last page).
    feed.refresh();
    QVERIFY(finished.wait(3 * WaitMs));
    QCOMPARE(requestsFor(store, u"between"_s), between);
    const auto busyEvents = [&store] {
        int n = 0;
        for (const HistoryEvent &e : store.events(QDateTime(), 0))
            n += e.host == "busy"_L1;
        return n;
    };
    QCOMPARE(busyEvents(), 5 + between);
    // Each once: another poll copies none again.
    feed.refresh();
    QVERIFY(finished.wait(WaitMs));
    QCOMPARE(requestsFor(store, u"between"_s), between);
    QCOMPARE(requestsFor(store, u"before"_s), 5);
    QCOMPARE(busyEvents(), 5 + between);
}

void TstRemoteRelay::timesKeepTheirZone()
{
    // This window in New York (UTC-5 in December); the remote's times say +05:30.
    const auto zone = inZone("America/New_York");
    CannedRelay canned;
    canned.bodies.insert(u"/admin/hosts"_s, R"([{"host":"far","state":"leased","engine":"main","engines":["main"],
        "reachable":true,"models":[],"last_poll":"2026-12-02T18:00:05.000+05:30",
        "lease":{"owner":"bench","until":"2026-12-02T20:00:00.000+05:30"}}])");
    canned.bodies.insert(u"/admin/requests"_s, R"([{"id":7,"started_at":"2026-12-02T18:00:00.000+05:30","method":"POST",
        "path":"/v1/chat/completions","model":"far-m1","host":"far","status":200,"duration_ms":12,
        "client":"10.0.0.2","user_agent":"curl/8"}])");
    canned.bodies.insert(u"/admin/events"_s, R"([{"id":3,"at":"2026-12-02T18:00:01.000Z","kind":"lease_taken","host":"far"}])");
    QVERIFY(canned.listen());
    QTemporaryDir dir;
    HistoryStore store(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(canned.url(), Token, &store, std::chrono::hours(1));
    feed.start();
    QTRY_COMPARE_WITH_TIMEOUT(int(feed.hosts().size()), 1, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(requestsFor(store, u"far-m1"_s), 1, WaitMs);
    // 18:00 at +05:30 is 12:30 UTC, 07:30 in New York, and shows so.
    const RequestRecord r = store.requests(RequestQuery()).value(0);
    QCOMPARE(r.startedAt.toMSecsSinceEpoch(), QDateTime(QDate(2026, 12, 2), QTime(12, 30), Qt::UTC).toMSecsSinceEpoch());
    QVERIFY2(JournalFormat::timestamp(r.startedAt).contains(u"07:30:00"_s), qPrintable(JournalFormat::timestamp(r.startedAt)));
    const RemoteRelayFeed::Host far = feed.hosts().first();
    QCOMPARE(far.leaseUntil.toLocalTime().time(), QTime(9, 30));
    QCOMPARE(far.leaseUntil.toMSecsSinceEpoch(), QDateTime(QDate(2026, 12, 2), QTime(14, 30), Qt::UTC).toMSecsSinceEpoch());
    QCOMPARE(far.state.lastPoll.toLocalTime().time(), QTime(7, 30, 5));
    QTRY_COMPARE_WITH_TIMEOUT(int(store.events(QDateTime(), 0).size()), 1, WaitMs);
    QCOMPARE(store.events(QDateTime(), 0).first().at.toLocalTime().time(), QTime(13, 0, 1));

    // And a relay in this zone says its offset, so a window elsewhere reads it right.
    RemoteRelay remote;
    QVERIFY(remote.start());
    RawHttpClient client(remote.relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", R"({"model":"r1-m1","messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, WaitMs);
    client.send(RawHttpClient::get("/admin/requests?limit=5", "Authorization: Bearer " + Token.toUtf8() + "\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, WaitMs);
    const QJsonArray answered = QJsonDocument::fromJson(client.responses().at(1).body).array();
    QVERIFY(!answered.isEmpty());
    const QString started = answered.first().toObject().value("started_at"_L1).toString();
    QVERIFY2(started.endsWith(u"-05:00"_s), qPrintable(started));
}

void TstRemoteRelay::adminTokenLoadsOnlyThroughTheAdminApi()
{
    // Asked from the LAN (127.0.0.2; only 127.0.0.1 counts as the relay's machine), with client keys.
    RemoteRelay remote;
    QVERIFY(remote.start(GuiFleet::defaultH2(), [](Config &c) { c.access.clientKeys = {{u"laptop"_s, u"client-k3y"_s}}; }));
    PeerPolicy peers;
    peers.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}});
    remote.relay->relay()->setPeerPolicy(peers);
    const auto ask = [&remote](const QByteArray &raw) {
        RawHttpClient client(remote.relay->endpoint().port());
        if (!client.socket()->bind(QHostAddress(u"127.0.0.2"_s)) || !client.connectToServer())
            return 0;
        client.send(raw);
        return QTest::qWaitFor([&client] { return client.completedResponses() >= 1; }, WaitMs) ? client.responses().first().status : 0;
    };
    const QByteArray admin = "Authorization: Bearer " + Token.toUtf8() + "\r\n";
    const QByteArray key = "Authorization: Bearer client-k3y\r\n";
    const QByteArray load = R"({"model":"r1-m2"})";
    QCOMPARE(ask(RawHttpClient::post("/models/load", load, admin)), 401);   // the admin token opens no client route
    QCOMPARE(ask(RawHttpClient::post("/admin/models/load", load, key)), 403);   // nor a client key the admin API
    QCOMPARE(ask(RawHttpClient::post("/admin/models/load", load)), 403);
    QCOMPARE(ask(RawHttpClient::get("/admin/models", key)), 403);
    QCOMPARE(ask(RawHttpClient::get("/admin/models", admin)), 200);
    QCOMPARE(remote.relay->catalog()->model(u"r1"_s, u"m2"_s)->status, u"unloaded"_s);
    QCOMPARE(ask(RawHttpClient::post("/admin/models/load", load, admin)), 200);
    QTRY_COMPARE_WITH_TIMEOUT(remote.relay->catalog()->model(u"r1"_s, u"m2"_s).value_or(ModelEntry()).status, u"loaded"_s, WaitMs);
    QCOMPARE(ask(RawHttpClient::post("/admin/models/unload", load, admin)), 200);
    QTRY_COMPARE_WITH_TIMEOUT(remote.relay->catalog()->model(u"r1"_s, u"m2"_s).value_or(ModelEntry()).status, u"unloaded"_s, WaitMs);
}

QTEST_MAIN(TstRemoteRelay)
#include "tst_remoterelay.moc"
