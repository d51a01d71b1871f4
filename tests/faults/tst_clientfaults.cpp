// The fault suite (issue 9), faults a client brings: a slow reader, slowloris and idle
// connections, bad input. What the client receives, and that fds and buffers come back.
#include "laterport.h"
#include "rawhttpclient.h"
#include "relayfixture.h"
#include "slowreader.h"

#include "app/commandline.h"
#include "app/configreloader.h"
#include "http/httpserver.h"
#include "journal/journalformat.h"
#include "relay/relay.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"
#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <memory>

#include "faultstestcase.h"
#include "faultstesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace faultstest;

class TestClientFaults final : public FaultsTestCase
{
    Q_OBJECT

private Q_SLOTS:
    void slowReaderIsBoundedAndOthersGoOn();
    void slowlorisAndIdleConnectionsAreClosed();
    void badInputGets4xxInShape_data();
    void badInputGets4xxInShape();
};

// ---- a client that reads slowly ---------------------------------------------------------------

void TestClientFaults::slowReaderIsBoundedAndOthersGoOn()
{
    Recorder recorder;
    RelayFixture f;
    fake::FakeOptions fast = routerOptions(20000);   // an engine far faster than the client reads (MB/s)
    fast.contextSize = 4'000'000;                     // and with room for a long answer
    // An inactivity limit far shorter than the time the relay keeps the engine paused: the
    // engine's silence while we do not read is ours, and must not cut the stream.
    QVERIFY(f.start(fast, [](Config &c) { c.limits.upstreamInactivityTimeout = 1s; }));
    recorder.attach(f.relay.get());
    const ServerLimits limits;   // the relay's watermarks (defaults; not configurable)

    SlowReader slow(f.port(), 1024, 50ms);   // ~20 KB/s
    QVERIFY(slow.connectAndSend(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 2000000, true))));
    // The kernel buffers a loopback connection up to megabytes (tcp_wmem autotuning); they are
    // not the relay's memory. Shrink the relay's send buffer for this client, as a slow link
    // would, so what the relay itself holds shows at once.
    const auto relaySideOf = [&f](quint16 clientPort) -> QTcpSocket * {
        for (QTcpSocket *s : f.relay->server()->findChildren<QTcpSocket *>()) {
            if (s->peerPort() == clientPort)
                return s;
        }
        return nullptr;
    };
    QTRY_VERIFY_WITH_TIMEOUT(relaySideOf(slow.localPort()), 5000);
    QTcpSocket *relaySide = relaySideOf(slow.localPort());
    const int sndbuf = 16 * 1024;
    QCOMPARE(::setsockopt(int(relaySide->socketDescriptor()), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf), 0);
    qint64 maxPending = 0;
    QTimer sampler;
    connect(&sampler, &QTimer::timeout, this, [&] {
        maxPending = std::max(maxPending, f.relay->server()->pendingOutputBytes());
    });
    sampler.start(10);

    // While the slow stream is congested, another client's stream runs normally.
    QTRY_VERIFY2_WITH_TIMEOUT(maxPending >= limits.writeLowWatermark,
                              qPrintable(u"relay held at most %1 bytes; the client read %2"_s.arg(maxPending).arg(slow.received())),
                              10000);
    RawHttpClient other(f.port());
    QVERIFY(other.connectToServer());
    const qint64 otherSent = other.nowMs();
    other.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 50, true)));
    QTRY_COMPARE_WITH_TIMEOUT(other.completedResponses(), 1, 10000);
    QCOMPARE(other.responses().at(0).status, 200);
    QVERIFY(other.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QVERIFY2(other.responses().at(0).completedAtMs - otherSent < 3000,
             qPrintable(QString::number(other.responses().at(0).completedAtMs - otherSent)));

    // Two more seconds of the engine producing megabytes a second: the relay's buffer stays bounded by its
    // high watermark plus at most one upstream read (256 KiB), whatever the engine sends.
    QTest::qWait(2000);   // a span to observe, not a wait for a condition
    sampler.stop();
    QVERIFY2(maxPending <= limits.writeHighWatermark + 256 * 1024 + 64 * 1024,
             qPrintable(u"relay held %1 bytes for the slow client"_s.arg(maxPending)));
    QVERIFY(slow.received() > 0);
    QVERIFY(slow.data().startsWith("HTTP/1.1 200 OK\r\n"));
    QCOMPARE(recorder.lines.size(), 1);   // only the other client's: the slow stream still runs

    // The slow client leaves: the engine stops, the relay's buffer for it is gone.
    QSignalSpy cancelled(f.fake.get(), &fake::FakeLlamaServer::requestCancelled);
    slow.close();
    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 2, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->server()->pendingOutputBytes(), 0, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!cancelled.isEmpty(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(f.fake->activeGenerations(), 0, 3000);
    QVERIFY2(recorder.lines.join(u'\n').contains("err=\"client closed the connection\""_L1), qPrintable(recorder.lines.join(u'\n')));
}

// ---- slowloris and idle connections ------------------------------------------------------------

void TestClientFaults::slowlorisAndIdleConnectionsAreClosed()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) {
        c.limits.headerTimeout = 500ms;
        c.limits.clientIdleTimeout = 500ms;
    }));
    Recorder recorder;
    recorder.attach(f.relay.get());
    // Headers dribbled one byte every 100 ms, never finished.
    RawHttpClient loris(f.port());
    QVERIFY(loris.connectToServer());
    const QByteArray head = "POST /v1/messages HTTP/1.1\r\nHost: relay\r\nX-Padding: " + QByteArray(200, 'a');
    qsizetype sent = 0;
    QTimer dribble;
    connect(&dribble, &QTimer::timeout, this, [&] {
        if (sent < head.size() && !loris.isDisconnected())
            loris.send(head.mid(sent++, 1));
    });
    const qint64 startedAt = loris.nowMs();
    dribble.start(100);
    // Idle connections: one that never sends anything, one that goes quiet after a request.
    std::vector<std::unique_ptr<RawHttpClient>> idle;
    for (int i = 0; i < 10; ++i) {
        idle.push_back(std::make_unique<RawHttpClient>(f.port()));
        QVERIFY(idle.back()->connectToServer());
        if (i % 2)
            idle.back()->send(RawHttpClient::get("/health"));
    }
    QTRY_VERIFY_WITH_TIMEOUT(f.relay->server()->openConnections() >= 11, 3000);

    QTRY_VERIFY_WITH_TIMEOUT(loris.isDisconnected(), 5000);
    dribble.stop();
    const qint64 closedAfter = loris.disconnectedAtMs() - startedAt;
    QVERIFY2(closedAfter >= 450 && closedAfter < 4000, qPrintable(QString::number(closedAfter)));
    QVERIFY(sent < head.size());   // cut while still dribbling
    QCOMPARE(loris.completedResponses(), 1);
    QCOMPARE(loris.responses().at(0).status, 408);
    QCOMPARE(loris.responses().at(0).header("x-should-retry"), "false"_ba);
    QVERIFY(QJsonDocument::fromJson(loris.responses().at(0).body).object().contains("error"_L1));
    // The journal has the 408 too, though no method or path was read.
    QTRY_VERIFY_WITH_TIMEOUT(recorder.lines.join(u'\n').contains("status=408"_L1), 3000);
    const QString loris408 = recorder.lines.filter(u"status=408"_s).first();
    QVERIFY2(loris408.startsWith(QDate::currentDate().toString(u"yyyy/MM/dd"_s)) && loris408.contains("- - model=\"\""_L1)
                 && loris408.contains("err=\"request not received in time\""_L1), qPrintable(loris408));

    for (const auto &c : idle)
        QTRY_VERIFY_WITH_TIMEOUT(c->isDisconnected(), 5000);
    for (int i = 1; i < 10; i += 2) {
        QCOMPARE(idle.at(i)->completedResponses(), 1);
        QCOMPARE(idle.at(i)->responses().at(0).status, 200);
    }
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->server()->openConnections(), 0, 5000);
}

