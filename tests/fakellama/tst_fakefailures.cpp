// The fake llama.cpp router's failure injection and control: failure modes, close, a single
// model, the /__fake endpoints, QNetworkAccessManager streaming, and the executable itself.
#include "tst_fakefailures.h"

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

// ---- failure injection and control ----------------------------------------------

void tst_FakeFailures::failureModes_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("afterEvents");

    QTest::newRow("drop") << int(FakeFailure::Mode::Drop) << 0;
    QTest::newRow("status") << int(FakeFailure::Mode::Status) << 0;
    QTest::newRow("stall") << int(FakeFailure::Mode::Stall) << 0;
    QTest::newRow("crash after 3") << int(FakeFailure::Mode::CrashMidStream) << 3;
    QTest::newRow("error after 2") << int(FakeFailure::Mode::ErrorMidStream) << 2;
    QTest::newRow("garbage") << int(FakeFailure::Mode::Garbage) << 0;
}

void tst_FakeFailures::failureModes()
{
    QFETCH(int, mode);
    QFETCH(int, afterEvents);

    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 200;
    START_SERVER(server, options);

    FakeFailure failure;
    failure.mode = FakeFailure::Mode(mode);
    failure.afterEvents = afterEvents;
    failure.status = 502;
    failure.body = "proxy error: connection refused";
    server->failNextRequests(1, failure);

    // Only requests for a model fail by default.
    {
        CONNECT_CLIENT(health, server);
        health->get("/health");
        QVERIFY(health->waitForComplete(kTimeout));
    }

    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", chatBody(kA, 8, true));
    const QByteArray done = "data: [DONE]\n\n";
    switch (FakeFailure::Mode(mode)) {
    case FakeFailure::Mode::Drop:
        QVERIFY(client->waitForClose(kTimeout));
        QVERIFY(client->data().isEmpty());
        QCOMPARE(server->received().constLast().status, 0);
        break;
    case FakeFailure::Mode::Status: {
        QVERIFY(client->waitForClose(kTimeout));
        const RawHttpClient::Response r = client->response();
        QCOMPARE(r.statusLine, QByteArray("HTTP/1.1 502 Bad Gateway"));
        QCOMPARE(r.header("Content-Type"), QByteArray("text/plain; charset=utf-8"));
        QCOMPARE(r.body, QByteArray("proxy error: connection refused"));
        break;
    }
    case FakeFailure::Mode::Stall: {
        QVERIFY(client->waitForData("\r\n\r\n", kTimeout));
        QCOMPARE(client->data(), routedHead("text/event-stream"));
        QSignalSpy cancelled(server.get(), &FakeLlamaServer::requestCancelled);
        QVERIFY(!cancelled.wait(100)); // nothing more comes...
        QCOMPARE(client->data(), routedHead("text/event-stream"));
        client->abort(); // ...until the client gives up
        QVERIFY(cancelled.wait(kTimeout));
        break;
    }
    case FakeFailure::Mode::CrashMidStream: {
        QVERIFY(client->waitForClose(kTimeout));
        const RawHttpClient::Response r = client->response();
        QVERIFY(!r.complete);
        QVERIFY(r.body.contains(R"("content":" tok2")"));
        QVERIFY(!r.body.contains(R"("content":" tok3")"));
        QVERIFY(!r.body.contains(done));
        QCOMPARE(server->received().constLast().tokensSent, 3);
        break;
    }
    case FakeFailure::Mode::ErrorMidStream: {
        QVERIFY(client->waitForClose(kTimeout));
        const RawHttpClient::Response r = client->response();
        QVERIFY(r.complete);
        QVERIFY(r.body.contains(R"("content":" tok1")"));
        QVERIFY(!r.body.contains(R"("content":" tok2")"));
        QVERIFY(r.body.endsWith(R"(data: {"error":{"code":500,"message":"fake: generation failed","type":"server_error"}})"
                                "\n\n"));
        QVERIFY(!r.body.contains(done));
        break;
    }
    case FakeFailure::Mode::Garbage:
        // The body as raw bytes instead of an HTTP answer, then the close.
        QVERIFY(client->waitForClose(kTimeout));
        QCOMPARE(client->data(), QByteArray("proxy error: connection refused"));
        break;
    }

    // The failure was used up: the next request is served normally.
    CONNECT_CLIENT(next, server);
    next->post("/v1/chat/completions", chatBody(kA, 2, true));
    QVERIFY(next->waitForClose(kTimeout));
    QVERIFY(next->response().body.endsWith(done));
}

