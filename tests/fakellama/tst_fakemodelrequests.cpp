// Requests for a model on the fake llama.cpp router, byte for byte like the recorded real one
// (/work/shared/llama-transcripts): streams, usage, slots, other APIs, autoload, errors, cancels.
#include "tst_fakemodelrequests.h"

#include "fakejsonsyntax.h"
#include "fakellamaserver.h"
#include "fakeinferencerequest.h"
#include "fakeoptions.h"
#include "rawhttpclient.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "fakellamatesthelpers.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace switchyard::fake;
using namespace fakellamatest;

// ---- requests for a model --------------------------------------------------------

void tst_FakeModelRequests::streamingChatFraming()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 100;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/chat/completions", chatBody(kA, 5, true));
    QVERIFY(client->waitForClose(kTimeout)); // the router closes after the last chunk
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, routedHead("text/event-stream"));
    QVERIFY(r.complete);
    QCOMPARE(r.consumed, client->data().size()); // nothing after 0\r\n\r\n

    // Role + first token, one chunk per token, finish, [DONE] (transcript 14).
    QCOMPARE(r.chunks.size(), 7);
    QCOMPARE(sseData(r.chunks.at(0)).size(), 2);
    QVERIFY(r.chunks.at(0).startsWith(
        R"(data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":)"));
    for (int i = 1; i <= 4; ++i) {
        QCOMPARE(sseData(r.chunks.at(i)).size(), 1);
        const QJsonObject chunk = jsonOf(sseData(r.chunks.at(i)).constFirst());
        QCOMPARE(chunk.value(u"object"_s).toString(), u"chat.completion.chunk"_s);
        QCOMPARE(chunk.value(u"choices"_s).toArray().at(0).toObject().value(u"delta"_s).toObject()
                     .value(u"content"_s).toString(),
                 u" tok%1"_s.arg(i));
    }
    QVERIFY(r.chunks.at(0).contains(R"("delta":{"content":" tok0"}}],"created":)"));
    QVERIFY(r.chunks.at(0).contains(R"("model":"tiny-llama-a","system_fingerprint":"b1-de3ff81","object":"chat.completion.chunk"})"));

    const QJsonObject finish = jsonOf(sseData(r.chunks.at(5)).constFirst());
    QCOMPARE(finish.value(u"choices"_s).toArray().at(0).toObject().value(u"finish_reason"_s).toString(), u"length"_s);
    const QJsonObject timings = finish.value(u"timings"_s).toObject();
    QCOMPARE(timings.value(u"predicted_n"_s).toInt(), 5);
    QCOMPARE(timings.value(u"predicted_per_second"_s).toDouble(), 100.0);
    QCOMPARE(timings.value(u"predicted_ms"_s).toDouble(), 50.0);
    QCOMPARE(r.chunks.at(6), QByteArray("data: [DONE]\n\n"));

    // Paced at 100 tokens/s: five tokens take ~50 ms, spread over several reads.
    QVERIFY(client->arrivals().size() >= 3);
    const qint64 spread = client->arrivals().constLast().first - client->arrivals().constFirst().first;
    QVERIFY2(spread >= 30, qPrintable(QString::number(spread)));

    const ReceivedRequest &record = server->received().constLast();
    QCOMPARE(record.status, 200);
    QCOMPARE(record.tokensSent, 5);
    QVERIFY(record.finishedAtMs >= record.receivedAtMs);
    QCOMPARE(record.cancelledAtMs, -1);
    QCOMPARE(record.header("Content-Type"), QByteArray("application/json"));
}

void tst_FakeModelRequests::streamingUsageChunk()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/chat/completions",
                 chatBody(kA, 3, true, {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}}));
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    // With include_usage the finish and usage events share a chunk and the
    // timings move to the usage event.
    const QList<QByteArray> last = sseData(r.chunks.at(r.chunks.size() - 2));
    QCOMPARE(last.size(), 2);
    const QJsonObject finish = jsonOf(last.at(0));
    QVERIFY(!finish.contains(u"timings"_s));
    const QJsonObject usageChunk = jsonOf(last.at(1));
    QCOMPARE(usageChunk.value(u"choices"_s).toArray().size(), 0);
    const QJsonObject usage = usageChunk.value(u"usage"_s).toObject();
    QCOMPARE(usage.value(u"completion_tokens"_s).toInt(), 3);
    QCOMPARE(usage.value(u"prompt_tokens"_s).toInt(), 12);
    QCOMPARE(usage.value(u"total_tokens"_s).toInt(), 15);
    QVERIFY(last.at(1).contains(R"("usage":{"completion_tokens":3,"prompt_tokens":12,"total_tokens":15,)"
                                R"("prompt_tokens_details":{"cached_tokens":0}},"timings":{"cache_n":0,)"));
    QCOMPARE(r.chunks.constLast(), QByteArray("data: [DONE]\n\n"));
}

