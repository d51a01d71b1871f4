// The relay core against a real fake llama.cpp router: what it records and keeps (journal,
// history, the admin API, engines' models across restarts, stream stats), shutdown, idle memory.
#include "rawhttpclient.h"
#include "relayfixture.h"

#include "journal/journalformat.h"
#include "app/idlememorytrimmer.h"
#include "http/httpheaders.h"
#include "relay/jsonmodelfield.h"
#include "relay/relay.h"
#include "relay/streamstats.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

#include "relaytesthelpers.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace relaytest;

class TestRelayRecords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { failOnLifecycleBugs(); }
    void requestsAreJournaled();
    void historyRecordsStreamsWithRatesAndNoSecrets();
    void adminApiServesHistoryAndStats();
    void enginesModelsAreRememberedAcrossRestarts();
    void shutdownLetsRunningStreamsFinish();
    void shutdownCutsAfterTheGracePeriod();
    void idleMemoryIsTrimmedOnlyWithNothingInFlight();
    void streamStatsFindTheCountWhereverReadsSplit_data();
    void streamStatsFindTheCountWhereverReadsSplit();
};

void TestRelayRecords::requestsAreJournaled()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    QSignalSpy finished(f.relay->relay(), &Relay::requestFinished);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 5)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    const auto record = finished.at(0).at(0).value<RequestRecord>();
    QCOMPARE(record.status, 200);
    QCOMPARE(record.model, u"h1-alpha"_s);
    QCOMPARE(record.host, u"h1"_s);
    QVERIFY(record.bytesOut > 0);
    QVERIFY(record.timeToFirstByte.has_value());
    QCOMPARE(record.streamedTokens.value_or(-1), 5);
}

void TestRelayRecords::historyRecordsStreamsWithRatesAndNoSecrets()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SystemClock clock;
    const QString dbPath = dir.filePath(u"history.sqlite"_s);
    auto store = std::make_unique<HistoryStore>(dbPath, clock);
    QVERIFY(store->isOpen());
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    f.relay->setHistory(store.get());
    QStringList journalLines;
    connect(f.relay->relay(), &Relay::requestFinished, this,
            [&journalLines](const RequestRecord &r) { journalLines.append(JournalFormat::requestLine(r)); });
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    for (int i = 0; i < 3; ++i)
        client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20), "Authorization: Bearer sekrit-123\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 10000);
    store->sync();
    RequestQuery query;
    query.host = u"h1"_s;
    const QList<RequestRecord> rows = store->requests(query);
    QCOMPARE(rows.size(), 3);
    for (const RequestRecord &r : rows) {
        QCOMPARE(r.status, 200);
        QVERIFY(r.timeToFirstByte.has_value());
        QVERIFY(r.duration > *r.timeToFirstByte);
        QCOMPARE(r.streamedTokens.value_or(-1), 20);
        QVERIFY2(r.tokensPerSecond && qAbs(*r.tokensPerSecond - 100.0) <= 10.0,
                 qPrintable(u"tokens/s %1"_s.arg(r.tokensPerSecond.value_or(-1))));
    }
    store.reset();   // close: everything is in the file now
    QByteArray fileBytes;
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s}) {
        QFile file(dbPath + suffix);
        if (file.open(QIODevice::ReadOnly))
            fileBytes += file.readAll();
    }
    QVERIFY(!fileBytes.isEmpty());
    QVERIFY(!fileBytes.contains("sekrit-123"));
    QCOMPARE(journalLines.size(), 3);
    QVERIFY(!journalLines.join(u'\n').contains("sekrit"_L1));
}

