// The fault suite (issue 9): engines that crash, stall or answer garbage, hosts that cannot be
// reached, slow and malicious clients, broken config files and SIGTERM. Each case checks what the
// client receives, what the journal and the store record, and (in cleanup()) that the test
// process's open file descriptors come back to where they were: the relay runs in-process here,
// so a leaked socket of the relay is a leaked fd of this process.
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

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// Open fds of this process, but for eventfds: those are the wake-ups of Qt's worker threads
// (a host name lookup runs in a pool thread that lives on for 30 s), not anything of the relay.
int openFds()
{
    int count = 0;
    const QDir dir(u"/proc/self/fd"_s);
    for (const QString &fd : dir.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
        if (!QFile::symLinkTarget(dir.filePath(fd)).endsWith("anon_inode:[eventfd]"_L1))
            ++count;
    }
    return count;
}

// What the open fds are ("socket:[123]", "/tmp/x/history.sqlite"), for a failure message.
QStringList fdTargets()
{
    QStringList out;
    const QDir dir(u"/proc/self/fd"_s);
    for (const QString &fd : dir.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot))
        out.append(fd + u'=' + QFile::symLinkTarget(dir.filePath(fd)));
    return out;
}

QString binary(const QString &name)
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u'/' + name;
}

// The real `switchyard --headless` on a config file, with settings and data of its own under
// dir and its journal (stdout) collected; killed if the test ends with it still running.
struct HeadlessRelay
{
    QProcess process;
    QByteArray output;

    bool start(const QString &configPath, const QTemporaryDir &dir)
    {
        process.setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_HOME"_s, dir.filePath(u"data"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, dir.filePath(u"config"_s));
        process.setProcessEnvironment(env);
        QObject::connect(&process, &QProcess::readyRead, &process, [this] { output += process.readAll(); });
        process.start(binary(u"switchyard"_s), {u"--headless"_s, u"--config"_s, configPath});
        if (!process.waitForStarted(5000))
            return false;
        // Either it says it listens, or it exited (a bad config): then output says why.
        return QTest::qWaitFor([this] { return output.contains("listening on") || process.state() != QProcess::Running; }, 10000)
            && process.state() == QProcess::Running;
    }

    ~HeadlessRelay()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

fake::FakeOptions routerOptions(double tokensPerSecond = 200)
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s, u"beta"_s};
    o.loaded = {u"alpha"_s};
    o.loadDelay = 100ms;
    o.tokensPerSecond = tokensPerSecond;
    return o;
}

// A request body both APIs read: chat completions and Anthropic messages alike.
QByteArray bodyFor(const QByteArray &model, int maxTokens, bool stream)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)"
        + QByteArray::number(maxTokens) + (stream ? R"(,"stream":true})" : "}");
}

// The error object of a JSON error body, in either shape; empty when the body is neither.
QJsonObject errorOf(const QByteArray &body, bool anthropic)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (anthropic && o.value("type"_L1).toString() != "error"_L1)
        return {};
    return o.value("error"_L1).toObject();
}

// The last SSE event of a stream: its "event:" name (empty for none) and its data.
struct SseEvent
{
    QByteArray event;
    QByteArray data;
};

SseEvent lastEvent(const QByteArray &sse)
{
    SseEvent last;
    const QList<QByteArray> events = sse.trimmed().split('\n');
    SseEvent current;
    for (const QByteArray &line : events) {
        if (line.startsWith("event: "))
            current.event = line.mid(7);
        else if (line.startsWith("data: ")) {
            current.data = line.mid(6);
            last = current;
            current = SseEvent();
        }
    }
    return last;
}

// The journal lines and the store of one relay, as the application wires them.
struct Recorder
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<HistoryStore> store;
    QStringList lines;

    void attach(RelayService *relay)
    {
        store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
        relay->setHistory(store.get());
        QObject::connect(relay->relay(), &Relay::requestFinished, relay->relay(),
                         [this](const RequestRecord &r) { lines.append(JournalFormat::requestLine(r)); });
    }
    QList<RequestRecord> rows()
    {
        store->sync();
        return store->requests(RequestQuery());
    }
};

bool processGone(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) == "Z";   // a zombie has exited; only its parent has not reaped it
}