// ---- bad input ---------------------------------------------------------------------------------

void TestClientFaults::badInputGets4xxInShape_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");   // a part of the error's message
    auto post = [](const QByteArray &path, const QByteArray &body) { return RawHttpClient::post(path, body); };
    for (const QByteArray &path : {"/v1/chat/completions"_ba, "/v1/messages"_ba}) {
        const bool a = path == "/v1/messages";
        const QByteArray tag = a ? " (anthropic)" : " (openai)";
        QTest::addRow("malformed json%s", tag.constData()) << post(path, R"({"model": "h1-alpha", "messages": [)") << a << 400
                                              << u"not a JSON object"_s;
        QTest::addRow("missing model%s", tag.constData()) << post(path, R"({"messages": []})") << a << 400 << u"model name is missing"_s;
        QTest::addRow("model of wrong type%s", tag.constData()) << post(path, R"({"model": ["h1-alpha"]})") << a << 400
                                                   << u"\"model\" must be a string"_s;
        QTest::addRow("body is an array%s", tag.constData()) << post(path, R"([{"model": "h1-alpha"}])") << a << 400
                                                << u"not a JSON object"_s;
        // JSON is UTF-8 (RFC 8259): a body that is not is not JSON.
        QTest::addRow("invalid utf-8 in model%s", tag.constData()) << post(path, "{\"model\": \"h1-al\xff\xfepha\"}") << a << 400
                                                      << u"not a JSON object"_s;
        QTest::addRow("header injection in model%s", tag.constData())
            << post(path, R"({"model": "h1-alpha\r\nX-Injected: yes\r\n\r\nHTTP/1.1 200 OK"})") << a << 404
            << u"not found"_s;
        QTest::addRow("10 MB body%s", tag.constData())
            << post(path, R"({"model": "h1-alpha", "pad": ")" + QByteArray(10 * 1024 * 1024, 'x') + "\"}") << a << 413
            << u"over the limit"_s;
    }
    QTest::newRow("header injection in query")
        << RawHttpClient::get("/props?model=h1-alpha%0D%0AX-Injected:%20yes") << false << 404 << u"not found"_s;
}