void TestRelayRecords::adminApiServesHistoryAndStats()
{
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    RelayFixture f;
    QVERIFY(f.start(routerOptions(100)));
    f.relay->setHistory(&store);
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 10), "Authorization: Bearer sekrit-9\r\n"));
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-nope", 10)));
    // opencode's title call (no tools): a side call, which the record says (the switch
    // simulator's export tells it from a turn).
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-beta", 10),
                                    "User-Agent: opencode/1.18.33 ai-sdk/provider-utils/3.0\r\n"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 3, 5000);
    client.send(RawHttpClient::get("/admin/requests?model=h1-alpha"));
    client.send(RawHttpClient::get("/admin/stats"));
    client.send(RawHttpClient::get("/admin/requests?model=h1-beta"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 6, 5000);
    const QJsonArray rows = QJsonDocument::fromJson(client.responses().at(3).body).array();
    QCOMPARE(rows.size(), 1);
    const QJsonObject row = rows.at(0).toObject();
    QCOMPARE(row.value("status"_L1).toInt(), 200);
    QCOMPARE(row.value("side_call"_L1), QJsonValue(false));
    const QJsonArray titles = QJsonDocument::fromJson(client.responses().at(5).body).array();
    QCOMPARE(titles.size(), 1);
    QCOMPARE(titles.at(0).toObject().value("side_call"_L1), QJsonValue(true));
    QVERIFY(row.value("ttfb_ms"_L1).isDouble());
    QCOMPARE(row.value("client_app"_L1).toString(), u"other"_s);   // RawHttpClient sends no User-Agent
    QVERIFY(row.value("journal"_L1).toString().contains(R"(POST /v1/chat/completions model="h1-alpha" host=h1 status=200)"_L1));
    const QJsonObject aliases = QJsonDocument::fromJson(client.responses().at(4).body).object().value("aliases"_L1).toObject();
    QCOMPARE(aliases.value("h1-alpha"_L1).toObject().value("requests"_L1).toInt(), 1);
    QCOMPARE(aliases.value("h1-nope"_L1).toObject().value("errors"_L1).toInt(), 1);
    for (const auto &r : client.responses())
        QVERIFY(!r.body.contains("sekrit"));
}

void TestRelayRecords::enginesModelsAreRememberedAcrossRestarts()
{
    QTemporaryDir dir;
    const QString memory = dir.filePath(u"engines.json"_s);
    // A host whose second engine "b" is not running: only memory can say what it serves.
    auto withSecondEngine = [](Config &c) {
        EngineConfig b;
        b.name = u"b"_s;
        b.url = QUrl(u"http://127.0.0.1:1"_s);
        c.hosts.first().engines.append(b);
    };
    {
        RelayFixture f;
        QVERIFY(f.start(routerOptions(), withSecondEngine));
        QVERIFY(f.relay->catalog()->engineFor(u"h1"_s, u"gamma"_s).isEmpty());
        f.relay->catalog()->setMemoryFile(memory);   // learns and writes "main": alpha, beta
        f.relay->catalog()->refreshHost(u"h1"_s);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(memory), 3000);
    }
    // Pretend engine b once served gamma, then restart.
    QFile file(memory);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject h1 = root.value("h1"_L1).toObject();
    QCOMPARE(h1.value("main"_L1).toArray().size(), 2);
    h1.insert("b"_L1, QJsonArray{QJsonObject{{"id"_L1, "gamma"_L1}}});
    root.insert("h1"_L1, h1);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(root).toJson());
    file.close();

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), withSecondEngine));
    f.relay->catalog()->setMemoryFile(memory);
    QCOMPARE(f.relay->catalog()->engineFor(u"h1"_s, u"gamma"_s), u"b"_s);
    const QJsonArray data = QJsonDocument::fromJson(f.relay->catalog()->modelsJson()).object().value("data"_L1).toArray();
    bool listed = false;
    for (const QJsonValue &v : data) {
        const QJsonObject o = v.toObject();
        if (o.value("id"_L1).toString() == "h1-gamma"_L1) {
            listed = true;
            QCOMPARE(o.value("status"_L1).toObject().value("value"_L1).toString(), u"unloaded"_s);
            QCOMPARE(o.value("proxy"_L1).toObject().value("engine"_L1).toString(), u"b"_s);
        }
    }
    QVERIFY(listed);
}