// The pid of the fake engine listening on this port, started by the relay, or 0.
qint64 enginePid(quint16 port)
{
    const QByteArray needle = "--port\0"_ba + QByteArray::number(port) + '\0';
    const QStringList pids = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool ok = false;
        const qint64 n = pid.toLongLong(&ok);
        if (!ok)
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray args = cmdline.readAll();
        if (args.contains("switchyard-fakellama") && args.contains(needle) && !processGone(n))
            return n;
    }
    return 0;
}


// An engine that answers every request with "ok" and notes which of its connections (numbered
// as accepted) carried it. Like llama-server after a completion it closes each connection after
// its answer, unless told to keep it; it can also drop one connection as soon as it is accepted.
class CountingEngine : public QTcpServer
{
public:
    explicit CountingEngine(bool keepAlive, int dropOnAccept = -1)
        : m_keepAlive(keepAlive)
        , m_dropOnAccept(dropOnAccept)
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                const int index = accepted++;
                connect(s, &QTcpSocket::disconnected, s, [this, s] {
                    ++closed;
                    s->deleteLater();
                });
                if (index == m_dropOnAccept) {
                    s->disconnectFromHost();
                    continue;
                }
                connect(s, &QTcpSocket::readyRead, s, [this, s, index] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    if (index == 0 && closeReusedFirst && servedOn.contains(0)) {
                        // Its keep-alive ran out just as the next request came: closed unanswered.
                        closeReusedFirst = false;
                        s->disconnectFromHost();
                        return;
                    }
                    servedOn.append(index);
                    s->write(m_keepAlive ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                         : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    if (!m_keepAlive)
                        s->disconnectFromHost();
                });
            }
        });
    }

    int accepted = 0;
    int closed = 0;
    QList<int> servedOn;   // per request, the connection it came on
    bool closeReusedFirst = false;   // the second request on connection 0 gets no answer

private:
    bool m_keepAlive;
    int m_dropOnAccept;
};

// One request through the pool; true when it got the engine's "ok".
bool exchangeOk(UpstreamPool &pool, quint16 port)
{
    UpstreamExchange::Request request;
    request.base = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    UpstreamExchange exchange(&pool, request);
    QByteArray body;
    QObject::connect(&exchange, &UpstreamExchange::bodyData, &exchange, [&body](const QByteArray &data) { body += data; });
    QSignalSpy finished(&exchange, &UpstreamExchange::finished);
    QSignalSpy failed(&exchange, &UpstreamExchange::failed);
    exchange.start();
    if (!finished.wait(5000) || !failed.isEmpty()) {
        qWarning() << "exchange did not finish:" << failed;
        return false;
    }
    return exchange.status() == 200 && body == "ok";
}

} // namespace

class TestFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

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
    void slowReaderIsBoundedAndOthersGoOn();
    void slowlorisAndIdleConnectionsAreClosed();
    void badInputGets4xxInShape_data();
    void badInputGets4xxInShape();
    void brokenConfigOnReloadKeepsTheRunningOne_data();
    void brokenConfigOnReloadKeepsTheRunningOne();
    void sigtermLetsStreamsFinishAndOrphansNoEngine();
    void sighupReloadsHeadlessAndRefusesABrokenFile();

private:
    int m_fdsBefore = 0;
    QStringList m_fdTargetsBefore;
};

void TestFaults::initTestCase()
{
    QVERIFY2(QFile::exists(binary(u"switchyard-fakellama"_s)), qPrintable(binary(u"switchyard-fakellama"_s)));
    QVERIFY2(QFile::exists(binary(u"switchyard"_s)), qPrintable(binary(u"switchyard"_s)));
    // Warm-up: the first relay, store and request open what the process keeps for good (Qt's
    // network and SQL plugins, the event dispatcher's fds), so the per-case baseline is true.
    Recorder recorder;
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    recorder.attach(f.relay.get());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 3, true)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
    QCOMPARE(recorder.rows().size(), 1);
}

void TestFaults::init()
{
    QTest::qWait(0);   // let deferred deletes of the previous case run first
    m_fdsBefore = openFds();
    m_fdTargetsBefore = fdTargets();
}

void TestFaults::cleanup()
{
    // Everything of the case is gone (its locals are destroyed); sockets closed with
    // deleteLater go at the next event loop turns.
    QTRY_VERIFY2_WITH_TIMEOUT(openFds() <= m_fdsBefore,
                              qPrintable(u"%1 fds open after the case, %2 before; before: %3; after: %4"_s
                                             .arg(openFds()).arg(m_fdsBefore)
                                             .arg(m_fdTargetsBefore.join(u' '), fdTargets().join(u' '))),
                              5000);
}

