// The window watching a relay elsewhere is live from the relay's /admin/stream (issue 30): a host's
// change, a history event and a finished request reach the window's models without a poll (the
// poll's interval is an hour here); a relay without the stream (404) is polled instead, the status
// says so, and the stream is asked again with a backoff; a stream cut and back copies each request
// once, whichever of the stream and the pages brought it.
#include "admin/adminapi.h"
#include "app/remoterelayfeed.h"
#include "desktop/desktopapp.h"
#include "guifleet.h"
#include "hosts/hostcontroller.h"
#include "models/hosttablemodel.h"
#include "rawhttpclient.h"
#include "remoterelayfixture.h"
#include "store/requestlogmodel.h"
#include "store/requestquery.h"
#include "window/mainwindow.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
// What the stream brings: far under the hour between two polls here (it takes milliseconds; the
// margin is for a loaded machine). pollCount() shows that no poll brought it.
constexpr int LiveMs = 3000;

int rowsFor(const RequestLogModel &log, const QString &model)
{
    int n = 0;
    for (int row = 0; row < log.rowCount(); ++row)
        n += log.recordAt(row).model == model;
    return n;
}

int copiedRequests(HistoryStore &store, const QString &model)
{
    RequestQuery q;
    q.model = model;
    q.limit = 0;
    return int(store.requests(q).size());
}

void recordOn(HistoryStore *store, const QString &model)
{
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

// A relay before the stream: every admin GET answered from canned bodies, /admin/stream with the
// 404 such a relay gives; keeps what was asked.
struct RelayWithoutStream
{
    QTcpServer server;
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
                        const QByteArray path = target.split('?').first();
                        QByteArray status = "200 OK";
                        QByteArray body = "[]";
                        if (path == "/admin/stream") {
                            status = "404 Not Found";
                            body = R"({"error":{"message":"no admin endpoint GET /admin/stream"}})";
                        } else if (path == "/admin/hosts") {
                            body = R"([{"host":"old1","state":"serving","engine":"main","engines":["main"]}])";
                        }
                        socket->write("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
                                      + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                    }
                });
            }
        });
        return server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(server.serverPort())); }
    int streamAsks() const { return int(asked.count("/admin/stream")); }
};

} // namespace

class TstRemoteLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void changesArriveWithoutAPoll();
    void relayWithoutTheStreamIsPolled();
    void windowSaysLiveOrPolling();
    void cutStreamCopiesEachRequestOnce();
};

