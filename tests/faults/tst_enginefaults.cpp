// The fault suite (issue 9), faults an engine or its host brings: a crash mid-stream, no answer,
// a hanging connect, a host name, connections closed or dropped, silence. What the client
// receives, what the journal and the store record, and that fds come back.
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

class TestEngineFaults final : public FaultsTestCase
{
    Q_OBJECT

private Q_SLOTS:
    void engineCrashMidStream_data();
    void engineCrashMidStream();
    void unreachableUpstreamAnswers424InTime_data();
    void unreachableUpstreamAnswers424InTime();
    void upstreamConnectThatHangsTimesOut();
    void upstreamHostNameIsLookedUp();
    void closingEngineFindsTheNextConnectionOpen();
    void keepAliveEngineGetsNoSpareConnection();
    void reusedConnectionClosedUnansweredIsRetriedCleanly();
    void spareConnectionIsClosedWhenUnused();
    void spareConnectionTheEngineDroppedIsNotUsed();
    void silentUpstreamIsCutAfterInactivity_data();
    void silentUpstreamIsCutAfterInactivity();
};

// ---- an engine that dies in the middle of a stream ---------------------------------------------

void TestEngineFaults::engineCrashMidStream_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<bool>("wholeEngineDies");
    QTest::newRow("openai, connection cut") << "/v1/chat/completions"_ba << false;
    QTest::newRow("anthropic, connection cut") << "/v1/messages"_ba << false;
    QTest::newRow("openai, engine process gone") << "/v1/chat/completions"_ba << true;
    QTest::newRow("anthropic, engine process gone") << "/v1/messages"_ba << true;
}

void TestEngineFaults::engineCrashMidStream()
{
    QFETCH(QByteArray, path);
    QFETCH(bool, wholeEngineDies);
    const bool anthropic = path == "/v1/messages";
    Recorder recorder;
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    recorder.attach(f.relay.get());
    if (!wholeEngineDies) {
        fake::FakeFailure crash;
        crash.mode = fake::FakeFailure::Mode::CrashMidStream;
        crash.afterEvents = 3;
        f.fake->failNextRequests(1, crash);
    }
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post(path, bodyFor("h1-alpha", 200, true)));
    if (wholeEngineDies) {
        QTRY_VERIFY_WITH_TIMEOUT(client.current() && client.current()->chunkArrivalsMs.size() >= 3, 5000);
        f.fake->close();   // every connection of the engine drops, as when its process is killed
    }
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const auto &r = client.responses().at(0);
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("text/event-stream"));
    // Some tokens, then one error event in the request's shape, then the end of the stream
    // (the chunked terminator: completedResponses() counts only a response that ended).
    QVERIFY2(r.body.contains(anthropic ? "content_block_delta" : "chat.completion.chunk"), r.body.constData());
    QVERIFY(!r.body.contains("[DONE]"));
    const SseEvent last = lastEvent(r.body);
    QCOMPARE(last.event, anthropic ? "error"_ba : QByteArray());
    const QJsonObject error = errorOf(last.data, anthropic);
    QVERIFY2(error.value("message"_L1).toString().contains("broke off"_L1), last.data.constData());
    QCOMPARE(error.value("source"_L1).toString(), u"switchyard"_s);
    QVERIFY(r.body.endsWith("\n\n"));
    QVERIFY(!client.isDisconnected());   // the client's connection survives for its next request

    // Journal and store: the request, its 200, and the relay's own error.
    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
    const QString line = recorder.lines.first();
    QVERIFY2(line.contains(u"POST "_s + QString::fromLatin1(path) + u" model=\"h1-alpha\" host=h1 status=200"_s), qPrintable(line));
    QVERIFY2(line.contains("err=\"connection closed in the middle of the body\""_L1), qPrintable(line));
    const QList<RequestRecord> rows = recorder.rows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().status, 200);
    QCOMPARE(rows.first().relayError, u"connection closed in the middle of the body"_s);
    QCOMPARE(f.relay->relay()->requestsInFlight(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(f.relay->server()->pendingOutputBytes(), 0, 3000);
}

// ---- nothing to talk to -----------------------------------------------------------------------

void TestEngineFaults::unreachableUpstreamAnswers424InTime_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("host unreachable") << u"closed-port"_s << "/v1/chat/completions"_ba;
    QTest::newRow("dns name does not resolve") << u"dns"_s << "/v1/messages"_ba;
    QTest::newRow("agent down") << u"agent-down"_s << "/v1/chat/completions"_ba;
    QTest::newRow("agent answering garbage") << u"agent-garbage"_s << "/v1/messages"_ba;
}