// ---- an engine that dies in the middle of a stream ---------------------------------------------

void TestFaults::engineCrashMidStream_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<bool>("wholeEngineDies");
    QTest::newRow("openai, connection cut") << "/v1/chat/completions"_ba << false;
    QTest::newRow("anthropic, connection cut") << "/v1/messages"_ba << false;
    QTest::newRow("openai, engine process gone") << "/v1/chat/completions"_ba << true;
    QTest::newRow("anthropic, engine process gone") << "/v1/messages"_ba << true;
}

void TestFaults::engineCrashMidStream()
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

void TestFaults::unreachableUpstreamAnswers424InTime_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("host unreachable") << u"closed-port"_s << "/v1/chat/completions"_ba;
    QTest::newRow("dns name does not resolve") << u"dns"_s << "/v1/messages"_ba;
    QTest::newRow("agent down") << u"agent-down"_s << "/v1/chat/completions"_ba;
    QTest::newRow("agent answering garbage") << u"agent-garbage"_s << "/v1/messages"_ba;
}

void TestFaults::upstreamConnectThatHangsTimesOut()
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

void TestFaults::upstreamHostNameIsLookedUp()
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
void TestFaults::closingEngineFindsTheNextConnectionOpen()
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

void TestFaults::keepAliveEngineGetsNoSpareConnection()
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
void TestFaults::reusedConnectionClosedUnansweredIsRetriedCleanly()
{
    CountingEngine engine(true);
    engine.closeReusedFirst = true;
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QCOMPARE(engine.servedOn, (QList<int>{0, 1}));
}

void TestFaults::spareConnectionIsClosedWhenUnused()
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

void TestFaults::spareConnectionTheEngineDroppedIsNotUsed()
{
    CountingEngine engine(false, 1);   // connection 1, the spare, is closed at once
    QVERIFY(engine.listen(QHostAddress::LocalHost, 0));
    UpstreamPool pool;
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QTRY_COMPARE_WITH_TIMEOUT(engine.closed, 2, 3000);
    QVERIFY(exchangeOk(pool, engine.serverPort()));
    QCOMPARE(engine.servedOn, (QList<int>{0, 2}));
}

void TestFaults::unreachableUpstreamAnswers424InTime()
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
    QCOMPARE(e.value("type"_L1).toString(), anthropic ? u"api_error"_s : u"unavailable_error"_s);

    QTRY_COMPARE_WITH_TIMEOUT(recorder.lines.size(), 1, 3000);
    QVERIFY2(recorder.lines.first().contains("status=424"_L1) && recorder.lines.first().contains(" err=\""_L1),
             qPrintable(recorder.lines.first()));
    const QList<RequestRecord> rows = recorder.rows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().status, 424);
    QVERIFY(!rows.first().relayError.isEmpty());
}

// ---- an engine that goes silent ---------------------------------------------------------------

void TestFaults::silentUpstreamIsCutAfterInactivity_data()
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

void TestFaults::silentUpstreamIsCutAfterInactivity()
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

// ---- a client that reads slowly ---------------------------------------------------------------

void TestFaults::slowReaderIsBoundedAndOthersGoOn()
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

void TestFaults::slowlorisAndIdleConnectionsAreClosed()
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

void TestFaults::badInputGets4xxInShape_data()
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

void TestFaults::badInputGets4xxInShape()
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

// ---- config reload ----------------------------------------------------------------------------

void TestFaults::brokenConfigOnReloadKeepsTheRunningOne_data()
{
    QTest::addColumn<int>("cutAt");          // bytes of the new file written (-1: all of it)
    QTest::addColumn<QByteArray>("newHost");  // the second host's JSON in the new file
    QTest::addColumn<QString>("expected");   // in the first error: what and where
    const QByteArray good = R"({"engines": {"main": {"url": "http://127.0.0.1:9"}}})";
    QTest::newRow("half-written file") << 60 << good << u":4:"_s;
    QTest::newRow("empty file (truncated on open)") << 0 << good << u"faults.json"_s;
    QTest::newRow("valid JSON, wrong field") << -1 << R"({"engines": {"main": {"url": "ftp://x"}}})"_ba
                                            << u":4: hosts.h2.engines.main.url:"_s;
}

