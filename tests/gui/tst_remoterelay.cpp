// Watching a relay that runs elsewhere (issue 22): the window attaches to a second relay by URL
// and admin token and shows its hosts, its requests in the log and, in the status bar, which
// relay it shows; Settings chooses "run here" or "watch URL"; a refused token is said.
#include "app/appsettings.h"
#include "app/remoterelayfeed.h"
#include "desktop/desktopapp.h"
#include "dialogs/settingsdialog.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "rawhttpclient.h"
#include "store/requestlogmodel.h"
#include "store/requestquery.h"
#include "tray/autostart.h"
#include "hosts/hostcontroller.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QLineEdit>
#include <QSignalSpy>
#include <QRadioButton>
#include <QSettings>
#include <QTcpServer>
#include <QTcpSocket>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
const QString Token = u"watch-t0ken-for-tests"_s;

// The relay "elsewhere": two fake routers (r1, r2), a relay with an admin token in front of
// them and a history store of its own.
struct RemoteRelay
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<fake::FakeLlamaServer> r1;
    std::unique_ptr<fake::FakeLlamaServer> r2;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayService> relay;

    bool start(fake::FakeOptions o2 = GuiFleet::defaultH2())
    {
        r1 = std::make_unique<fake::FakeLlamaServer>(GuiFleet::defaultH1());
        r2 = std::make_unique<fake::FakeLlamaServer>(o2);
        if (!dir.isValid() || !r1->listen() || !r2->listen())
            return false;
        ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"r1="_s + r1->baseUrl().toString(),
                                                                         u"r2="_s + r2->baseUrl().toString()});
        if (!result.ok())
            return false;
        Config config = *result.config;
        config.access.adminToken = Token;
        store = std::make_unique<HistoryStore>(dir.filePath(u"remote.sqlite"_s), clock);
        relay = std::make_unique<RelayService>(config, RelayService::standardDrivers(config));
        relay->setHistory(store.get());
        QString error;
        return store->isOpen() && relay->start(&error);
    }
};

bool logHasModel(const RequestLogModel *log, const QString &model)
{
    for (int row = 0; row < log->rowCount(); ++row) {
        if (log->recordAt(row).model == model)
            return true;
    }
    return false;
}

} // namespace

class TstRemoteRelay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void attachShowsHostsAndRequests();
    void inFlightOnTheRemote();
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

QTEST_MAIN(TstRemoteRelay)
#include "tst_remoterelay.moc"