void TestRelayRecords::shutdownLetsRunningStreamsFinish()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(50)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 15)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && !client.current()->chunkArrivalsMs.isEmpty(), 5000);
    QSignalSpy stopped(f.relay.get(), &RelayService::stopped);
    f.relay->shutdown(10s);
    RawHttpClient late(f.port());
    QVERIFY(!late.connectToServer());   // no longer accepting
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    QVERIFY(client.responses().at(0).body.endsWith("data: [DONE]\n\n"));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 2000);
}

void TestRelayRecords::shutdownCutsAfterTheGracePeriod()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(10)));
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 500)));
    QTRY_VERIFY_WITH_TIMEOUT(client.current() && !client.current()->chunkArrivalsMs.isEmpty(), 5000);
    QSignalSpy stopped(f.relay.get(), &RelayService::stopped);
    QElapsedTimer clock;
    clock.start();
    f.relay->shutdown(300ms);
    QVERIFY(stopped.wait(3000));
    QVERIFY2(clock.elapsed() >= 250 && clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed())));
}

void TestRelayRecords::streamStatsFindTheCountWhereverReadsSplit_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<double>("perSecond");   // -1: none given, derived from the time
    QTest::addColumn<qint64>("prompt");      // tokens in; -1: none
    const QByteArray token = "data: {\"choices\":[{\"delta\":{\"content\":\"usage timings\"}}]}\n\n";
    QTest::newRow("llama.cpp timings")
        << token + token
               + "data: {\"choices\":[],\"timings\":{\"predicted_n\":42,\"predicted_per_second\":12.5}}\n\n"
               + "data: [DONE]\n\n"
        << qint64(42) << 12.5 << qint64(-1);
    QTest::newRow("OpenAI usage, CRLF")
        << QByteArray(token).replace("\n", "\r\n")
               + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":7}}\r\n\r\n"
        << qint64(7) << -1.0 << qint64(3);
    QTest::newRow("Anthropic output_tokens, last one wins")
        << QByteArray("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"output_tokens\":1}}}\n\n")
               + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"hi\"}}\n\n"
               + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\n\n"
        << qint64(9) << -1.0 << qint64(-1);
    QTest::newRow("Responses API: response.completed holds the usage")
        << QByteArray("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"usage\"}\n\n")
               + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\","
                 "\"output\":[{\"usage\":{\"output_tokens\":99}}],\"usage\":{\"input_tokens\":12,\"output_tokens\":11,\"total_tokens\":23}}}\n\n"
        << qint64(11) << -1.0 << qint64(12);
    QTest::newRow("the member, not the word in the text or in a nested object")
        << token
               + "data: {\"id\":\"c1\",\"created\":17, \"choices\":[{\"delta\":{\"content\":\"\\\"usage\\\":{\\\"completion_tokens\\\":99}\"},"
                 "\"x\":{\"usage\":{\"completion_tokens\":98}}}],\"ok\":true,\"usage\" : {\"completion_tokens\":7}}\n\n"
        << qint64(7) << -1.0 << qint64(-1);
    QTest::newRow("a nested usage alone counts nothing")
        << QByteArray("data: {\"n\":-1.5e3,\"x\":[{\"usage\":{\"completion_tokens\":5}}],\"usage\":null}\n\n")
        << qint64(-1) << -1.0 << qint64(-1);
    QTest::newRow("the word outside a data line is ignored")
        << token + ": \"usage\" {\"usage\":{\"completion_tokens\":5}}\n\n" << qint64(-1) << -1.0 << qint64(-1);
    // Tokens in: the whole prompt, what the engine took from its cache included (the real
    // llama-server's answers, llama-transcripts/13 and 22).
    QTest::newRow("llama.cpp usage and timings, prompt partly cached")
        << token
               + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":4,\"prompt_tokens\":29,\"total_tokens\":33,"
                 "\"prompt_tokens_details\":{\"cached_tokens\":10}},\"timings\":{\"cache_n\":10,\"prompt_n\":19,"
                 "\"predicted_n\":4,\"predicted_per_second\":983.5}}\n\n"
        << qint64(4) << 983.5 << qint64(29);
    QTest::newRow("llama.cpp timings alone")
        << token + "data: {\"timings\":{\"cache_n\":146,\"prompt_n\":1,\"predicted_n\":109,\"predicted_per_second\":1335.5}}\n\n"
        << qint64(109) << 1335.5 << qint64(147);
    QTest::newRow("Anthropic input in message_start, cache reads included")
        << QByteArray("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":"
                      "{\"cache_read_input_tokens\":27,\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
               + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":6}}\n\n"
        << qint64(6) << -1.0 << qint64(28);
}