void TestFaults::brokenConfigOnReloadKeepsTheRunningOne()
{
    QFETCH(int, cutAt);
    QFETCH(QByteArray, newHost);
    QFETCH(QString, expected);
    fake::FakeLlamaServer engine(routerOptions());
    QVERIFY(engine.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"faults.json"_s);
    auto write = [&path](const QByteArray &text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    };
    const QByteArray h1 = R"("h1": {"engines": {"main": {"url": ")" + engine.baseUrl().toString().toUtf8() + R"("}}})";
    write("{\n  \"listen\": \"127.0.0.1:0\",\n  \"hosts\": {\n    " + h1 + "\n  }\n}\n");
    AppOptions options;
    options.configPath = path;
    RelayRunner runner(nullptr, nullptr);
    const ConfigResult first = ConfigLoader::load(path);
    QVERIFY(first.ok());
    QString error;
    QVERIFY(runner.start(*first.config, &error));
    RelayService *before = runner.service();
    const quint16 port = before->endpoint().port();
    QTRY_VERIFY_WITH_TIMEOUT(before->catalog()->host(u"h1"_s)->reachable, 5000);

    ConfigReloader reloader(options, nullptr, &runner, nullptr);
    QSignalSpy failed(&reloader, &ConfigReloader::reloadFailed);
    const QByteArray next = "{\n  \"listen\": \"127.0.0.1:0\",\n  \"hosts\": {\n    \"h2\": " + newHost + ",\n    " + h1 + "\n  }\n}\n";
    write(cutAt < 0 ? next : next.left(cutAt));
    QVERIFY(!reloader.reload());
    QCOMPARE(failed.size(), 1);
    const QStringList errors = failed.first().first().toStringList();
    QVERIFY(!errors.isEmpty());
    QVERIFY2(errors.first().startsWith(path) && errors.first().contains(expected), qPrintable(errors.join(u'\n')));

    // The running relay is the same one, on the same port, still routing by the old config.
    QCOMPARE(runner.service(), before);
    QCOMPARE(before->catalog()->hostNames(), QStringList{u"h1"_s});
    RawHttpClient client(port);
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 2, false)));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QCOMPARE(client.responses().at(0).status, 200);
}

// ---- SIGTERM on the real binary ---------------------------------------------------------------

void TestFaults::sigtermLetsStreamsFinishAndOrphansNoEngine()
{
    QTemporaryDir dir;
    const quint16 relayPort = portForLater();
    const quint16 enginePort = portForLater();
    const QJsonArray argv{binary(u"switchyard-fakellama"_s), u"--port"_s, QString::number(enginePort),
                          u"--models"_s, u"alpha"_s, u"--loaded"_s, u"alpha"_s, u"--tokens-per-s"_s, u"20"_s};
    const QJsonObject root{
        {"listen"_L1, u"127.0.0.1:%1"_s.arg(relayPort)},
        {"state_dir"_L1, dir.filePath(u"state"_s)},
        {"hosts"_L1, QJsonObject{{"h1"_L1, QJsonObject{
            {"driver"_L1, "local"_L1},
            {"engines"_L1, QJsonObject{{"e1"_L1, QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                             {"models"_L1, QJsonArray{u"alpha"_s}},
                                                             {"argv"_L1, argv},
                                                             {"start_timeout_s"_L1, 20}}}}}}}}}};
    const QString configPath = dir.filePath(u"relay.json"_s);
    {
        QFile file(configPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
    }
    HeadlessRelay headless;
    QVERIFY2(headless.start(configPath, dir), headless.output.constData());
    QProcess &relay = headless.process;
    QByteArray &output = headless.output;

    // A stream of 60 tokens at 20/s: three seconds, most of it after the SIGTERM.
    RawHttpClient streaming(relayPort);
    QVERIFY(streaming.connectToServer());
    streaming.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 60, true)));
    QTRY_VERIFY_WITH_TIMEOUT(streaming.current() && streaming.current()->chunkArrivalsMs.size() >= 3, 20000);
    const qint64 engine = enginePid(enginePort);
    QVERIFY2(engine > 0, "the relay's engine process was not found");

    QElapsedTimer sinceTerm;
    sinceTerm.start();
    QCOMPARE(::kill(pid_t(relay.processId()), SIGTERM), 0);
    // New connections are refused at once, while the stream goes on.
    bool refused = false;
    QElapsedTimer probing;
    probing.start();
    while (!refused && probing.elapsed() < 5000) {
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, relayPort);
        refused = !probe.waitForConnected(1000);
        if (!refused)
            QTest::qWait(50);   // the relay's loop must run to close its listener
    }
    QVERIFY2(refused, "the relay still accepts connections after SIGTERM");
    QVERIFY(!streaming.isDisconnected());
    QCOMPARE(streaming.completedResponses(), 0);

    QTRY_COMPARE_WITH_TIMEOUT(streaming.completedResponses(), 1, 15000);
    const auto &r = streaming.responses().at(0);
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.endsWith("data: [DONE]\n\n"), r.body.right(200).constData());
    QCOMPARE(int(r.body.count("data: ")), 60 + 3);   // role chunk, tokens, finish chunk, [DONE]
    // Then the relay exits by itself, well within its 30 s grace, and takes its engine along.
    QTRY_COMPARE_WITH_TIMEOUT(relay.state(), QProcess::NotRunning, 15000);
    QVERIFY2(sinceTerm.elapsed() < 30000, qPrintable(QString::number(sinceTerm.elapsed())));
    QCOMPARE(relay.exitStatus(), QProcess::NormalExit);
    QCOMPARE(relay.exitCode(), 0);
    output += relay.readAll();
    // Its journal (stdout) has the stream's line, finished whole, without an error.
    const QList<QByteArray> lines = output.split('\n');
    const auto streamLine = std::find_if(lines.cbegin(), lines.cend(), [](const QByteArray &l) {
        return l.contains("POST /v1/chat/completions model=\"h1-alpha\" host=h1 status=200");
    });
    QVERIFY2(streamLine != lines.cend(), output.constData());
    QVERIFY2(!streamLine->contains(" err="), streamLine->constData());
    QTRY_VERIFY2_WITH_TIMEOUT(processGone(engine), qPrintable(u"engine %1 outlived the relay"_s.arg(engine)), 15000);
}

