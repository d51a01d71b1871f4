// The fake llama.cpp router's own endpoints answer like the recorded real one
// (/work/shared/llama-transcripts): health, models, props, loads and unloads, SSE, eviction.
#include "tst_fakerouter.h"

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

// ---- router endpoints -----------------------------------------------------------

void tst_FakeRouter::health_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("health") << QByteArray("/health");
    QTest::newRow("v1 health") << QByteArray("/v1/health");
}

void tst_FakeRouter::health()
{
    QFETCH(QByteArray, path);
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);

    client->get(path);
    QVERIFY(client->waitForComplete(kTimeout));
    QCOMPARE(client->data(), ownHead("200 OK", 15, false) + R"({"status":"ok"})");
    QVERIFY(!client->isClosed()); // keep-alive
    QCOMPARE(server->received().size(), 1);
    QCOMPARE(server->received().constFirst().path, path);
    QCOMPARE(server->received().constFirst().status, 200);
    QVERIFY(server->received().constFirst().finishedAtMs >= server->received().constFirst().receivedAtMs);
}

void tst_FakeRouter::keepAliveSequentialRequests()
{
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);

    // Both requests in one write: the second is answered after the first.
    client->send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /props HTTP/1.1\r\nHost: x\r\n\r\n");
    QTRY_VERIFY_WITH_TIMEOUT(client->data().contains("\"role\":\"router\""), kTimeout);
    const RawHttpClient::Response first = client->response();
    QVERIFY(first.complete);
    QCOMPARE(first.body, QByteArray(R"({"status":"ok"})"));
    const RawHttpClient::Response second = client->response(first.consumed);
    QVERIFY(second.complete);
    QCOMPARE(second.status(), 200);
    QCOMPARE(server->received().size(), 2);
    QVERIFY(!client->isClosed());

    // A request that asks to close gets "Connection: close" and a closed socket.
    client->send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    QVERIFY(client->waitForClose(kTimeout));
    QVERIFY(client->data().endsWith(ownHead("200 OK", 15, true) + R"({"status":"ok"})"));
}

void tst_FakeRouter::unknownPath()
{
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);
    client->get("/no/such/path");
    QVERIFY(client->waitForClose(kTimeout));
    const QByteArray body = R"({"error":{"message":"File Not Found","type":"not_found_error","code":404}})";
    QCOMPARE(client->data(), ownHead("404 Not Found", body.size(), true) + body);
}

void tst_FakeRouter::headRequest()
{
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);

    // Claude Code starts with HEAD /: headers only, and the connection goes on.
    client->send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(client->waitForData("\r\n\r\n", kTimeout));
    const RawHttpClient::Response head = RawHttpClient::parse(client->data());
    QCOMPARE(head.status(), 200);
    QVERIFY(head.header("Content-Length").toInt() > 0);
    const qsizetype headSize = head.headBytes.size();

    client->get("/health");
    QVERIFY(client->waitForData(R"({"status":"ok"})", kTimeout));
    QCOMPARE(client->data().mid(headSize), ownHead("200 OK", 15, false) + R"({"status":"ok"})");
}