// The slot API in llama-server's shapes (docs/PROMPT_CACHES.md): refused without a save path,
// listed per model, saved to a real file, restored, and the restored prompt reused.
void tst_FakeModelRequests::slotApi()
{
    FakeOptions bare = baseOptions();
    bare.loaded = {kA};
    START_SERVER(refusing, bare);
    CONNECT_CLIENT(refused, refusing);
    refused->post("/slots/0?action=save", R"({"model":"tiny-llama-a","filename":"s.bin"})");
    QVERIFY(refused->waitForClose(kTimeout));
    QCOMPARE(refused->response().status(), 501);
    QCOMPARE(refused->response().body,
             QByteArray(R"({"error":{"code":501,"message":"This server does not support slots action. Start it with `--slot-save-path`","type":"not_supported_error"}})"));

    QTemporaryDir dir;
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.slotSavePath = dir.path();
    options.slotBytesPerToken = 100;
    START_SERVER(server, options);
    auto ask = [&](const QByteArray &method, const QByteArray &target, const QByteArray &body = {}) {
        RawHttpClient client(server->port());
        if (!client.connectToServer())
            return RawHttpClient::Response{};
        if (method == "GET")
            client.get(target);
        else
            client.post(target, body);
        client.waitForClose(kTimeout);
        return client.response();
    };
    QCOMPARE(ask("POST", "/v1/chat/completions", chatBody(kA, 3, false)).status(), 200);
    const QJsonArray slotList = QJsonDocument::fromJson(ask("GET", "/slots?model=tiny-llama-a").body).array();
    QCOMPARE(slotList.size(), 4);
    QCOMPARE(slotList.at(0).toObject().value(u"n_prompt_tokens"_s).toInt(), 12 + 3);
    QVERIFY(!slotList.at(1).toObject().contains(u"n_prompt_tokens"_s));
    QCOMPARE(ask("GET", "/slots").status(), 400);   // a router needs ?model=

    const RawHttpClient::Response saved = ask("POST", "/slots/0?action=save", R"({"model":"tiny-llama-a","filename":"s.bin"})");
    QCOMPARE(saved.status(), 200);
    const QJsonObject save = jsonOf(saved.body);
    QCOMPARE(save.value(u"n_saved"_s).toInt(), 15);
    QCOMPARE(save.value(u"n_written"_s).toInt(), 1500);
    QCOMPARE(QFileInfo(dir.filePath(u"s.bin"_s)).size(), 1500);
    QVERIFY(save.value(u"timings"_s).toObject().contains(u"save_ms"_s));

    server->close();   // the engine restarts: its slots are empty
    QVERIFY(server->listen(QHostAddress::LocalHost, server->port()) || server->listen());
    const RawHttpClient::Response missing = ask("POST", "/slots/0?action=restore", R"({"model":"tiny-llama-a","filename":"no.bin"})");
    QCOMPARE(missing.status(), 400);
    QCOMPARE(jsonOf(missing.body).value(u"error"_s).toObject().value(u"message"_s).toString(),
             u"Unable to restore slot: No available space in KV cache or invalid slot save file"_s);
    const RawHttpClient::Response restored = ask("POST", "/slots/0?action=restore", R"({"model":"tiny-llama-a","filename":"s.bin"})");
    QCOMPARE(restored.status(), 200);
    QCOMPARE(jsonOf(restored.body).value(u"n_restored"_s).toInt(), 15);
    QCOMPARE(jsonOf(restored.body).value(u"n_read"_s).toInt(), 1500);
    const QJsonObject timings = jsonOf(ask("POST", "/v1/chat/completions", chatBody(kA, 3, false)).body).value(u"timings"_s).toObject();
    QCOMPARE(timings.value(u"cache_n"_s).toInt(), 11);   // all but the last prompt token
    QCOMPARE(timings.value(u"prompt_n"_s).toInt(), 1);
}