void TestEngineFaults::upstreamConnectThatHangsTimesOut()
{
    // A listener whose accept queue is full: the kernel drops the SYN, so connect() neither
    // succeeds nor fails, as with a box that went away mid-route.
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    QVERIFY(listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr *>(&address), length) == 0);
    QVERIFY(::listen(listener, 0) == 0);   // room for one connection
    QVERIFY(::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length) == 0);
    const quint16 port = ntohs(address.sin_port);
    QTcpSocket filler;
    filler.connectToHost(QHostAddress::LocalHost, port);
    QTRY_COMPARE_WITH_TIMEOUT(filler.state(), QAbstractSocket::ConnectedState, 3000);

    UpstreamPool pool;
    UpstreamExchange::Request request;
    request.base = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    request.connectTimeout = 300ms;
    UpstreamExchange exchange(&pool, request);
    QSignalSpy failed(&exchange, &UpstreamExchange::failed);
    QElapsedTimer clock;
    clock.start();
    exchange.start();
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(0).value<UpstreamExchange::Failure>(), UpstreamExchange::Failure::ConnectTimeout);
    QCOMPARE(failed.at(0).at(1).toString(), u"no connection within 0.3 s"_s);
    QVERIFY2(clock.elapsed() >= 250, qPrintable(QString::number(clock.elapsed())));
    filler.abort();
    ::close(listener);
}

void TestEngineFaults::upstreamHostNameIsLookedUp()
{
    QTcpServer engine;
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    connect(&engine, &QTcpServer::newConnection, this, [&engine] {
        while (QTcpSocket *s = engine.nextPendingConnection()) {
            connect(s, &QTcpSocket::readyRead, s, [s] {
                if (!s->readAll().contains("\r\n\r\n"))
                    return;
                s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                s->disconnectFromHost();
            });
            connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        }
    });
    UpstreamPool pool;
    UpstreamExchange::Request request;
    request.base = QUrl(u"http://localhost:%1"_s.arg(engine.serverPort()));
    UpstreamExchange exchange(&pool, request);
    QByteArray body;
    connect(&exchange, &UpstreamExchange::bodyData, this, [&body](const QByteArray &data) { body += data; });
    QSignalSpy finished(&exchange, &UpstreamExchange::finished);
    QSignalSpy failed(&exchange, &UpstreamExchange::failed);
    exchange.start();
    QVERIFY(finished.wait(5000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(exchange.status(), 200);
    QCOMPARE(body, QByteArray("ok"));
}

// llama-server closes the connection after every completion: the pool opens the next one while
// the client still reads, so the next request does not wait for a TCP handshake.
void TestEngineFaults::closingEngineFindsTheNextConnectionOpen()
{
    CountingEngine engine(false);
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.accepted, 2, 3000);   // the one used, and one ahead
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QCOMPARE(engine.servedOn, (QList<int>{0, 1}));         // the second came on the one ahead
    QTRY_COMPARE_WITH_TIMEOUT(engine.accepted, 3, 3000);
}

void TestEngineFaults::keepAliveEngineGetsNoSpareConnection()
{
    CountingEngine engine(true);
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    // A spare would have been accepted while the second request went round.
    QCOMPARE(engine.servedOn, (QList<int>{0, 0}));
    QCOMPARE(engine.accepted, 1);
}

// Found by tst_relayinvariants: the retry on a fresh connection kept the parser's error from the
// closed one, and answered the engine's good response as a 502.
void TestEngineFaults::reusedConnectionClosedUnansweredIsRetriedCleanly()
{
    CountingEngine engine(true);
    engine.closeReusedFirst = true;
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QCOMPARE(engine.servedOn, (QList<int>{0, 1}));
}

void TestEngineFaults::spareConnectionIsClosedWhenUnused()
{
    CountingEngine engine(false);
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    pool.setIdleTimeout(200ms);
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.accepted, 2, 3000);
    QCOMPARE(engine.closed, 1);                                // the used one, closed by the engine
    QTRY_COMPARE_WITH_TIMEOUT(engine.closed, 2, 3000);         // the spare, closed by the pool
    QCOMPARE(engine.accepted, 2);
}

void TestEngineFaults::spareConnectionTheEngineDroppedIsNotUsed()
{
    CountingEngine engine(false, 1);   // connection 1, the spare, is closed at once
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.closed, 2, 3000);
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QCOMPARE(engine.servedOn, (QList<int>{0, 2}));
}

