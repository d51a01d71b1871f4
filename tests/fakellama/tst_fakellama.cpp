// Tests of the fake llama.cpp router: that it answers like the recorded real
// one (/work/shared/llama-transcripts), byte for byte where it matters.

#include "tst_fakellama.h"

#include "fakejsonsyntax.h"
#include "fakejsonwriter.h"
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

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace switchyard::fake;

namespace {

const QString kC = u"tiny-gpt2bpe-c"_s;
const QString kA = u"tiny-llama-a"_s;
const QString kB = u"tiny-llama-b"_s;

constexpr int kTimeout = 3000;

FakeOptions baseOptions()
{
    FakeOptions options;
    options.models = {kA, kB, kC};
    options.modelContext.insert(kB, 1024);
    options.loadDelay = 150ms;
    options.unloadDelay = 30ms;
    options.tokensPerSecond = 0;
    return options;
}

QByteArray ownHead(const QByteArray &statusLine, qsizetype length, bool close)
{
    return "HTTP/1.1 " + statusLine + "\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\n"
           "Content-Type: application/json; charset=utf-8\r\nContent-Length: "
        + QByteArray::number(length) + "\r\n" + (close ? "Connection: close\r\n" : "Keep-Alive: timeout=5, max=100\r\n")
        + "\r\n";
}

QByteArray routedHead(const QByteArray &contentType)
{
    return "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nConnection: close\r\n"
           "X-Accel-Buffering: no\r\nContent-Type: "
        + contentType + "\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n";
}

QByteArray routedErrorHead(const QByteArray &statusLine)
{
    return "HTTP/1.1 " + statusLine + "\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nConnection: close\r\n"
           "X-Accel-Buffering: no\r\nContent-Type: application/json; charset=utf-8\r\n"
           "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
}

const QByteArray kStreamHead =
    "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nX-Accel-Buffering: no\r\n"
    "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n";

QByteArray chunked(const QByteArray &body)
{
    return QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n";
}

QByteArray chatBody(const QString &model, int maxTokens, bool stream, const QJsonObject &extra = {})
{
    QJsonObject body{{u"model"_s, model},
                     {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Hello there"_s}}}}};
    if (maxTokens >= 0)
        body.insert(u"max_tokens"_s, maxTokens);
    if (stream)
        body.insert(u"stream"_s, true);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QJsonObject jsonOf(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

// The `data:` payloads of an SSE body (skipping `:` comments).
QList<QByteArray> sseData(const QByteArray &body)
{
    QList<QByteArray> out;
    for (const QByteArray &frame : body.split('\n')) {
        if (frame.startsWith("data: "))
            out.append(frame.mid(6));
    }
    return out;
}

// The `event:` names of an Anthropic-style SSE body.
QList<QByteArray> sseEvents(const QByteArray &body)
{
    QList<QByteArray> out;
    for (const QByteArray &line : body.split('\n')) {
        if (line.startsWith("event: "))
            out.append(line.mid(7));
    }
    return out;
}

QByteArray words(int count)
{
    QByteArray text;
    for (int i = 0; i < count; ++i)
        text += (i ? " word" : "word") + QByteArray::number(i);
    return text;
}

} // namespace

#define START_SERVER(var, options)                                                                                   \
    auto var = std::make_unique<FakeLlamaServer>(options);                                                           \
    QVERIFY2(var->listen(), qPrintable(var->errorString()))

#define CONNECT_CLIENT(var, server)                                                                                  \
    auto var = std::make_unique<RawHttpClient>((server)->port());                                                    \
    QVERIFY(var->connectToServer())


// ---- building blocks ------------------------------------------------------------

// What the real llama-server (v0.5.0, de3ff81) answered to these bodies on /v1/chat/completions
// and /models/load: nlohmann::json's parse errors, word for word.
void tst_FakeLlama::jsonSyntax_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("message");   // empty: valid JSON
    const QString p = u"[json.exception.parse_error.101] parse error at "_s;
    QTest::newRow("empty") << QByteArray()
        << p + u"line 1, column 1: attempting to parse an empty input; check that your input string or stream contains the expected JSON"_s;
    QTest::newRow("blanks") << QByteArray("  ")
        << p + u"line 1, column 3: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut value") << QByteArray(R"({"model":)")
        << p + u"line 1, column 10: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut on line 3") << QByteArray("{\n\"model\":\n")
        << p + u"line 3, column 1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut key") << QByteArray(R"({"model":"tiny-llama-a",)")
        << p + u"line 1, column 25: syntax error while parsing object key - unexpected end of input; expected string literal"_s;
    QTest::newRow("bad literal") << QByteArray(R"({"model": x})")
        << p + u"line 1, column 11: syntax error while parsing value - invalid literal; last read: '\"model\": x'"_s;
    QTest::newRow("trailing") << QByteArray(R"({"model":"tiny-llama-a"} x)")
        << p + u"line 1, column 26: syntax error while parsing value - invalid literal; last read: '\"tiny-llama-a\"} x'; expected end of input"_s;
    QTest::newRow("tru") << QByteArray(R"({"a":tru})")
        << p + u"line 1, column 9: syntax error while parsing value - invalid literal; last read: '\"a\":tru}'"_s;
    QTest::newRow("open string") << QByteArray(R"({"a":"abc)")
        << p + u"line 1, column 10: syntax error while parsing value - invalid string: missing closing quote; last read: '\"abc'"_s;
    QTest::newRow("no colon") << QByteArray(R"({"a" 1})")
        << p + u"line 1, column 6: syntax error while parsing object separator - unexpected number literal; expected ':'"_s;
    QTest::newRow("cut object") << QByteArray(R"({"a":1 )")
        << p + u"line 1, column 8: syntax error while parsing object - unexpected end of input; expected '}'"_s;
    QTest::newRow("cut array value") << QByteArray("[1,")
        << p + u"line 1, column 4: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"_s;
    QTest::newRow("cut array") << QByteArray("[1 ")
        << p + u"line 1, column 4: syntax error while parsing array - unexpected end of input; expected ']'"_s;
    QTest::newRow("minus") << QByteArray(R"({"a":-})")
        << p + u"line 1, column 7: syntax error while parsing value - invalid number; expected digit after '-'; last read: '-}'"_s;
    QTest::newRow("point") << QByteArray(R"({"a":1.})")
        << p + u"line 1, column 8: syntax error while parsing value - invalid number; expected digit after '.'; last read: '1.}'"_s;
    QTest::newRow("raw newline") << QByteArray("{\"a\":\"\n\"}")
        << p + u"line 2, column 0: syntax error while parsing value - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"<U+000A>'"_s;
    QTest::newRow("bad escape") << QByteArray(R"({"a":"\q"})")
        << p + u"line 1, column 8: syntax error while parsing value - invalid string: forbidden character after backslash; last read: '\"\\q'"_s;
    QTest::newRow("key is a literal") << QByteArray("{x")
        << p + u"line 1, column 2: syntax error while parsing object key - invalid literal; last read: '{x'; expected string literal"_s;
    QTest::newRow("comma brace") << QByteArray(R"({"a":1,})")
        << p + u"line 1, column 8: syntax error while parsing object key - unexpected '}'; expected string literal"_s;
    QTest::newRow("two values") << QByteArray(R"({"a":1 2})")
        << p + u"line 1, column 8: syntax error while parsing object - unexpected number literal; expected '}'"_s;
    QTest::newRow("close first") << QByteArray("]")
        << p + u"line 1, column 1: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"_s;
    // A cut UTF-8 sequence: one U+FFFD where the real one writes one.
    QTest::newRow("cut UTF-8") << QByteArray("{\"model\":\"no-such\",\"messages\":[{\"content\":\"h\xc3\xa9llo \xe4\x96\xe7\x95\x8c\"}]}")
        << p + u"line 1, column 53: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"h\u00e9llo \ufffd\ufffd'"_s;
    QTest::newRow("number overflow") << QByteArray(R"({"a":[-1e999]})")
        << u"[json.exception.out_of_range.406] number overflow parsing '-1e999'"_s;
    QTest::newRow("long integer") << QByteArray(R"({"a":123456789012345678901234567890})") << QString();
    QTest::newRow("valid") << QByteArray(R"({"model":"x","a":[true,false,null,-0,1E+2,0.5e-1,"\u00e9\ud83d\ude00"]})") << QString();
    QTest::newRow("valid array") << QByteArray("[1]") << QString();
    QTest::newRow("valid string") << QByteArray(R"( "str" )") << QString();
}