void tst_FakeRouter::modelsList()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);

    for (const QByteArray &path : {QByteArray("/models"), QByteArray("/v1/models")}) {
        CONNECT_CLIENT(client, server);
        client->get(path);
        QVERIFY(client->waitForComplete(kTimeout));
        const RawHttpClient::Response r = client->response();
        QCOMPARE(r.headBytes, ownHead("200 OK", r.body.size(), false));

        // Key order as llama.cpp writes it, models sorted by id.
        QVERIFY(r.body.startsWith(R"({"data":[{"id":"tiny-gpt2bpe-c","aliases":[],"tags":[],"object":"model",)"
                                  R"("owned_by":"llamacpp","created":)"));
        QVERIFY(r.body.endsWith(R"(],"object":"list"})"));
        QVERIFY(r.body.contains(
            R"("status":{"value":"unloaded","args":["/opt/llama.cpp/bin/llama-server","--host","127.0.0.1",)"
            R"("--port","0","--alias","tiny-gpt2bpe-c","--model","/srv/models/tiny-gpt2bpe-c.gguf","--threads","2"],)"
            R"("preset":"[tiny-gpt2bpe-c]\nmodel = /srv/models/tiny-gpt2bpe-c.gguf\nthreads = 2\n\n"},)"
            R"("architecture":{"input_modalities":["text"],"output_modalities":["text"]},"source":"models_dir",)"
            R"("can_remove":false})"));

        const QJsonArray data = jsonOf(r.body).value(u"data"_s).toArray();
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.at(0).toObject().value(u"id"_s).toString(), kC);
        QCOMPARE(data.at(1).toObject().value(u"id"_s).toString(), kA);
        QCOMPARE(data.at(2).toObject().value(u"id"_s).toString(), kB);

        const QJsonObject a = data.at(1).toObject();
        QCOMPARE(a.value(u"status"_s).toObject().value(u"value"_s).toString(), u"loaded"_s);
        QCOMPARE(a.value(u"meta"_s).toObject().value(u"n_ctx"_s).toInt(), 4096);
        QVERIFY(!data.at(0).toObject().contains(u"meta"_s));

        // A model with its own context size is a preset one.
        const QJsonObject b = data.at(2).toObject();
        QCOMPARE(b.value(u"source"_s).toString(), u"preset"_s);
        QVERIFY(b.value(u"status"_s).toObject().value(u"args"_s).toArray().contains(u"--ctx-size"_s));
        QVERIFY(b.value(u"status"_s).toObject().value(u"preset"_s).toString().contains(u"ctx-size = 1024\n"_s));
    }
}

void tst_FakeRouter::routerProps()
{
    FakeOptions options = baseOptions();
    options.maxModels = 2;
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);
    client->get("/props");
    QVERIFY(client->waitForComplete(kTimeout));
    const QByteArray body =
        R"({"role":"router","max_instances":2,"models_autoload":true,"model_alias":"llama-server",)"
        R"("model_path":"none","default_generation_settings":{"params":null,"n_ctx":0},"ui_settings":{},)"
        R"("build_info":"b1-de3ff81","cors_proxy_enabled":false})";
    QCOMPARE(client->data(), ownHead("200 OK", 233, false) + body);
}

void tst_FakeRouter::loadTransitions()
{
    START_SERVER(server, baseOptions());
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Unloaded);

    CONNECT_CLIENT(client, server);
    client->post("/models/load", R"({"model":"tiny-llama-a"})");
    QVERIFY(client->waitForComplete(kTimeout));
    QCOMPARE(client->data(), ownHead("200 OK", 16, false) + R"({"success":true})");

    // 200 at once, then loading → loaded after the load delay.
    const qint64 loadAnswered = FakeLlamaServer::nowMs();
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Loading);
    client->get("/models");
    QVERIFY(client->waitForComplete(kTimeout, 16 + ownHead("200 OK", 16, false).size()));
    QVERIFY(client->data().contains(R"("id":"tiny-llama-a","aliases":[],"tags":[],"object":"model","owned_by":)"
                                    R"("llamacpp","created":)"));
    QVERIFY(client->data().contains(R"("status":{"value":"loading")"));

    QTRY_COMPARE_WITH_TIMEOUT(server->modelStatus(kA), FakeModelStatus::Loaded, kTimeout);
    QVERIFY(FakeLlamaServer::nowMs() - loadAnswered >= 100);
}

void tst_FakeRouter::loadErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray running = R"({"error":{"code":400,"message":"model is already running","type":"invalid_request_error"}})";
    const QByteArray notFound = R"({"error":{"message":"File Not Found","type":"not_found_error","code":404}})";
    QTest::newRow("already running (07)") << QByteArray(R"({"model":"tiny-llama-a"})")
                                          << ownHead("400 Bad Request", 90, true) + running;
    QTest::newRow("unknown (08)") << QByteArray(R"({"model":"no-such-model"})")
                                  << ownHead("404 Not Found", 74, true) + notFound;
}

void tst_FakeRouter::loadErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, expected);
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);
    CONNECT_CLIENT(client, server);

    client->post("/models/load", body);
    QVERIFY(client->waitForClose(kTimeout)); // errors close the connection
    QCOMPARE(client->data(), expected);
}