void TstRemoteLive::changesArriveWithoutAPoll()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    QTemporaryDir dir;
    HistoryStore copy(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(remote.relay->endpoint(), RemoteToken, &copy, std::chrono::hours(1));
    HostTableModel hosts;
    hosts.setRemote(&feed);
    RequestLogModel log;   // as the window's: the copies as they are recorded, live rows from the feed
    connect(&copy, &HistoryStore::requestRecorded, &log, &RequestLogModel::append);
    connect(&feed, &RemoteRelayFeed::requestActive, &log, &RequestLogModel::updateLive);
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(feed.isLive(), WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(hosts.hostNames(), (QStringList{u"r1"_s, u"r2"_s}), WaitMs);
    QCOMPARE(feed.liveStatus(), u"live"_s);
    const int polls = feed.pollCount();
    QCOMPARE(polls, 1);

    // Someone takes r1 on the remote: its card says so at once, and the timeline's event is copied.
    int status = 0;
    remote.relay->hostController(u"r1"_s)->takeLease(u"someone else"_s, std::chrono::seconds(600),
                                                      [&status](const std::optional<HostRefusal> &refused) { status = refused ? refused->status() : 200; });
    QTRY_COMPARE_WITH_TIMEOUT(hosts.index(hosts.rowOf(u"r1"_s)).data(HostTableModel::LeaseOwnerRole).toString(),
                              u"someone else"_s, LiveMs);
    const auto leaseCopied = [&copy] {
        for (const HistoryEvent &e : copy.events(QDateTime(), 0)) {
            if (e.kind == HistoryEvent::Kind::LeaseTaken && e.host == "r1"_L1)
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(leaseCopied(), LiveMs);
    QTRY_COMPARE_WITH_TIMEOUT(status, 200, WaitMs);
    remote.relay->hostController(u"r1"_s)->releaseLease();
    QTRY_COMPARE_WITH_TIMEOUT(hosts.index(hosts.rowOf(u"r1"_s)).data(HostTableModel::LeaseOwnerRole).toString(), QString(), LiveMs);

    // A request made to the remote relay: in the log once finished, without a poll.
    RawHttpClient client(remote.relay->endpoint().port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", R"({"model":"r2-m3","messages":[{"role":"user","content":"hi"}]})"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, WaitMs);
    QCOMPARE(client.responses().first().status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(rowsFor(log, u"r2-m3"_s), 1, LiveMs);
    QTRY_COMPARE_WITH_TIMEOUT(log.liveCount(), 0, LiveMs);   // its row in flight, if it showed, replaced
    QCOMPARE(copiedRequests(copy, u"r2-m3"_s), 1);
    QCOMPARE(feed.pollCount(), polls);   // none of it came from a poll
}

void TstRemoteLive::relayWithoutTheStreamIsPolled()
{
    RelayWithoutStream relay;
    QVERIFY(relay.listen());
    QTemporaryDir dir;
    HistoryStore copy(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(relay.url(), RemoteToken, &copy, std::chrono::milliseconds(200));
    feed.setStreamRetryDelays(std::chrono::milliseconds(100), std::chrono::milliseconds(400));
    QSignalSpy live(&feed, &RemoteRelayFeed::liveChanged);
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(!live.isEmpty(), WaitMs);
    QVERIFY(!feed.isLive());
    QVERIFY2(feed.liveStatus().contains(u"polling every 0.2 s"_s) && feed.liveStatus().contains(u"no live events"_s),
             qPrintable(feed.liveStatus()));
    QVERIFY2(feed.error().isEmpty(), qPrintable(feed.error()));   // the polls are answered: no error
    // It polls on, every 0.2 s...
    QTRY_COMPARE_WITH_TIMEOUT(feed.hosts().size(), 1, WaitMs);
    QCOMPARE(feed.hosts().first().state.host, u"old1"_s);
    const int polls = feed.pollCount();
    QTRY_VERIFY_WITH_TIMEOUT(feed.pollCount() >= polls + 3, WaitMs);
    // ...and asks for the stream again, later each time (0.1 s, 0.2 s, 0.4 s, 0.4 s, ...).
    QTRY_VERIFY_WITH_TIMEOUT(relay.streamAsks() >= 4, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(feed.streamAttempts(), relay.streamAsks(), WaitMs);
    QVERIFY2(feed.liveStatus().contains(u"0.4 s"_s), qPrintable(feed.liveStatus()));
    QVERIFY(!feed.isLive());
}

void TstRemoteLive::windowSaysLiveOrPolling()
{
    GuiFleet local;
    QVERIFY(local.start());
    RemoteRelay remote;
    QVERIFY(remote.start());
    DesktopApp desktop(local.clock, local.runner.get(), local.store.get(), nullptr, nullptr, DesktopApp::Options());
    desktop.start();
    desktop.watchRemote(remote.relay->endpoint(), RemoteToken);
    QTRY_VERIFY_WITH_TIMEOUT(desktop.window()->statusText().contains(u" · live"_s), WaitMs);

    // The relay before the stream: the status says the window polls, and why.
    RelayWithoutStream old;
    QVERIFY(old.listen());
    desktop.watchRemote(old.url(), RemoteToken);
    QTRY_VERIFY_WITH_TIMEOUT(desktop.window()->statusText().contains(u"polling every 2 s"_s), WaitMs);
    QVERIFY2(desktop.window()->statusText().contains(u"no live events"_s), qPrintable(desktop.window()->statusText()));
    QVERIFY(!desktop.window()->statusText().contains(u" · live"_s));
}

void TstRemoteLive::cutStreamCopiesEachRequestOnce()
{
    RemoteRelay remote;
    QVERIFY(remote.start());
    QTemporaryDir dir;
    HistoryStore copy(dir.filePath(u"watched.sqlite"_s), systemClock());
    RemoteRelayFeed feed(remote.relay->endpoint(), RemoteToken, &copy, std::chrono::hours(1));
    feed.setStreamRetryDelays(std::chrono::milliseconds(300), std::chrono::milliseconds(300));
    feed.start();
    QTRY_VERIFY_WITH_TIMEOUT(feed.isLive(), WaitMs);
    recordOn(remote.store.get(), u"live-1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(copiedRequests(copy, u"live-1"_s), 1, LiveMs);

    // The stream is cut (the relay let its watchers go): the window polls at once, the stream back
    // after the retry delay.
    QSignalSpy live(&feed, &RemoteRelayFeed::liveChanged);
    remote.relay->admin()->endStreams();
    QTRY_VERIFY_WITH_TIMEOUT(!feed.isLive(), WaitMs);
    QVERIFY2(feed.liveStatus().contains(u"trying again in 0.3 s"_s), qPrintable(feed.liveStatus()));
    // What happens meanwhile comes by the pages: before the stream is back, or after it, from its hello.
    recordOn(remote.store.get(), u"while-cut"_s);
    recordOn(remote.store.get(), u"while-cut"_s);
    QTRY_VERIFY_WITH_TIMEOUT(feed.isLive(), WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(copiedRequests(copy, u"while-cut"_s), 2, WaitMs);
    recordOn(remote.store.get(), u"live-2"_s);
    QTRY_COMPARE_WITH_TIMEOUT(copiedRequests(copy, u"live-2"_s), 1, LiveMs);

    // Each once, whichever brought it: a poll now copies nothing again.
    QSignalSpy finished(&feed, &RemoteRelayFeed::pollFinished);
    feed.refresh();
    QVERIFY(finished.wait(WaitMs));
    QCOMPARE(copiedRequests(copy, u"live-1"_s), 1);
    QCOMPARE(copiedRequests(copy, u"while-cut"_s), 2);
    QCOMPARE(copiedRequests(copy, u"live-2"_s), 1);
    RequestQuery all;
    all.limit = 0;
    QCOMPARE(copy.requests(all).size(), 4);
}

QTEST_MAIN(TstRemoteLive)
#include "tst_remotelive.moc"