void tst_FakeModelRequests::nonStreamingChat()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 200;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/chat/completions", chatBody(kA, 3, false));
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, routedHead("application/json; charset=utf-8"));
    QCOMPARE(r.chunks.size(), 1);
    QVERIFY(r.body.startsWith(R"({"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant",)"
                              R"("content":" tok0 tok1 tok2"}}],"created":)"));
    QVERIFY(r.body.contains(R"(,"model":"tiny-llama-a","system_fingerprint":"b1-de3ff81","object":"chat.completion",)"
                            R"("usage":{"completion_tokens":3,"prompt_tokens":12,"total_tokens":15,)"
                            R"("prompt_tokens_details":{"cached_tokens":0}},"id":"chatcmpl-)"));
    const QJsonObject timings = jsonOf(r.body).value(u"timings"_s).toObject();
    QCOMPARE(timings.value(u"predicted_n"_s).toInt(), 3);
    QCOMPARE(timings.value(u"predicted_per_second"_s).toDouble(), 200.0);
    QCOMPARE(timings.value(u"prompt_n"_s).toInt(), 12);

    // Without max_tokens: the default length, ended as a natural stop.
    CONNECT_CLIENT(second, server);
    second->post("/v1/chat/completions", chatBody(kA, -1, false));
    QVERIFY(second->waitForClose(kTimeout));
    const QJsonObject answer = jsonOf(second->response().body);
    QCOMPARE(answer.value(u"usage"_s).toObject().value(u"completion_tokens"_s).toInt(), 16);
    QCOMPARE(answer.value(u"choices"_s).toArray().at(0).toObject().value(u"finish_reason"_s).toString(), u"stop"_s);
}

void tst_FakeModelRequests::messagesStream()
{
    FakeOptions options = baseOptions();
    options.loaded = {kC};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/messages",
                 R"({"model":"tiny-gpt2bpe-c","max_tokens":3,"stream":true,"messages":[{"role":"user","content":"Hello"}]})");
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, routedHead("text/event-stream"));
    QCOMPARE(sseEvents(r.body),
             (QList<QByteArray>{"message_start", "content_block_start", "content_block_delta", "content_block_delta",
                                "content_block_delta", "content_block_stop", "message_delta", "message_stop"}));
    QVERIFY(!r.body.contains("[DONE]"));
    QVERIFY(r.body.contains("event: content_block_start\ndata: "
                            R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"
                            "\n\n"));
    QVERIFY(r.body.contains("event: content_block_delta\ndata: "
                            R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" tok1"}})"
                            "\n\n"));
    QVERIFY(r.body.endsWith(
        "event: message_delta\ndata: "
        R"({"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":3}})"
        "\n\nevent: message_stop\ndata: "
        R"({"type":"message_stop"})"
        "\n\n"));
    const QJsonObject start = jsonOf(sseData(r.body).constFirst()).value(u"message"_s).toObject();
    QCOMPARE(start.value(u"usage"_s).toObject().value(u"input_tokens"_s).toInt(), 11);

    CONNECT_CLIENT(plain, server);
    plain->post("/v1/messages", R"({"model":"tiny-gpt2bpe-c","max_tokens":2,"messages":[{"role":"user","content":"Hello"}]})");
    QVERIFY(plain->waitForClose(kTimeout));
    const QByteArray body = plain->response().body;
    QVERIFY(body.startsWith(R"({"id":"chatcmpl-)"));
    QVERIFY(body.endsWith(R"(","type":"message","role":"assistant","content":[{"type":"text","text":" tok0 tok1"}],)"
                          R"("model":"tiny-gpt2bpe-c","stop_reason":"max_tokens","stop_sequence":null,)"
                          R"("usage":{"cache_read_input_tokens":0,"input_tokens":11,"output_tokens":2}})"));
}