// The scan skips reads that cannot hold a count; a count split over two reads anywhere (inside
// the word, the number, before the newline) must still be found, and the same as whole.
void TestRelayRecords::streamStatsFindTheCountWhereverReadsSplit()
{
    QFETCH(QByteArray, stream);
    QFETCH(qint64, tokens);
    QFETCH(double, perSecond);
    QFETCH(qint64, prompt);
    for (qsizetype first = 0; first <= stream.size(); ++first) {
        for (qsizetype second = first; second <= stream.size(); second += 7) {
            StreamStats stats;
            stats.feed(QByteArrayView(stream).first(first));
            stats.feed(QByteArrayView(stream).sliced(first, second - first));
            stats.feed(QByteArrayView(stream).sliced(second));
            const QString where = u"split at %1 and %2"_s.arg(first).arg(second);
            QVERIFY2(stats.tokens().value_or(-1) == tokens, qPrintable(where));
            QVERIFY2(stats.promptTokens().value_or(-1) == prompt, qPrintable(where));
            const std::optional<double> rate = stats.tokensPerSecond(std::chrono::seconds(2));
            if (perSecond >= 0)
                QVERIFY2(rate && *rate == perSecond, qPrintable(where));
            else if (tokens >= 0)
                QVERIFY2(rate && *rate == double(tokens) / 2.0, qPrintable(where));
            else
                QVERIFY2(!rate, qPrintable(where));
        }
    }
}

void TestRelayRecords::idleMemoryIsTrimmedOnlyWithNothingInFlight()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(20)));
    IdleMemoryTrimmer trimmer(100ms);
    trimmer.watch(f.relay->relay());
    int trimsWhenStreamEnded = -1;
    connect(f.relay->relay(), &Relay::requestFinished, this, [&](const RequestRecord &r) {
        if (r.path == "/v1/chat/completions"_L1)
            trimsWhenStreamEnded = trimmer.trims();
    });
    // A stream of about a second, and a short request that ends at its start: the short one's
    // quiet time runs out while the stream is still in flight, which must not trim.
    RawHttpClient stream(f.port());
    QVERIFY(stream.connectToServer());
    stream.send(RawHttpClient::post("/v1/chat/completions", chatBody("h1-alpha", 20)));
    RawHttpClient shortOne(f.port());
    QVERIFY(shortOne.connectToServer());
    shortOne.send(RawHttpClient::get("/health"));
    QTRY_COMPARE_WITH_TIMEOUT(shortOne.completedResponses(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(stream.completedResponses(), 1, 10000);
    QCOMPARE(stream.responses().at(0).status, 200);
    QCOMPARE(trimsWhenStreamEnded, 0);
    // Nothing in flight any more: one trim, a quiet time after the stream ended.
    QTRY_COMPARE_WITH_TIMEOUT(trimmer.trims(), 1, 5000);
}

QTEST_GUILESS_MAIN(TestRelayRecords)

#include "tst_relayrecords.moc"