void tst_FakeRouter::unloadAndErrors()
{
    FakeOptions options = baseOptions();
    options.loaded = {kC};
    START_SERVER(server, options);

    {
        CONNECT_CLIENT(client, server);
        client->post("/models/unload", R"({"model":"tiny-gpt2bpe-c"})");
        QVERIFY(client->waitForComplete(kTimeout));
        QCOMPARE(client->data(), ownHead("200 OK", 16, false) + R"({"success":true})");
        // Still loaded until the child has exited (transcript 28).
        QCOMPARE(server->modelStatus(kC), FakeModelStatus::Loaded);
        QTRY_COMPARE_WITH_TIMEOUT(server->modelStatus(kC), FakeModelStatus::Unloaded, kTimeout);
    }
    {
        CONNECT_CLIENT(client, server);
        client->post("/models/unload", R"({"model":"tiny-gpt2bpe-c"})");
        QVERIFY(client->waitForClose(kTimeout));
        const QByteArray body = R"({"error":{"code":400,"message":"model is not running","type":"invalid_request_error"}})";
        QCOMPARE(client->data(), ownHead("400 Bad Request", 86, true) + body);
    }
    {
        CONNECT_CLIENT(client, server);
        client->post("/models/unload", R"({"model":"no-such-model"})");
        QVERIFY(client->waitForClose(kTimeout));
        const QByteArray body = R"({"error":{"code":400,"message":"model is not found","type":"invalid_request_error"}})";
        QCOMPARE(client->data(), ownHead("400 Bad Request", 84, true) + body);
    }
}

void tst_FakeRouter::sseLoadEventsNoReplay()
{
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(early, server);
    early->get("/models/sse");
    QVERIFY(early->waitForData("\r\n\r\n", kTimeout));
    QCOMPARE(early->data(), kStreamHead); // no snapshot on connect
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 1, kTimeout);

    server->setModelStatus(kB, FakeModelStatus::Unloaded); // already unloaded: no event
    CONNECT_CLIENT(loader, server);
    loader->post("/models/load", R"({"model":"tiny-llama-b"})");
    QVERIFY(early->waitForData(R"("status":"loaded")", kTimeout));

    const RawHttpClient::Response r = early->response();
    QCOMPARE(r.chunks.size(), 5); // one event per chunk
    for (const QByteArray &chunk : r.chunks) {
        QVERIFY(chunk.startsWith("data: {"));
        QVERIFY(chunk.endsWith("}\n\n"));
    }
    QCOMPARE(r.chunks.at(0), QByteArray(R"(data: {"model":"tiny-llama-b","event":"model_status","data":{"status":"loading"}})"
                                        "\n\n"));
    for (int i = 1; i <= 3; ++i) {
        QVERIFY(r.chunks.at(i).startsWith(R"(data: {"model":"tiny-llama-b","event":"status_change","data":{"status":"loading",)"
                                          R"("progress":{"stages":["text_model"],"current":"text_model","value":)"));
    }
    QVERIFY(r.chunks.at(1).contains(R"("value":0.0})"));
    QVERIFY(r.chunks.at(3).contains(R"("value":1.0})"));
    const QJsonObject loaded = jsonOf(r.chunks.at(4).mid(6));
    QCOMPARE(loaded.value(u"event"_s).toString(), u"status_change"_s);
    const QJsonObject info = loaded.value(u"data"_s).toObject().value(u"info"_s).toObject();
    QCOMPARE(info.value(u"id"_s).toString(), kB);
    QCOMPARE(info.value(u"meta"_s).toObject().value(u"n_ctx"_s).toInt(), 1024);

    // A late subscriber hears nothing of the past, only what comes next.
    CONNECT_CLIENT(late, server);
    late->get("/models/sse");
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 2, kTimeout);
    QVERIFY(late->waitForData("\r\n\r\n", kTimeout));
    QCOMPARE(late->data(), kStreamHead);

    CONNECT_CLIENT(unloader, server);
    unloader->post("/models/unload", R"({"model":"tiny-llama-b"})");
    const QByteArray unloaded = R"(data: {"model":"tiny-llama-b","event":"status_change","data":{"status":"unloaded","exit_code":0}})"
                                "\n\n";
    QVERIFY(late->waitForData(unloaded, kTimeout));
    QCOMPARE(late->response().chunks, QList<QByteArray>{unloaded});
    QVERIFY(early->waitForData(unloaded, kTimeout));

    // The SSE requests stay open; closing one is recorded as the client's doing.
    QSignalSpy cancelled(server.get(), &FakeLlamaServer::requestCancelled);
    late->abort();
    QVERIFY(cancelled.wait(kTimeout));
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 1, kTimeout);
}