void TestEngineFaults::unreachableUpstreamAnswers424InTime()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, path);
    const bool anthropic = path == "/v1/messages";
    // Something that answers the agent's port with bytes that are not HTTP.
    QTcpServer garbage;
    QVERIFY(garbage.listen(QHostAddress::LocalHost, 0));
    connect(&garbage, &QTcpServer::newConnection, this, [&garbage] {
        while (QTcpSocket *s = garbage.nextPendingConnection()) {
            connect(s, &QTcpSocket::readyRead, s, [s] {
                s->readAll();
                s->write("\x16\x03\x01 this is not HTTP\r\n\r\n");
                s->disconnectFromHost();
            });
            connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        }
    });
    const QString closedUrl = u"http://127.0.0.1:%1"_s.arg(portForLater());
    QJsonObject host;
    if (kind == "closed-port"_L1) {
        host = QJsonObject{{"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{{"url"_L1, closedUrl}}}}}};
    } else if (kind == "dns"_L1) {
        host = QJsonObject{{"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{{"url"_L1, u"http://switchyard-no-such-host.invalid:8080"_s}}}}}};
    } else {
        const QString agent = kind == "agent-down"_L1 ? u"http://127.0.0.1:%1"_s.arg(portForLater())
                                                      : u"http://127.0.0.1:%1"_s.arg(garbage.serverPort());
        host = QJsonObject{{"driver"_L1, "agent"_L1}, {"agent"_L1, agent},
                           {"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{{"url"_L1, closedUrl},
                                                                              {"models"_L1, QJsonArray{u"alpha"_s}}}}}}};
    }
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"hosts"_L1, QJsonObject{{"h1"_L1, host}}},
                           {"limits"_L1, QJsonObject{{"upstream_connect_timeout_s"_L1, 2}}}};
    const ConfigResult config = ConfigLoader::parse(QJsonDocument(root).toJson(), u"faults.json"_s);
    QVERIFY2(config.ok(), config.errors.isEmpty() ? "" : qPrintable(config.errors.first().toString()));
    Recorder recorder;
    RelayService relay(*config.config, RelayService::standardDrivers(*config.config));
    recorder.attach(&relay);
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));

    RawHttpClient client(relay.endpoint().port());
    QVERIFY(client.connectToServer());
    QElapsedTimer clock;
    clock.start();
    client.send(RawHttpClient::post(path, bodyFor("h1-alpha", 4, false)));
    // Within the connect timeout (2 s) and some slack for a loaded machine: never a hang.
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 8000);
    const qint64 took = clock.elapsed();
    const auto &r = client.responses().at(0);
    QVERIFY2(r.status == 424, qPrintable(u"%1 %2"_s.arg(r.status).arg(QString::fromUtf8(r.body))));
    QVERIFY2(took < 2000 + 3000, qPrintable(u"answered after %1 ms"_s.arg(took)));
    QCOMPARE(r.header("x-should-retry"), "false"_ba);
    const QJsonObject e = errorOf(r.body, anthropic);
    QVERIFY2(!e.isEmpty(), r.body.constData());
    QVERIFY2(e.value("message"_L1).toString().contains("h1"_L1), r.body.constData());
    QCOMPARE(e.value("type"_L1).toString(), u"failed_dependency_error"_s);

    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
    QVERIFY2(recorder.lines.first().contains("status=424"_L1) && recorder.lines.first().contains(" err=\""_L1),
             qPrintable(recorder.lines.first()));
    const QList<RequestRecord> rows = recorder.rows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().status, 424);
    QVERIFY(!rows.first().relayError.isEmpty());
}

// ---- an engine that goes silent ---------------------------------------------------------------

void TestEngineFaults::silentUpstreamIsCutAfterInactivity_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<int>("prefillMs");       // silence before the first token (0: headers, then a stall)
    QTest::addColumn<int>("pingMs");          // ':' pings during that silence (0: none)
    QTest::addColumn<bool>("expectCut");
    // Inactivity limit 800 ms in every row.
    QTest::newRow("stream stalls after headers, openai") << "/v1/chat/completions"_ba << true << 0 << 0 << true;
    QTest::newRow("stream stalls after headers, anthropic") << "/v1/messages"_ba << true << 0 << 0 << true;
    QTest::newRow("silent before headers, openai") << "/v1/chat/completions"_ba << false << 5000 << 0 << true;
    QTest::newRow("silent before headers, anthropic") << "/v1/messages"_ba << false << 5000 << 0 << true;
    QTest::newRow("long prefill with pings is not cut") << "/v1/chat/completions"_ba << true << 2500 << 200 << false;
    QTest::newRow("long prefill without pings is cut") << "/v1/chat/completions"_ba << true << 2500 << 0 << true;
    QTest::newRow("slow first token within the limit") << "/v1/messages"_ba << false << 400 << 0 << false;
}