void tst_FakeModelRequests::otherApis_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QByteArray>("needle");
    QTest::addColumn<bool>("doneMarker");

    QTest::newRow("chat without v1") << QByteArray("/chat/completions") << chatBody(kA, 2, true)
                                     << true << QByteArray(R"("content":" tok1")") << true;
    QTest::newRow("completions stream") << QByteArray("/v1/completions")
                                        << QByteArray(R"({"model":"tiny-llama-a","prompt":"Hi","max_tokens":2,"stream":true})")
                                        << true << QByteArray(R"("text":" tok1","index":0)") << true;
    QTest::newRow("completions") << QByteArray("/completions")
                                 << QByteArray(R"({"model":"tiny-llama-a","prompt":"Hi","max_tokens":2})") << false
                                 << QByteArray(R"("text":" tok0 tok1")") << false;
    QTest::newRow("native stream") << QByteArray("/completion")
                                   << QByteArray(R"({"model":"tiny-llama-a","prompt":"Hi","n_predict":2,"stream":true})")
                                   << true << QByteArray(R"("stop":true)") << false;
    QTest::newRow("native") << QByteArray("/completion")
                            << QByteArray(R"({"model":"tiny-llama-a","prompt":"Hi","n_predict":2})") << false
                            << QByteArray(R"("content":" tok0 tok1")") << false;
    QTest::newRow("responses stream") << QByteArray("/v1/responses")
                                      << QByteArray(R"({"model":"tiny-llama-a","input":"Hi","max_output_tokens":2,"stream":true})")
                                      << true << QByteArray("event: response.completed\n") << false;
    QTest::newRow("responses") << QByteArray("/v1/responses")
                               << QByteArray(R"({"model":"tiny-llama-a","input":"Hi","max_output_tokens":2})") << false
                               << QByteArray(R"("status":"completed")") << false;
}

void tst_FakeModelRequests::otherApis()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, body);
    QFETCH(bool, stream);
    QFETCH(QByteArray, needle);
    QFETCH(bool, doneMarker);

    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->post(path, body);
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.status(), 200);
    QVERIFY(r.complete);
    QCOMPARE(r.header("Content-Type"),
             stream ? QByteArray("text/event-stream") : QByteArray("application/json; charset=utf-8"));
    QVERIFY2(r.body.contains(needle), r.body.constData());
    QCOMPARE(r.body.endsWith("data: [DONE]\n\n"), doneMarker);
}

void tst_FakeModelRequests::countTokens()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->post("/v1/messages/count_tokens",
                 R"({"model":"tiny-llama-a","messages":[{"role":"user","content":"one two three four"}]})");
    QVERIFY(client->waitForClose(kTimeout));
    QCOMPARE(client->data(), routedHead("application/json; charset=utf-8") + chunked(R"({"input_tokens":14})"));
}

void tst_FakeModelRequests::childProps()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->get("/props?model=tiny-llama-a");
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, routedHead("application/json; charset=utf-8"));
    QVERIFY(r.body.startsWith(R"({"default_generation_settings":{"params":{"seed":4294967295,"temperature":0.800000011920929,)"));
    const QJsonObject props = jsonOf(r.body);
    QCOMPARE(props.value(u"default_generation_settings"_s).toObject().value(u"n_ctx"_s).toInt(), 4096);
    QCOMPARE(props.value(u"model_alias"_s).toString(), kA);
    QCOMPARE(props.value(u"build_info"_s).toString(), u"b1-de3ff81"_s);
    QCOMPARE(props.value(u"is_sleeping"_s).toBool(), false);

    // A sleeping model's props do not wake it (transcript 58).
    server->setModelStatus(kA, FakeModelStatus::Sleeping);
    CONNECT_CLIENT(sleepy, server);
    sleepy->get("/props?model=tiny-llama-a");
    QVERIFY(sleepy->waitForClose(kTimeout));
    QCOMPARE(jsonOf(sleepy->response().body).value(u"is_sleeping"_s).toBool(), true);
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Sleeping);

    // A chat wakes it (transcript 59).
    CONNECT_CLIENT(chat, server);
    chat->post("/v1/chat/completions", chatBody(kA, 2, false));
    QVERIFY(chat->waitForClose(kTimeout));
    QCOMPARE(chat->response().status(), 200);
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Loaded);
}

void tst_FakeModelRequests::autoloadHoldsSilently()
{
    FakeOptions options = baseOptions();
    options.loadDelay = 300ms;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/chat/completions", chatBody(kB, 2, true));
    QTRY_COMPARE_WITH_TIMEOUT(server->modelStatus(kB), FakeModelStatus::Loading, kTimeout);
    QVERIFY(client->data().isEmpty());
    QVERIFY(client->waitForClose(kTimeout));

    // Not a byte until the model was up: no early status, no ping.
    QVERIFY2(client->firstByteAtMs() - client->sentAtMs() >= 250,
             qPrintable(QString::number(client->firstByteAtMs() - client->sentAtMs())));
    const RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, routedHead("text/event-stream"));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    QCOMPARE(server->modelStatus(kB), FakeModelStatus::Loaded);
    QCOMPARE(server->received().constLast().status, 200);
}