void tst_FakeLlama::jsonSyntax()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, message);
    QCOMPARE(jsonSyntaxError(body).value_or(QString()), message);
}

void tst_FakeLlama::jsonNumbers_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("zero") << 0.0 << QByteArray("0.0");
    QTest::newRow("one") << 1.0 << QByteArray("1.0");
    QTest::newRow("float temperature") << double(0.8f) << QByteArray("0.800000011920929");
    QTest::newRow("rate") << 1587.4695734998413 << QByteArray("1587.4695734998413");
    QTest::newRow("negative") << -1.0 << QByteArray("-1.0");
}

void tst_FakeLlama::jsonNumbers()
{
    QFETCH(double, value);
    QFETCH(QByteArray, expected);
    QCOMPARE(FakeJsonWriter::number(value), expected);
}

void tst_FakeLlama::promptEstimate_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("tokens");
    QTest::newRow("chat string") << QByteArray(R"({"messages":[{"role":"user","content":"Hello there"}]})") << 12;
    QTest::newRow("chat parts")
        << QByteArray(R"({"messages":[{"role":"user","content":[{"type":"text","text":"one two three"}]}]})") << 13;
    QTest::newRow("anthropic system")
        << QByteArray(R"({"system":"be brief","messages":[{"role":"user","content":"Hello"}]})") << 13;
    QTest::newRow("prompt") << QByteArray(R"({"prompt":"a b c d"})") << 14;
    QTest::newRow("responses input") << QByteArray(R"({"input":"a b"})") << 12;
    QTest::newRow("empty") << QByteArray("{}") << 10;
}

