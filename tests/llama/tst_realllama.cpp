// The real llama.cpp llama-server in the test suite (issue 17), as a router: the fake router
// (src/fakellama/) answers as the real one does (same statuses, error bodies, headers that matter,
// SSE framing, the slot API), router engines without a "models" list are discovered, and the relay
// hears a router's load progress (0.0 ... 1.0, then loaded) on its /models/sse and keeps none once
// the model is up. The relay's hosts over real engines are tst_realllamahosts. realllamafixture.h
// says how the servers are found, started and killed.
#include "realllamafixture.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::llama;
using namespace Qt::StringLiterals;

class TestRealLlama : public RealLlamaFixture
{
    Q_OBJECT

private Q_SLOTS:
    void fakeAnswersAsTheRealRouter();
    void routerEnginesAreDiscovered();
    void relayHearsTheRoutersLoadProgress();
    void fakeAnswersTheSlotApiAsTheRealServer();
};

// ---- a. the fake router answers as the real one ---------------------------------------------

void TestRealLlama::fakeAnswersAsTheRealRouter()
{
    const QString dir = freshDir(u"compare"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s, u"tiny-llama-c"_s});
    const quint16 realPort = portForLater();
    const quint16 fakePort = portForLater();
    Server *real = startServer(llamaArgv(realPort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"256"_s,
                                                    u"--models-max"_s, u"2"_s}),
                               u"compare-real"_s);
    QVERIFY(real);
    Server *fake = startServer({fakeBinary(), u"--port"_s, QString::number(fakePort), u"--models"_s,
                                u"tiny-llama-a,tiny-llama-b,tiny-llama-c"_s, u"--ctx"_s, u"256"_s,
                                u"--max-models"_s, u"2"_s, u"--load-ms"_s, u"200"_s, u"--tokens-per-s"_s, u"0"_s},
                               u"compare-fake"_s);
    QVERIFY(fake);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(realPort), qPrintable(logs()), 15000);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(fakePort), qPrintable(logs()), 5000);

    struct Pair
    {
        Reply real, fake;
    };
    auto both = [&](const QByteArray &raw) {
        return Pair{fetch(realPort, raw), fetch(fakePort, raw)};
    };
    auto sameHead = [](const char *what, const Pair &p) {
        const QString r = headSummary(p.real), f = headSummary(p.fake);
        if (r != f)
            qWarning("%s: real head %s, fake %s", what, qPrintable(r), qPrintable(f));
        return r == f;
    };
    auto sameBody = [](const char *what, const Pair &p) {
        if (p.real.body != p.fake.body)
            qWarning("%s:\n  real %s\n  fake %s", what, p.real.body.constData(), p.fake.body.constData());
        return p.real.body == p.fake.body;
    };
    auto sameShape = [](const char *what, const Pair &p) {
        const QString r = skeletonText(p.real.body), f = skeletonText(p.fake.body);
        if (r != f)
            qWarning("%s:\n  real %s\n  fake %s", what, qPrintable(r), qPrintable(f));
        return r == f;
    };
    // Token deltas come in runs (the real one may join tokens that split a UTF-8 character), so
    // a run of equal frames counts once.
    auto sameFrames = [](const char *what, const Pair &p) {
        const QStringList r = collapseRuns(sseFrames(p.real.body)), f = collapseRuns(sseFrames(p.fake.body));
        if (r != f) {
            qWarning("%s: real frames:\n%s\nfake frames:\n%s", what, qPrintable(r.join(u"\n"_s)),
                     qPrintable(f.join(u"\n"_s)));
        }
        return r == f;
    };
    auto statusIn = [&](const QString &model, const QString &want) {
        return modelStatus(get(realPort, "/models"), model) == want && modelStatus(get(fakePort, "/models"), model) == want;
    };

    // Health, and the model list before anything is loaded.
    Pair p = both(RawHttpClient::get("/health"));
    QVERIFY(sameHead("GET /health", p));
    QVERIFY(sameBody("GET /health", p));
    for (const QByteArray &path : {QByteArray("/models"), QByteArray("/v1/models")}) {
        p = both(RawHttpClient::get(path));
        QVERIFY(sameHead(path.constData(), p));
        QCOMPARE(modelIds(p.fake), modelIds(p.real));
        for (const QString &id : modelIds(p.real))
            QCOMPARE(modelStatus(p.fake, id), modelStatus(p.real, id));
        const QJsonObject r = p.real.json().value("data"_L1).toArray().at(0).toObject();
        const QJsonObject f = p.fake.json().value("data"_L1).toArray().at(0).toObject();
        QCOMPARE(f.keys(), r.keys());
        QCOMPARE(f.value("status"_L1).toObject().keys(), r.value("status"_L1).toObject().keys());
        QCOMPARE(p.fake.json().keys(), p.real.json().keys());
    }

    // Load: new, already running, unknown.
    p = both(RawHttpClient::post("/models/load", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("load", p));
    QVERIFY(sameBody("load", p));
    QTRY_VERIFY_WITH_TIMEOUT(statusIn(u"tiny-llama-a"_s, u"loaded"_s), 20000);
    p = both(RawHttpClient::post("/models/load", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("load again", p));
    QVERIFY(sameBody("load again", p));
    p = both(RawHttpClient::post("/models/load", modelBody(u"no-such-model"_s)));
    QVERIFY(sameHead("load unknown", p));
    QVERIFY(sameBody("load unknown", p));

    // The list once a model is loaded: the entry gains its meta.
    p = both(RawHttpClient::get("/models"));
    for (const QJsonValue &v : p.real.json().value("data"_L1).toArray()) {
        const QString id = v.toObject().value("id"_L1).toString();
        for (const QJsonValue &w : p.fake.json().value("data"_L1).toArray()) {
            if (w.toObject().value("id"_L1).toString() != id)
                continue;
            QCOMPARE(w.toObject().keys(), v.toObject().keys());
            QCOMPARE(w.toObject().value("meta"_L1).toObject().keys(), v.toObject().value("meta"_L1).toObject().keys());
        }
    }

    // Unload: not running, unknown.
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-b"_s)));
    QVERIFY(sameHead("unload not running", p));
    QVERIFY(sameBody("unload not running", p));
    p = both(RawHttpClient::post("/models/unload", modelBody(u"no-such-model"_s)));
    QVERIFY(sameHead("unload unknown", p));
    QVERIFY(sameBody("unload unknown", p));

    // Completions, plain and streamed, OpenAI's and Anthropic's.
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"tiny-llama-a"_s, 4, false)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("chat", p));
    QVERIFY(sameShape("chat", p));
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"tiny-llama-a"_s, 4, true)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("chat stream", p));
    QVERIFY(sameFrames("chat stream", p));
    QVERIFY(p.real.body.endsWith("data: [DONE]\n\n"));
    QVERIFY2(collapseRuns(sseFrames(p.real.body)).size() >= 4, p.real.body.constData());   // role, text, finish, [DONE]
    {
        QJsonObject body = QJsonDocument::fromJson(chatBody(u"tiny-llama-a"_s, 4, true)).object();
        body.insert("stream_options"_L1, QJsonObject{{"include_usage"_L1, true}});
        p = both(RawHttpClient::post("/v1/chat/completions", QJsonDocument(body).toJson(QJsonDocument::Compact)));
        QVERIFY(sameHead("chat stream with usage", p));
        QVERIFY(sameFrames("chat stream with usage", p));
    }
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"tiny-llama-a"_s, 4, false)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("messages", p));
    QVERIFY(sameShape("messages", p));
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"tiny-llama-a"_s, 4, true)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("messages stream", p));
    QVERIFY(sameFrames("messages stream", p));
    QVERIFY2(p.real.body.contains("event: content_block_delta\n") && p.real.body.endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
             p.real.body.constData());

    // Requests that name no model, or one the router does not have.
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(QString(), 4, false)));
    QVERIFY(sameHead("missing model", p));
    QVERIFY(sameBody("missing model", p));
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"no-such-model"_s, 4, true)));
    QVERIFY(sameHead("unknown model", p));
    QVERIFY(sameBody("unknown model", p));
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"no-such-model"_s, 4, true)));
    QVERIFY(sameHead("unknown model, messages", p));
    QVERIFY(sameBody("unknown model, messages", p));

    // A prompt over the context: a plain JSON 400, streamed or not, on both APIs.
    QStringList words;
    for (int i = 0; i < 400; ++i)
        words << u"word%1"_s.arg(i);
    for (const QByteArray &path : {QByteArray("/v1/chat/completions"), QByteArray("/v1/messages")}) {
        for (const bool stream : {false, true}) {
            const QByteArray what = path + (stream ? " stream" : "") + " over the context";
            p = both(RawHttpClient::post(path, chatBody(u"tiny-llama-a"_s, 4, stream, words.join(u' '))));
            QCOMPARE(p.real.status, 400);
            QVERIFY(sameHead(what.constData(), p));
            QCOMPARE(withoutTokenCounts(p.fake.body), withoutTokenCounts(p.real.body));
        }
    }

    // Unload of a loaded model, then the model reads unloaded on both.
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("unload", p));
    QVERIFY(sameBody("unload", p));
    QTRY_VERIFY_WITH_TIMEOUT(statusIn(u"tiny-llama-a"_s, u"unloaded"_s), 20000);
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameBody("unload again", p));

    // An unknown path and a body that is not JSON.
    p = both(RawHttpClient::get("/no/such/path"));
    QVERIFY(sameHead("unknown path", p));
    QVERIFY(sameBody("unknown path", p));
    // Bodies that are not JSON (the parser's 500, word for word) or no object.
    const QList<QByteArray> broken{"", "{\"model\":", "{\"model\":\"tiny-llama-a\"} x", "{\"a\":tru}", "{\"a\":\"\n\"}",
                                   "{\"a\":-}", "[1,", "{\"a\":\"h\xc3\xa9llo \xe4\x96\xe7\x95\x8c\"}", "[1]", "{\"model\":5}", "{\"a\":[-1e999]}"};
    for (const QByteArray &body : broken) {
        for (const QByteArray &path : {QByteArray("/v1/chat/completions"), QByteArray("/v1/messages"), QByteArray("/models/load")}) {
            const QByteArray what = path + " with " + body;
            p = both(RawHttpClient::post(path, body));
            QVERIFY(sameHead(what.constData(), p));
            QVERIFY(sameBody(what.constData(), p));
        }
    }
}