void TestEngineFaults::silentUpstreamIsCutAfterInactivity()
{
    QFETCH(QByteArray, path);
    QFETCH(bool, stream);
    QFETCH(int, prefillMs);
    QFETCH(int, pingMs);
    QFETCH(bool, expectCut);
    const bool anthropic = path == "/v1/messages";
    static constexpr int LimitMs = 800;
    fake::FakeOptions options = routerOptions(200);
    options.prefillDelay = std::chrono::milliseconds(prefillMs);
    options.pingInterval = std::chrono::milliseconds(pingMs);
    Recorder recorder;
    RelayFixture f;
    QVERIFY(f.start(options, [](Config &c) { c.limits.upstreamInactivityTimeout = std::chrono::milliseconds(LimitMs); }));
    recorder.attach(f.relay.get());
    if (prefillMs == 0)
        f.fake->failNextRequests(1, fake::FakeFailure::Mode::Stall);
    QSignalSpy cancelled(f.fake.get(), &fake::FakeLlamaServer::requestCancelled);

    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    const qint64 sentAt = client.nowMs();
    client.send(RawHttpClient::post(path, bodyFor("h1-alpha", 5, stream)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    const auto &r = client.responses().at(0);
    const qint64 answeredAt = r.completedAtMs - sentAt;

    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
    const QString line = recorder.lines.first();
    const QList<RequestRecord> rows = recorder.rows();
    QCOMPARE(rows.size(), 1);
    if (!expectCut) {
        QCOMPARE(r.status, 200);
        if (stream)
            QVERIFY2(r.body.endsWith("data: [DONE]\n\n"), r.body.right(300).constData());
        else
            QVERIFY2(QJsonDocument::fromJson(r.body).isObject() && !r.body.contains("\"error\""), r.body.constData());
        QVERIFY2(answeredAt >= prefillMs, qPrintable(QString::number(answeredAt)));
        QVERIFY2(!line.contains(" err="_L1), qPrintable(line));
        QVERIFY(rows.first().relayError.isEmpty());
        return;
    }
    // Cut after the limit, not before, and not much later (generous for a loaded machine).
    QVERIFY2(answeredAt >= LimitMs - 50 && answeredAt < LimitMs + 4000, qPrintable(QString::number(answeredAt)));
    QVERIFY2(line.contains("sent nothing for 0.8 s"_L1), qPrintable(line));
    QVERIFY2(rows.first().relayError.contains("sent nothing"_L1), qPrintable(rows.first().relayError));
    if (stream) {
        // The engine's 200 and stream head are out: an error event in the request's shape, then the end.
        QCOMPARE(r.status, 200);
        const SseEvent last = lastEvent(r.body);
        QCOMPARE(last.event, anthropic ? "error"_ba : QByteArray());
        const QJsonObject e = errorOf(last.data, anthropic);
        QVERIFY2(e.value("message"_L1).toString().contains("sent nothing for 0.8 s"_L1), last.data.constData());
        QVERIFY(!r.body.contains("[DONE]"));
        QVERIFY2(line.contains("status=200"_L1), qPrintable(line));
    } else {
        // Nothing was sent yet: the relay's own 424 (a retry would meet the same hung engine).
        QCOMPARE(r.status, 424);
        QCOMPARE(r.header("x-should-retry"), "false"_ba);
        const QJsonObject e = errorOf(r.body, anthropic);
        QVERIFY2(e.value("message"_L1).toString().contains("stopped answering"_L1), r.body.constData());
        QVERIFY2(line.contains("status=424"_L1), qPrintable(line));
        QCOMPARE(rows.first().status, 424);
    }
    // The engine heard about it: its request was cancelled, and it generates for nobody.
    QTRY_VERIFY_WITH_TIMEOUT(cancelled.size() >= 1 || f.fake->activeGenerations() == 0, 3000);
    QTRY_COMPARE_WITH_TIMEOUT(f.fake->activeGenerations(), 0, 3000);
}

QTEST_GUILESS_MAIN(TestEngineFaults)

#include "tst_enginefaults.moc"