void tst_FakeFailures::closeDropsEverything()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 50;
    START_SERVER(server, options);
    const quint16 port = server->port();

    CONNECT_CLIENT(sse, server);
    sse->get("/models/sse");
    CONNECT_CLIENT(stream, server);
    stream->post("/v1/chat/completions", chatBody(kA, 500, true));
    QVERIFY(stream->waitForData(R"(" tok1")", kTimeout));
    QTRY_COMPARE_WITH_TIMEOUT(server->sseSubscribers(), 1, kTimeout);

    server->close(); // the engine dies
    QVERIFY(sse->waitForClose(kTimeout));
    QVERIFY(stream->waitForClose(kTimeout));
    QVERIFY(!stream->data().contains("[DONE]"));
    QCOMPARE(server->activeGenerations(), 0);
    for (const ReceivedRequest &record : server->received())
        QVERIFY(!record.isOpen());

    // ...and comes back on the same port, fresh.
    QVERIFY(server->listen(QHostAddress(QHostAddress::LocalHost), port));
    QCOMPARE(server->modelStatus(kA), FakeModelStatus::Loaded); // --loaded again at start
    CONNECT_CLIENT(health, server);
    health->get("/health");
    QVERIFY(health->waitForComplete(kTimeout));
}

void tst_FakeFailures::singleModel()
{
    FakeOptions options;
    options.models = {kA};
    options.singleModel = true;
    options.loadDelay = 200ms;
    options.tokensPerSecond = 0;
    START_SERVER(server, options);

    // While its model loads a plain llama-server answers 503 to everything.
    {
        CONNECT_CLIENT(client, server);
        client->get("/health");
        QVERIFY(client->waitForClose(kTimeout));
        const QByteArray body = R"({"error":{"code":503,"message":"Loading model","type":"unavailable_error"}})";
        QCOMPARE(client->data(), ownHead("503 Service Unavailable", body.size(), true) + body);
    }
    QTRY_COMPARE_WITH_TIMEOUT(server->modelStatus(kA), FakeModelStatus::Loaded, kTimeout);

    // Then streams without Connection: close, and the connection stays open (transcript 60).
    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Hello"}],"max_tokens":3,"stream":true})");
    QVERIFY(client->waitForComplete(kTimeout));
    RawHttpClient::Response r = client->response();
    QCOMPARE(r.headBytes, kStreamHead);
    QCOMPARE(r.chunks.constLast(), QByteArray("data: [DONE]\n\n"));
    QVERIFY(r.chunks.constFirst().contains(R"("model":"tiny-llama-a")"));

    const qsizetype second = r.consumed;
    client->get("/v1/models");
    QVERIFY(client->waitForComplete(kTimeout, second));
    QVERIFY(!client->isClosed());
    r = client->response(second);
    QCOMPARE(r.headBytes, ownHead("200 OK", r.body.size(), false));
    QVERIFY(r.body.startsWith(R"({"models":[{"name":"tiny-llama-a","model":"tiny-llama-a","modified_at":"","size":"",)"));
    QVERIFY(r.body.contains(R"(],"object":"list","data":[{"id":"tiny-llama-a","aliases":["tiny-llama-a"],"tags":[],)"
                            R"("object":"model","created":)"));

    const qsizetype third = r.consumed + second;
    client->post("/v1/chat/completions", R"({"messages":[{"role":"user","content":"Hello"}],"max_tokens":2})");
    QVERIFY(client->waitForComplete(kTimeout, third));
    r = client->response(third);
    QCOMPARE(r.headBytes, ownHead("200 OK", r.body.size(), false));
    QVERIFY(r.body.contains(R"("content":" tok0 tok1")"));

    // No router endpoints.
    CONNECT_CLIENT(load, server);
    load->post("/models/load", R"({"model":"tiny-llama-a"})");
    QVERIFY(load->waitForClose(kTimeout));
    QCOMPARE(load->response().status(), 404);
}