void tst_FakeModelRequests::autoloadOff_data()
{
    QTest::addColumn<bool>("globalAutoload");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");

    QTest::newRow("--no-autoload") << false << QByteArray("POST") << QByteArray("/v1/chat/completions");
    QTest::newRow("?autoload=false (16)") << true << QByteArray("POST") << QByteArray("/v1/chat/completions?autoload=false");
    QTest::newRow("props autoload=false (31)") << true << QByteArray("GET")
                                               << QByteArray("/props?model=tiny-gpt2bpe-c&autoload=false");
}

void tst_FakeModelRequests::autoloadOff()
{
    QFETCH(bool, globalAutoload);
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);

    FakeOptions options = baseOptions();
    options.autoload = globalAutoload;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    if (method == "GET")
        client->get(target);
    else
        client->post(target, R"({"model":"tiny-gpt2bpe-c","messages":[{"role":"user","content":"Hi"}],"max_tokens":4})");
    QVERIFY(client->waitForClose(kTimeout));
    const QByteArray body = R"({"error":{"code":400,"message":"model is not loaded","type":"invalid_request_error"}})";
    QCOMPARE(client->data(), ownHead("400 Bad Request", 85, true) + body);
    QCOMPARE(server->modelStatus(kC), FakeModelStatus::Unloaded);
}

void tst_FakeModelRequests::modelErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray missing = R"({"error":{"code":400,"message":"model name is missing from the request","type":"invalid_request_error"}})";
    const QByteArray unknown = R"({"error":{"code":400,"message":"model 'no-such-model' not found","type":"invalid_request_error"}})";
    QTest::newRow("missing (17)") << QByteArray(R"({"messages":[{"role":"user","content":"Hi"}],"max_tokens":4})")
                                  << ownHead("400 Bad Request", 104, true) + missing;
    QTest::newRow("unknown (18)")
        << QByteArray(R"({"model":"no-such-model","messages":[{"role":"user","content":"Hi"}],"max_tokens":4})")
        << ownHead("400 Bad Request", 97, true) + unknown;
    // Seen on the real llama-server: JSON that is no object names no model; a body that is not
    // JSON is its parser's 500.
    QTest::newRow("not an object") << QByteArray("[1]") << ownHead("400 Bad Request", 104, true) + missing;
    const QByteArray broken = R"({"error":{"code":500,"message":"[json.exception.parse_error.101] parse error at line 1, column 10: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal","type":"server_error"}})";
    QTest::newRow("not JSON") << QByteArray(R"({"model":)") << ownHead("500 Internal Server Error", broken.size(), true) + broken;
}

void tst_FakeModelRequests::modelErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, expected);
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", body);
    QVERIFY(client->waitForClose(kTimeout));
    QCOMPARE(client->data(), expected);
}

void tst_FakeModelRequests::contextOverflow_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("body");

    const QByteArray messages = R"([{"role":"user","content":")" + words(100) + R"("}])";
    QTest::newRow("chat (23)") << QByteArray("/v1/chat/completions")
                               << R"({"model":"tiny-gpt2bpe-c","messages":)" + messages + "}";
    QTest::newRow("chat stream (24)") << QByteArray("/v1/chat/completions")
                                      << R"({"model":"tiny-gpt2bpe-c","stream":true,"messages":)" + messages + "}";
    QTest::newRow("messages (25)") << QByteArray("/v1/messages")
                                   << R"({"model":"tiny-gpt2bpe-c","max_tokens":4,"messages":)" + messages + "}";
}

void tst_FakeModelRequests::contextOverflow()
{
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, body);

    FakeOptions options = baseOptions();
    options.modelContext.insert(kC, 64);
    options.loaded = {kC};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->post(path, body);
    QVERIFY(client->waitForClose(kTimeout));
    const QByteArray error =
        R"({"error":{"code":400,"message":"request (110 tokens) exceeds the available context size (64 tokens), )"
        R"(try increasing it","type":"exceed_context_size_error","n_prompt_tokens":110,"n_ctx":64}})";
    // A plain JSON 400 even for a stream, with the child's headers as the router passes them on.
    QCOMPARE(client->data(), routedErrorHead("400 Bad Request") + chunked(error));
}