void tst_FakeLlama::promptEstimate()
{
    QFETCH(QByteArray, body);
    QFETCH(int, tokens);
    QCOMPARE(FakeInferenceRequest::estimatePromptTokens(jsonOf(body)), tokens);
}

void tst_FakeLlama::parseOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("errorPart");

    const QString p = u"switchyard-fakellama"_s;
    QTest::newRow("full") << QStringList{p, u"--port"_s, u"0"_s, u"--models"_s, u"a,b,c"_s, u"--load-ms"_s,
                                         u"10"_s, u"--tokens-per-s"_s, u"2.5"_s, u"--max-models"_s, u"2"_s,
                                         u"--ctx"_s, u"512"_s, u"--fail-load"_s, u"b"_s, u"--loaded"_s, u"a"_s,
                                         u"--loaded"_s, u"c"_s, u"--no-autoload"_s, u"--prefill-ms"_s, u"5"_s,
                                         u"--ping-ms"_s, u"7"_s, u"--reject-late-system"_s, u"--model-ctx"_s,
                                         u"b=64"_s}
                          << true << QString();
    QTest::newRow("no models") << QStringList{p, u"--port"_s, u"0"_s} << false << u"--models"_s;
    QTest::newRow("bad number") << QStringList{p, u"--models"_s, u"a"_s, u"--load-ms"_s, u"soon"_s} << false
                                << u"--load-ms"_s;
    QTest::newRow("big port") << QStringList{p, u"--models"_s, u"a"_s, u"--port"_s, u"70000"_s} << false
                              << u"--port"_s;
    QTest::newRow("unknown fail-load") << QStringList{p, u"--models"_s, u"a"_s, u"--fail-load"_s, u"z"_s} << false
                                       << u"--fail-load z"_s;
    QTest::newRow("single with two") << QStringList{p, u"--models"_s, u"a,b"_s, u"--single-model"_s} << false
                                     << u"exactly one"_s;
    QTest::newRow("unknown flag") << QStringList{p, u"--models"_s, u"a"_s, u"--bogus"_s} << false << u"bogus"_s;
}