void tst_FakeFailures::controlEndpoints()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    START_SERVER(server, options);

    {
        CONNECT_CLIENT(client, server);
        client->post("/__fake/config",
                     R"({"tokens_per_s":500,"fail_next":{"count":1,"mode":"status","status":502,"body":{"x":1}}})");
        QVERIFY(client->waitForComplete(kTimeout));
        QCOMPARE(client->response().body, QByteArray(R"({"success":true})"));
        QCOMPARE(server->options().tokensPerSecond, 500.0);
    }
    const QByteArray chat = chatBody(kA, 2, false);
    {
        CONNECT_CLIENT(client, server);
        client->post("/v1/chat/completions", chat);
        QVERIFY(client->waitForClose(kTimeout));
        QCOMPARE(client->response().status(), 502);
        QCOMPARE(client->response().body, QByteArray(R"({"x":1})"));
    }
    {
        CONNECT_CLIENT(client, server);
        client->get("/__fake/requests");
        QVERIFY(client->waitForComplete(kTimeout));
        const QJsonArray records = QJsonDocument::fromJson(client->response().body).array();
        QCOMPARE(records.size(), 1); // /__fake/ requests are not recorded
        const QJsonObject record = records.at(0).toObject();
        QCOMPARE(record.value(u"seq"_s).toInt(), 1);
        QCOMPARE(record.value(u"method"_s).toString(), u"POST"_s);
        QCOMPARE(record.value(u"path"_s).toString(), u"/v1/chat/completions"_s);
        QCOMPARE(record.value(u"body"_s).toString().toUtf8(), chat);
        QCOMPARE(record.value(u"status"_s).toInt(), 502);
        QCOMPARE(record.value(u"headers"_s).toObject().value(u"content-type"_s).toString(), u"application/json"_s);
        QVERIFY(record.value(u"received_at_ms"_s).toDouble() > 0);
        QVERIFY(record.value(u"finished_at_ms"_s).toDouble() >= record.value(u"received_at_ms"_s).toDouble());
        QCOMPARE(record.value(u"cancelled_at_ms"_s).toInt(), -1);
    }
    {
        CONNECT_CLIENT(client, server);
        client->post("/__fake/config", R"({"model_status":{"tiny-llama-b":"loaded"},"bogus":1})");
        QVERIFY(client->waitForClose(kTimeout));
        QCOMPARE(client->response().status(), 400);
        QVERIFY(client->response().body.contains("unknown knob 'bogus'"));
        QCOMPARE(server->modelStatus(kB), FakeModelStatus::Unloaded); // nothing applied
    }
    {
        CONNECT_CLIENT(client, server);
        client->post("/__fake/config", R"({"model_status":{"tiny-llama-b":"loaded"}})");
        QVERIFY(client->waitForComplete(kTimeout));
        QCOMPARE(server->modelStatus(kB), FakeModelStatus::Loaded);
    }
    {
        CONNECT_CLIENT(client, server);
        client->post("/__fake/reset", {});
        QVERIFY(client->waitForComplete(kTimeout));
        QVERIFY(server->received().isEmpty());
        client->get("/__fake/requests");
        QTRY_VERIFY_WITH_TIMEOUT(client->response(client->response().consumed).complete, kTimeout);
        QCOMPARE(client->response(client->response().consumed).body, QByteArray("[]"));
    }
}

void tst_FakeFailures::qnamStreaming()
{
    FakeOptions options = baseOptions();
    options.loaded = {kA};
    options.tokensPerSecond = 500;
    START_SERVER(server, options);

    QNetworkAccessManager manager;
    for (int round = 0; round < 2; ++round) { // the router's Connection: close must not trouble a pooled client
        QNetworkRequest request(server->baseUrl().resolved(QUrl(u"/v1/chat/completions"_s)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        QNetworkReply *reply = manager.post(request, chatBody(kA, 20, true));
        QByteArray body;
        int reads = 0;
        connect(reply, &QNetworkReply::readyRead, this, [&] {
            body += reply->readAll();
            ++reads;
        });
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY(finished.wait(kTimeout));
        body += reply->readAll();
        QCOMPARE(reply->error(), QNetworkReply::NoError);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QVERIFY(reads > 1);
        QCOMPARE(sseData(body).size(), 23); // role, 20 tokens, finish, [DONE]
        QVERIFY(body.endsWith("data: [DONE]\n\n"));
        reply->deleteLater();
    }
}

void tst_FakeFailures::executable()
{
    // ctest says where the binaries are; run by hand, they sit next to this test.
    QString binDir = qEnvironmentVariable("SWITCHYARD_BIN_DIR");
    if (binDir.isEmpty())
        binDir = QCoreApplication::applicationDirPath();

    QProcess process;
    process.setProgram(binDir + u"/switchyard-fakellama"_s);
    process.setArguments({u"--port"_s, u"0"_s, u"--models"_s, u"a,b"_s, u"--load-ms"_s, u"20"_s});
    process.start();
    QVERIFY2(process.waitForStarted(kTimeout), qPrintable(process.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), kTimeout);
    const QByteArray line = process.readLine().trimmed();
    QVERIFY2(line.startsWith("fakellama listening on http://127.0.0.1:"), line.constData());
    const quint16 port = line.mid(line.lastIndexOf(':') + 1).toUShort();
    QVERIFY(port > 0);

    RawHttpClient client(port);
    QVERIFY(client.connectToServer());
    client.post("/__fake/config", R"({"tokens_per_s":0})");
    QVERIFY(client.waitForComplete(kTimeout));
    qsizetype offset = client.response().consumed;
    client.get("/health");
    QVERIFY(client.waitForComplete(kTimeout, offset));
    offset += client.response(offset).consumed;
    client.get("/__fake/requests");
    QVERIFY(client.waitForComplete(kTimeout, offset));
    const QJsonArray records = QJsonDocument::fromJson(client.response(offset).body).array();
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.at(0).toObject().value(u"path"_s).toString(), u"/health"_s);

    process.terminate(); // SIGTERM
    QVERIFY(process.waitForFinished(kTimeout));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
}

QTEST_GUILESS_MAIN(tst_FakeFailures)