void tst_FakeRouter::failedLoad()
{
    FakeOptions options = baseOptions();
    options.failLoad = {kB};
    START_SERVER(server, options);
    CONNECT_CLIENT(sse, server);
    sse->get("/models/sse");
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 1, kTimeout);

    CONNECT_CLIENT(loader, server);
    loader->post("/models/load", R"({"model":"tiny-llama-b"})");
    QVERIFY(loader->waitForComplete(kTimeout));
    QCOMPARE(loader->response().body, QByteArray(R"({"success":true})"));

    const QByteArray failed = R"(data: {"model":"tiny-llama-b","event":"status_change","data":{"status":"unloaded","exit_code":1}})"
                              "\n\n";
    QVERIFY(sse->waitForData(failed, kTimeout));
    const QList<QByteArray> chunks = sse->response().chunks;
    QCOMPARE(chunks.size(), 3); // as transcript 50: loading, progress 0.0, unloaded exit_code 1
    QVERIFY(chunks.at(0).contains(R"("event":"model_status","data":{"status":"loading"})"));
    QVERIFY(chunks.at(1).contains(R"("value":0.0})"));
    QCOMPARE(chunks.at(2), failed);

    CONNECT_CLIENT(list, server);
    list->get("/models");
    QVERIFY(list->waitForComplete(kTimeout));
    QVERIFY(list->response().body.contains(
        R"("preset":"[tiny-llama-b]\nctx-size = 1024\nmodel = /srv/models/tiny-llama-b.gguf\nthreads = 2\n\n",)"
        R"("exit_code":1,"failed":true},"architecture")"));

    // A request for it tries the load again and fails like transcript 53.
    CONNECT_CLIENT(chat, server);
    chat->post("/v1/chat/completions", chatBody(kB, 4, false));
    QVERIFY(chat->waitForClose(kTimeout));
    const QByteArray body = R"({"error":{"code":500,"message":"model name=tiny-llama-b failed to load","type":"server_error"}})";
    QCOMPARE(chat->data(), ownHead("500 Internal Server Error", body.size(), true) + body);
}

void tst_FakeRouter::lruEviction()
{
    FakeOptions options = baseOptions();
    options.maxModels = 2;
    options.loaded = {kA, kB};
    START_SERVER(server, options);

    // Use a, so b is the least recently used.
    {
        CONNECT_CLIENT(client, server);
        client->post("/v1/chat/completions", chatBody(kA, 2, false));
        QVERIFY(client->waitForClose(kTimeout));
    }
    CONNECT_CLIENT(sse, server);
    sse->get("/models/sse");
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 1, kTimeout);

    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", chatBody(kC, 2, false));
    QVERIFY(client->waitForClose(kTimeout));
    QCOMPARE(client->response().status(), 200);
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Loaded);
    QCOMPARE(server->modelStatus(kB), FakeModelStatus::Unloaded);
    QCOMPARE(server->modelStatus(kC), FakeModelStatus::Loaded);

    QVERIFY(sse->waitForData(R"("status":"unloaded")", kTimeout));
    const QList<QByteArray> chunks = sse->response().chunks;
    QCOMPARE(chunks.constFirst(),
             QByteArray(R"(data: {"model":"tiny-llama-b","event":"status_change","data":{"status":"unloaded","exit_code":0}})"
                        "\n\n"));
}

QTEST_GUILESS_MAIN(tst_FakeRouter)