void TestFaults::sighupReloadsHeadlessAndRefusesABrokenFile()
{
    fake::FakeLlamaServer engine(routerOptions());
    QVERIFY(engine.listen());
    QTemporaryDir dir;
    const quint16 relayPort = portForLater();
    const QString path = dir.filePath(u"relay.json"_s);
    const QByteArray url = engine.baseUrl().toString().toUtf8();
    auto configWith = [&](const QByteArray &host) {
        return "{\n  \"listen\": \"127.0.0.1:" + QByteArray::number(relayPort) + "\",\n  \"hosts\": {\n    \"" + host
            + R"(": {"engines": {"main": {"url": ")" + url + "\"}}}\n  }\n}\n";
    };
    auto write = [&path](const QByteArray &text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    };
    write(configWith("h1"));
    HeadlessRelay headless;
    QVERIFY2(headless.start(path, dir), headless.output.constData());
    QProcess &relay = headless.process;
    QByteArray &output = headless.output;
    auto models = [relayPort] {
        RawHttpClient client(relayPort);
        if (!client.connectToServer())
            return QByteArray("no connection");
        client.send(RawHttpClient::get("/v1/models"));
        if (!QTest::qWaitFor([&client] { return client.completedResponses() == 1; }, 5000))
            return QByteArray("no answer");
        return client.responses().at(0).body;
    };
    QTRY_VERIFY_WITH_TIMEOUT(models().contains("\"h1-alpha\""), 10000);

    // Half written: refused with the file and line, once for the change it saw and once for the
    // SIGHUP; the relay goes on with the old config.
    write(configWith("h2").left(60));
    QTRY_VERIFY_WITH_TIMEOUT(output.count("config not reloaded") >= 1, 10000);
    QVERIFY2(output.contains(path.toUtf8() + ":"), output.constData());
    const qsizetype refusedBefore = output.count("config not reloaded");
    QCOMPARE(::kill(pid_t(relay.processId()), SIGHUP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(output.count("config not reloaded") > refusedBefore, 10000);
    QCOMPARE(relay.state(), QProcess::Running);
    QVERIFY(models().contains("\"h1-alpha\""));

    // Whole again: the change and the SIGHUP both apply it.
    write(configWith("h2"));
    QCOMPARE(::kill(pid_t(relay.processId()), SIGHUP), 0);
    QTRY_VERIFY_WITH_TIMEOUT(output.contains("config reloaded from"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(models().contains("\"h2-alpha\""), 10000);
    QVERIFY(!models().contains("\"h1-alpha\""));
    QCOMPARE(relay.state(), QProcess::Running);
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