// ---- e. router engines with no "models" list ------------------------------------------------

void TestRealLlama::routerEnginesAreDiscovered()
{
    const QString dirA = freshDir(u"discover-a"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s});
    const QString dirB = freshDir(u"discover-b"_s, {u"tiny-llama-c"_s});
    auto engine = [&](const QString &dir) {
        QJsonArray argv;
        const quint16 p = portForLater();
        for (const QString &a : llamaArgv(p, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"1024"_s,
                                               u"--models-max"_s, u"1"_s}))
            argv.append(a);
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(p)}, {"argv"_L1, argv}, {"start_timeout_s"_L1, 30}};
    };
    const QString state = m_tmp.filePath(u"discover-state"_s);   // fresh and empty: nothing remembered
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, state},
                           {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                                         {"engines"_L1, QJsonObject{
                                                                             {"ra"_L1, engine(dirA)},
                                                                             {"rb"_L1, engine(dirB)}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, state + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    const QStringList want{u"ws-tiny-llama-a"_s, u"ws-tiny-llama-b"_s, u"ws-tiny-llama-c"_s};
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY2_WITH_TIMEOUT(modelIds(get(port, "/v1/models", 5000)) == want,
                              qPrintable(modelIds(get(port, "/v1/models", 5000)).join(u", "_s)), 15000);
    qInfo("every model of both engines listed after %lld ms", clock.elapsed());
    // And a model of each engine is served.
    for (const QString &alias : {u"ws-tiny-llama-c"_s, u"ws-tiny-llama-a"_s}) {
        const Reply r = post(port, "/v1/chat/completions", chatBody(alias, 4, false), 40000);
        QVERIFY2(r.status == 200, qPrintable(u"%1: %2 %3"_s.arg(alias).arg(r.status).arg(QString::fromUtf8(r.body))));
    }
}

// The load progress a real router sends on /models/sse (transcript 05: 0.0, 0.0, 1.0, loaded)
// reaches the relay's feed, parses, and ends with the load (issue 22, item 1).
void TestRealLlama::relayHearsTheRoutersLoadProgress()
{
    const QString dir = freshDir(u"progress"_s, {u"tiny-llama-a"_s});
    const quint16 enginePort = portForLater();
    Server *server = startServer(llamaArgv(enginePort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"1024"_s}),
                                 u"progress"_s);
    QVERIFY(server);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(enginePort), qPrintable(logs()), 15000);
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"box"_L1, QJsonObject{{"driver"_L1, "static"_L1},
                                                       {"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{
                                                           {"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)}}}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(relay->modelEvents()->isConnected(u"box"_s), 10000);
    QList<ProgressEvent> heard;
    connect(relay->modelEvents(), &ModelEvents::event, this, [&heard](const QByteArray &frame) {
        const std::optional<ProgressEvent> e = parseProgressEvent(frame.mid(6).trimmed());   // after "data: "
        if (e && e->model == "box-tiny-llama-a"_L1)   // relabelled: the alias
            heard.append(*e);
    });

    const Reply r = post(relay->endpoint().port(), "/models/load", modelBody(u"box-tiny-llama-a"_s), 10000);
    QVERIFY2(r.status == 200, r.body.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!heard.isEmpty() && heard.last().kind == ProgressEvent::Kind::Ended, 30000);
    QString seen;
    for (const ProgressEvent &e : std::as_const(heard))
        seen += e.kind == ProgressEvent::Kind::Load ? u"%1 "_s.arg(e.progress.value.value_or(-1)) : u"end "_s;
    qInfo("progress heard: %s", qPrintable(seen));
    QVERIFY2(heard.size() >= 3, qPrintable(seen));
    QCOMPARE(heard.first().kind, ProgressEvent::Kind::Load);
    QCOMPARE(heard.first().progress.value.value_or(-1), 0.0);
    QCOMPARE(heard.first().progress.stage, u"text_model"_s);
    const ProgressEvent &last = heard.at(heard.size() - 2);
    QCOMPARE(last.kind, ProgressEvent::Kind::Load);
    QCOMPARE(last.progress.value.value_or(-1), 1.0);
    QTRY_VERIFY_WITH_TIMEOUT(relay->catalog()->host(u"box"_s)->loadProgress.isEmpty(), 5000);
}

// ---- f. the slot API, real and fake (issue 19) ------------------------------------------------

// The slot API's answers, real and fake side by side: the same statuses and error bodies, the
// same keys in a save's and a restore's answer. Printed, they are the transcript
// docs/PROMPT_CACHES.md describes.
void TestRealLlama::fakeAnswersTheSlotApiAsTheRealServer()
{
    const QString dir = freshDir(u"slots"_s, {u"tiny-llama-a"_s});
    const QString realSlots = dir + u"/real-slots"_s;
    const QString fakeSlots = dir + u"/fake-slots"_s;
    QDir().mkpath(realSlots);
    QDir().mkpath(fakeSlots);
    const quint16 realPort = portForLater();
    const quint16 fakePort = portForLater();
    const quint16 bareRealPort = portForLater();
    QVERIFY(startServer(llamaArgv(realPort, {u"-m"_s, dir + u"/models/tiny-llama-a.gguf"_s, u"--alias"_s,
                                             u"tiny-llama-a"_s, u"-c"_s, u"1024"_s, u"--slot-save-path"_s, realSlots}),
                        u"slots-real"_s));
    QVERIFY(startServer(llamaArgv(bareRealPort, {u"-m"_s, dir + u"/models/tiny-llama-a.gguf"_s, u"-c"_s, u"1024"_s}),
                        u"slots-bare"_s));
    QVERIFY(startServer({fakeBinary(), u"--port"_s, QString::number(fakePort), u"--models"_s, u"tiny-llama-a"_s,
                         u"--single-model"_s, u"--ctx"_s, u"1024"_s, u"--load-ms"_s, u"100"_s, u"--slot-save-path"_s,
                         fakeSlots},
                        u"slots-fake"_s));
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(realPort) && healthy(bareRealPort), qPrintable(logs()), 20000);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(fakePort), qPrintable(logs()), 5000);

    // A prompt in a slot first, on both (the real server picks which).
    QCOMPARE(post(realPort, "/v1/chat/completions", agentTurn(u"tiny-llama-a"_s, 2)).status, 200);
    QCOMPARE(post(fakePort, "/v1/chat/completions", agentTurn(u"tiny-llama-a"_s, 2)).status, 200);
    // GET /slots after the turn: the fields the keeper reads.
    const Reply slotList = get(realPort, "/slots");
    qInfo("GET /slots: %s", slotList.body.left(600).constData());
    // Every slot says its id and whether it is busy; only a slot that has held a task says
    // n_prompt_tokens (the real server put the prompt above in whichever slot it chose).
    const QJsonArray realSlots0 = QJsonDocument::fromJson(slotList.body).array();
    bool someHoldsAPrompt = false;
    for (const QJsonValue &v : realSlots0) {
        const QJsonObject slot = v.toObject();
        QVERIFY(slot.contains("id"_L1) && slot.contains("is_processing"_L1));
        someHoldsAPrompt = someHoldsAPrompt || slot.value("n_prompt_tokens"_L1).toInteger() > 0;
    }
    QVERIFY(someHoldsAPrompt);
    bool fakeHoldsAPrompt = false;
    for (const QJsonValue &v : QJsonDocument::fromJson(get(fakePort, "/slots?model=tiny-llama-a").body).array()) {
        const QJsonObject slot = v.toObject();
        QVERIFY(slot.contains("id"_L1) && slot.contains("is_processing"_L1));
        fakeHoldsAPrompt = fakeHoldsAPrompt || slot.value("n_prompt_tokens"_L1).toInteger() > 0;
    }
    QVERIFY(fakeHoldsAPrompt);

    auto keysOf = [](const QJsonObject &o) {
        QStringList keys = o.keys();
        if (o.value("timings"_L1).isObject())
            keys << o.value("timings"_L1).toObject().keys();
        return keys;
    };
    struct Case
    {
        const char *what;
        QByteArray path;
        QByteArray body;
        bool compareBody;   // errors word for word; successes by their keys
    };
    const QList<Case> cases{
        {"save", "/slots/0?action=save", R"({"filename":"s0.bin"})", false},
        {"restore", "/slots/0?action=restore", R"({"filename":"s0.bin"})", false},
        {"restore a missing file", "/slots/0?action=restore", R"({"filename":"missing.bin"})", true},
        {"a filename with a slash", "/slots/0?action=save", R"({"filename":"a/b.bin"})", true},
        {"a slot that is no number", "/slots/x?action=save", R"({"filename":"s.bin"})", true},
        // The real server answers 200 for a slot number it does not have (what it saves is its own
        // business); the fake saves an empty slot: the same status and shape.
        {"a slot that does not exist", "/slots/99?action=save", R"({"filename":"s.bin"})", false},
        {"an unknown action", "/slots/0?action=frobnicate", R"({"filename":"s.bin"})", true},
    };
    for (const Case &c : cases) {
        const Reply real = post(realPort, c.path, c.body);
        const Reply fake = post(fakePort, c.path, c.body);
        qInfo("%s: POST %s %s\n  real %d %s\n  fake %d %s", c.what, c.path.constData(), c.body.constData(), real.status,
              real.body.constData(), fake.status, fake.body.constData());
        QVERIFY2(real.status == fake.status, c.what);
        if (c.compareBody)
            QVERIFY2(real.json() == fake.json(), c.what);
        else
            QVERIFY2(keysOf(real.json()) == keysOf(fake.json()), c.what);
    }
    const Reply realSave = post(realPort, "/slots/0?action=save", R"({"filename":"s1.bin"})");
    QCOMPARE(QFileInfo(realSlots + u"/s1.bin"_s).size(), realSave.json().value("n_written"_L1).toInteger());
    // Without --slot-save-path.
    const Reply bare = post(bareRealPort, "/slots/0?action=save", R"({"filename":"s.bin"})");
    qInfo("without --slot-save-path: %d %s", bare.status, bare.body.constData());
    QCOMPARE(bare.status, 501);
}

QTEST_GUILESS_MAIN(TestRealLlama)
#include "tst_realllama.moc"