void tst_FakeLlama::parseOptions()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, ok);
    QFETCH(QString, errorPart);

    QString error;
    const FakeOptions options = parseFakeOptions(arguments, &error);
    QCOMPARE(error.isEmpty(), ok);
    if (!ok) {
        QVERIFY2(error.contains(errorPart), qPrintable(error));
        return;
    }
    QCOMPARE(options.models, (QStringList{u"a"_s, u"b"_s, u"c"_s}));
    QCOMPARE(options.loadDelay, 10ms);
    QCOMPARE(options.tokensPerSecond, 2.5);
    QCOMPARE(options.maxModels, 2);
    QCOMPARE(options.contextSize, 512);
    QCOMPARE(options.modelContext.value(u"b"_s), 64);
    QCOMPARE(options.failLoad, QStringList{u"b"_s});
    QCOMPARE(options.loaded, (QStringList{u"a"_s, u"c"_s}));
    QVERIFY(!options.autoload);
    QCOMPARE(options.prefillDelay, 5ms);
    QCOMPARE(options.pingInterval, 7ms);
    QVERIFY(options.rejectLateSystem);
    QVERIFY(!options.singleModel);
}

// ---- router endpoints -----------------------------------------------------------

void tst_FakeLlama::health_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("health") << QByteArray("/health");
    QTest::newRow("v1 health") << QByteArray("/v1/health");
}

void tst_FakeLlama::health()
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

void tst_FakeLlama::keepAliveSequentialRequests()
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

void tst_FakeLlama::unknownPath()
{
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);
    client->get("/no/such/path");
    QVERIFY(client->waitForClose(kTimeout));
    const QByteArray body = R"({"error":{"message":"File Not Found","type":"not_found_error","code":404}})";
    QCOMPARE(client->data(), ownHead("404 Not Found", body.size(), true) + body);
}

void tst_FakeLlama::headRequest()
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

void tst_FakeLlama::modelsList()
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

void tst_FakeLlama::routerProps()
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

void tst_FakeLlama::loadTransitions()
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

void tst_FakeLlama::loadErrors_data()
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

void tst_FakeLlama::loadErrors()
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

void tst_FakeLlama::unloadAndErrors()
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

void tst_FakeLlama::sseLoadEventsNoReplay()
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

void tst_FakeLlama::failedLoad()
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

void tst_FakeLlama::lruEviction()
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

// ---- requests for a model --------------------------------------------------------

void tst_FakeLlama::streamingChatFraming()
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

void tst_FakeLlama::streamingUsageChunk()
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
void tst_FakeLlama::slotApi()
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

void tst_FakeLlama::nonStreamingChat()
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

void tst_FakeLlama::messagesStream()
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

void tst_FakeLlama::otherApis_data()
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

void tst_FakeLlama::otherApis()
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

void tst_FakeLlama::countTokens()
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

void tst_FakeLlama::childProps()
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

void tst_FakeLlama::autoloadHoldsSilently()
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

void tst_FakeLlama::autoloadOff_data()
{
    QTest::addColumn<bool>("globalAutoload");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");

    QTest::newRow("--no-autoload") << false << QByteArray("POST") << QByteArray("/v1/chat/completions");
    QTest::newRow("?autoload=false (16)") << true << QByteArray("POST") << QByteArray("/v1/chat/completions?autoload=false");
    QTest::newRow("props autoload=false (31)") << true << QByteArray("GET")
                                               << QByteArray("/props?model=tiny-gpt2bpe-c&autoload=false");
}

void tst_FakeLlama::autoloadOff()
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

void tst_FakeLlama::modelErrors_data()
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

void tst_FakeLlama::modelErrors()
{
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, expected);
    START_SERVER(server, baseOptions());
    CONNECT_CLIENT(client, server);
    client->post("/v1/chat/completions", body);
    QVERIFY(client->waitForClose(kTimeout));
    QCOMPARE(client->data(), expected);
}

void tst_FakeLlama::contextOverflow_data()
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

void tst_FakeLlama::contextOverflow()
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

void tst_FakeLlama::lateSystemMessage_data()
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

void tst_FakeLlama::lateSystemMessage()
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

void tst_FakeLlama::prefillPings()
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

void tst_FakeLlama::clientCancelStopsGeneration()
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

void tst_FakeLlama::unloadCutsRunningStream()
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

// ---- failure injection and control ----------------------------------------------

void tst_FakeLlama::failureModes_data()
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

void tst_FakeLlama::failureModes()
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

void tst_FakeLlama::closeDropsEverything()
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

void tst_FakeLlama::singleModel()
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

void tst_FakeLlama::controlEndpoints()
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

void tst_FakeLlama::qnamStreaming()
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

void tst_FakeLlama::executable()
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

QTEST_GUILESS_MAIN(tst_FakeLlama)