void tst_FakeModelRequests::lateSystemMessage_data()
{
    QTest::addColumn<bool>("reject");
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");

    const QByteArray late = R"({"model":"tiny-llama-a","max_tokens":2,"messages":[{"role":"user","content":"Hi"},)"
                            R"({"role":"assistant","content":"Hello"},{"role":"system","content":"be brief"}]})";
    const QByteArray first = R"({"model":"tiny-llama-a","max_tokens":2,"messages":[{"role":"system","content":"be brief"},)"
                             R"({"role":"user","content":"Hi"}]})";
    const QByteArray anthropic = R"({"model":"tiny-llama-a","max_tokens":2,"system":"be brief","messages":[)"
                                 R"({"role":"system","content":"more"},{"role":"user","content":"Hi"}]})";
    QTest::newRow("late, rejected") << true << QByteArray("/v1/chat/completions") << late << 500;
    QTest::newRow("late, accepted") << false << QByteArray("/v1/chat/completions") << late << 200;
    QTest::newRow("first is fine") << true << QByteArray("/v1/chat/completions") << first << 200;
    QTest::newRow("after anthropic system") << true << QByteArray("/v1/messages") << anthropic << 500;
}

void tst_FakeModelRequests::lateSystemMessage()
{
    QFETCH(bool, reject);
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, body);
    QFETCH(int, status);

    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.rejectLateSystem = reject;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->post(path, body);
    QVERIFY(client->waitForClose(kTimeout));
    QCOMPARE(client->response().status(), status);
    if (status == 500) {
        const QByteArray error =
            R"({"error":{"code":500,"message":"Jinja Exception: System message must be at the beginning.","type":"server_error"}})";
        QCOMPARE(client->data(), routedErrorHead("500 Internal Server Error") + chunked(error));
    }
}

void tst_FakeModelRequests::prefillPings()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.prefillDelay = 250ms;
    options.pingInterval = 50ms;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/v1/chat/completions", chatBody(kA, 2, true));
    // Headers first, then only pings until the prefill is over.
    QVERIFY(client->waitForData("\r\n\r\n", kTimeout));
    QCOMPARE(RawHttpClient::parse(client->data()).headBytes, routedHead("text/event-stream"));
    QVERIFY(client->waitForClose(kTimeout));
    const RawHttpClient::Response r = client->response();
    int pings = 0;
    while (pings < r.chunks.size() && r.chunks.at(pings) == ":\n\n")
        ++pings;
    QVERIFY2(pings >= 3, qPrintable(QString::number(pings)));
    QVERIFY(r.chunks.at(pings).startsWith("data: "));
    QCOMPARE(jsonOf(sseData(r.chunks.at(r.chunks.size() - 2)).constFirst())
                 .value(u"timings"_s).toObject().value(u"prompt_ms"_s).toDouble(),
             250.0);
}

void tst_FakeModelRequests::clientCancelStopsGeneration()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 50;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    QSignalSpy cancelled(server.get(), &FakeLlamaServer::requestCancelled);
    QSignalSpy finished(server.get(), &FakeLlamaServer::requestFinished);

    client->post("/v1/chat/completions", chatBody(kA, 500, true));
    QVERIFY(client->waitForData(R"("content":" tok2")", kTimeout));
    QCOMPARE(server->activeGenerations(), 1);

    const qint64 abortedAt = FakeLlamaServer::nowMs();
    client->abort();
    QVERIFY(cancelled.wait(100));
    const ReceivedRequest *record = server->request(cancelled.constFirst().at(0).toLongLong());
    QVERIFY(record);
    QVERIFY(record->cancelledAtMs - abortedAt < 100);
    QCOMPARE(record->finishedAtMs, -1);
    QCOMPARE(server->activeGenerations(), 0);

    // No token is generated for nobody.
    const int tokensAtCancel = record->tokensSent;
    QVERIFY(tokensAtCancel >= 3 && tokensAtCancel < 500);
    QVERIFY(!finished.wait(150));
    QCOMPARE(server->request(record->seq)->tokensSent, tokensAtCancel);
}

void tst_FakeModelRequests::unloadCutsRunningStream()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 100;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", chatBody(kA, 500, true));
    QVERIFY(client->waitForData(R"("content":" tok1")", kTimeout));

    server->setModelStatus(kA, FakeModelStatus::Unloaded); // the child is killed
    QVERIFY(client->waitForClose(kTimeout));
    QVERIFY(!client->response().complete);
    QVERIFY(!client->data().contains("[DONE]"));
    QCOMPARE(server->activeGenerations(), 0);
}

QTEST_GUILESS_MAIN(tst_FakeModelRequests)