void TestClientFaults::badInputGets4xxInShape()
{
    QFETCH(QByteArray, request);
    QFETCH(bool, anthropic);
    QFETCH(int, status);
    QFETCH(QString, message);
    Recorder recorder;
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    recorder.attach(f.relay.get());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(request);
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("x-should-retry"), "false"_ba);
    QVERIFY(r.header("content-type").startsWith("application/json"));
    const QJsonObject e = errorOf(r.body, anthropic);
    QVERIFY2(!e.isEmpty(), r.body.constData());
    QVERIFY2(e.value("message"_L1).toString().contains(message), r.body.constData());
    QCOMPARE(e.value("source"_L1).toString(), u"switchyard"_s);
    // Whatever the model's name, the response head is the relay's: no header it did not write.
    const QByteArray raw = client.rawReceived();
    const QByteArray responseHead = raw.left(raw.indexOf("\r\n\r\n"));
    QVERIFY2(!responseHead.contains("X-Injected"), responseHead.constData());
    for (const auto &h : r.headers)
        QVERIFY2(!h.first.contains("Injected") && !h.second.contains("Injected"), h.first.constData());
    QVERIFY(f.receivedOn("/v1/chat/completions").isEmpty() && f.receivedOn("/v1/messages").isEmpty());

    if (status == 413) {
        // Refused while reading it, before the body came: journaled and stored all the same, with
        // what was read (method, path, client) and the reason.
        QTRY_VERIFY_WITH_TIMEOUT(client.isDisconnected(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
        const QString line = recorder.lines.first();
        QVERIFY2(line.contains(u"POST %1 "_s.arg(anthropic ? u"/v1/messages"_s : u"/v1/chat/completions"_s)), qPrintable(line));
        QVERIFY2(line.contains("status=413"_L1) && line.contains("err=\"request body of"_L1), qPrintable(line));
        const QList<RequestRecord> rows = recorder.rows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().status, 413);
        return;
    }
    // One journal line, on one line, with the model escaped as Go's %q writes it.
    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
    const QString line = recorder.lines.first();
    QVERIFY2(!line.contains(u'\r') && !line.contains(u'\n'), qPrintable(line));
    QVERIFY2(line.contains(u"status=%1"_s.arg(status)), qPrintable(line));
    if (request.contains("X-Injected"))
        QVERIFY2(line.contains("model=\"h1-alpha\\r\\nX-Injected: yes"_L1), qPrintable(line));
    for (const QChar c : line)
        QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x7f, qPrintable(line));
    const QList<RequestRecord> rows = recorder.rows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().status, status);
}

QTEST_GUILESS_MAIN(TestClientFaults)

#include "tst_clientfaults.moc"
