// A model load's progress from a router's /models/sse (issue 22, item 1): the events as llama.cpp
// sends them (a load's, a download's) read into the catalog's host state; malformed ones are
// ignored; and the progress of a slow load on the fake router reaches the catalog through
// ModelEvents, and ends with the load.
#include "catalog/catalog.h"
#include "catalog/loadprogress.h"
#include "catalog/modelevents.h"
#include "fakellamaserver.h"
#include "upstream/upstreampool.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

// Transcript 05 (a real llama-server router loading tiny-llama-a), frame for frame.
const QByteArray kLoadingStarted = R"({"model":"tiny-llama-a","event":"model_status","data":{"status":"loading"}})";
const QByteArray kProgressZero = R"({"model":"tiny-llama-a","event":"status_change","data":{"status":"loading","progress":{"stages":["text_model"],"current":"text_model","value":0.0}}})";
const QByteArray kProgressOne = R"({"model":"tiny-llama-a","event":"status_change","data":{"status":"loading","progress":{"stages":["text_model"],"current":"text_model","value":1.0}}})";
const QByteArray kLoaded = R"({"model":"tiny-llama-a","event":"status_change","data":{"status":"loaded","info":{"id":"tiny-llama-a","aliases":["tiny-llama-a"],"tags":[],"object":"model","created":1795996551,"owned_by":"llamacpp","meta":{"vocab_type":1,"n_vocab":32000,"n_ctx":2048,"n_ctx_train":2048,"n_embd":64,"n_params":4178240,"size":16712960,"ftype":"all F32"}}}})";
// A download as llama.cpp's router announces it (tools/server/server-models.cpp, no transcript):
// the model's status, its files' bytes (the model's loaded_info), the end without "data".
const QString kRepo = u"a/b-GGUF"_s;
const QByteArray kDownloading = R"({"model":"a/b-GGUF","event":"model_status","data":{"status":"downloading"}})";
const QByteArray kDownloadHalf = R"({"model":"a/b-GGUF","event":"download_progress","data":{"progress":{"https://huggingface.co/a/b-GGUF/resolve/main/b.gguf":{"done":2000000000,"total":4000000000}}}})";
const QByteArray kDownloadFinished = R"({"model":"a/b-GGUF","event":"download_finished"})";
// Transcript 50: a load that fails.
const QByteArray kFailed = R"({"model":"tiny-broken-e","event":"status_change","data":{"status":"unloaded","exit_code":1}})";

// The load's fraction, -1 when the router has not said.
double valueOf(const LoadProgress &p)
{
    return p.value.value_or(-1);
}

Config oneHost(const QUrl &url)
{
    Config config;
    HostConfig host;
    host.name = u"h1"_s;
    EngineConfig engine;
    engine.name = u"main"_s;
    engine.url = url;
    host.engines.append(engine);
    config.hosts.append(host);
    return config;
}

} // namespace

class TstLoadProgress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheRealRoutersEvents();
    void readsDownloadProgress();
    void ignoresMalformedProgress_data();
    void ignoresMalformedProgress();
    void onlyVisibleChangesCount();
    void adminJsonRoundTrip();
    void catalogKeepsItUntilTheLoadEnds();
    void slowFakeLoadReachesTheCatalog();
    void downloadEndsWithItsEvent();
};

void TstLoadProgress::readsTheRealRoutersEvents()
{
    QVERIFY(!parseProgressEvent(kLoadingStarted));   // no progress in it: says nothing new

    const auto zero = parseProgressEvent(kProgressZero);
    QVERIFY(zero);
    QCOMPARE(zero->model, u"tiny-llama-a"_s);
    QCOMPARE(zero->kind, ProgressEvent::Kind::Load);
    QCOMPARE(valueOf(zero->progress), 0.0);
    QCOMPARE(zero->progress.stage, u"text_model"_s);
    QCOMPARE(zero->progress.stages, QStringList{u"text_model"_s});

    const auto one = parseProgressEvent(kProgressOne);
    QVERIFY(one);
    QCOMPARE(valueOf(one->progress), 1.0);

    const auto loaded = parseProgressEvent(kLoaded);
    QVERIFY(loaded);
    QCOMPARE(loaded->kind, ProgressEvent::Kind::Ended);
    QCOMPARE(loaded->model, u"tiny-llama-a"_s);

    const auto failed = parseProgressEvent(kFailed);
    QVERIFY(failed);
    QCOMPARE(failed->kind, ProgressEvent::Kind::Ended);

    // The shape docs/LLAMA_ROUTER_API.md gives, without "stages"; and "model_status" the same.
    const auto half = parseProgressEvent(R"({"model":"m","event":"model_status","data":{"status":"loading","progress":{"current":"text_model","value":0.5}}})");
    QVERIFY(half);
    QCOMPARE(valueOf(half->progress), 0.5);
    QVERIFY(half->progress.stages.isEmpty());

    // models_reload is about every model, not a load.
    QVERIFY(!parseProgressEvent(R"({"model":"*","event":"models_reload","data":{}})"));
}

void TstLoadProgress::readsDownloadProgress()
{
    const auto one = parseProgressEvent(
        R"({"model":"m","event":"download_progress","data":{"progress":{"https://huggingface.co/a/b/resolve/main/m.gguf":{"done":1200000000,"total":4000000000}}}})");
    QVERIFY(one);
    QCOMPARE(one->kind, ProgressEvent::Kind::Download);
    QCOMPARE(one->progress.downloadDone, 1200000000);
    QCOMPARE(one->progress.downloadTotal, 4000000000);
    QVERIFY(!one->progress.value);

    // Two files (the model and its projector): summed; a total not known leaves the sum unknown.
    const auto two = parseProgressEvent(
        R"({"model":"m","event":"download_progress","data":{"progress":{"u1":{"done":10,"total":100},"u2":{"done":5,"total":50}}}})");
    QVERIFY(two);
    QCOMPARE(two->progress.downloadDone, 15);
    QCOMPARE(two->progress.downloadTotal, 150);
    const auto noTotal = parseProgressEvent(
        R"({"model":"m","event":"download_progress","data":{"progress":{"u1":{"done":10,"total":100},"u2":{"done":5}}}})");
    QVERIFY(noTotal);
    QCOMPARE(noTotal->progress.downloadDone, 15);
    QCOMPARE(noTotal->progress.downloadTotal, -1);
}

void TstLoadProgress::ignoresMalformedProgress_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("not json") << QByteArray("{\"model\":");
    QTest::newRow("an array") << QByteArray("[1,2]");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("no model") << QByteArray(R"({"event":"status_change","data":{"status":"loading","progress":{"value":0.5}}})");
    QTest::newRow("model not a string") << QByteArray(R"({"model":7,"event":"status_change","data":{"status":"loading","progress":{"value":0.5}}})");
    QTest::newRow("data not an object") << QByteArray(R"({"model":"m","event":"status_change","data":"loading"})");
    QTest::newRow("progress not an object") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":0.5}})");
    QTest::newRow("value a string") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":{"value":"0.5"}}})");
    QTest::newRow("value negative") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":{"value":-0.1}}})");
    QTest::newRow("value above one") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":{"value":40}}})");
    QTest::newRow("value null") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":{"value":null}}})");
    QTest::newRow("huge exponent") << QByteArray(R"({"model":"m","event":"status_change","data":{"status":"loading","progress":{"value":1e999}}})");
    QTest::newRow("status missing") << QByteArray(R"({"model":"m","event":"status_change","data":{"progress":{"value":0.5}}})");
    QTest::newRow("download not an object") << QByteArray(R"({"model":"m","event":"download_progress","data":{"progress":[1,2]}})");
    QTest::newRow("download file not an object") << QByteArray(R"({"model":"m","event":"download_progress","data":{"progress":{"u":12}}})");
    QTest::newRow("download done a string") << QByteArray(R"({"model":"m","event":"download_progress","data":{"progress":{"u":{"done":"12","total":40}}}})");
    QTest::newRow("download done negative") << QByteArray(R"({"model":"m","event":"download_progress","data":{"progress":{"u":{"done":-1,"total":40}}}})");
    QTest::newRow("download no files") << QByteArray(R"({"model":"m","event":"download_progress","data":{"progress":{}}})");
    QTest::newRow("unknown event") << QByteArray(R"({"model":"m","event":"model_remove","data":{"status":"loading","progress":{"value":0.5}}})");
}

void TstLoadProgress::ignoresMalformedProgress()
{
    QFETCH(QByteArray, json);
    QVERIFY(!parseProgressEvent(json));

    // Nor does the catalog keep anything of it (the feed hands it only what parsed).
    Config config = oneHost(QUrl(u"http://127.0.0.1:9"_s));
    UpstreamPool pool;
    Catalog catalog(config, &pool);
    if (const auto e = parseProgressEvent(json))
        catalog.applyLoadProgress(u"h1"_s, *e);
    QVERIFY(catalog.host(u"h1"_s)->loadProgress.isEmpty());
}

void TstLoadProgress::onlyVisibleChangesCount()
{
    // A percent, a stage, a tenth of a percent of a download redraw the window; less does not.
    LoadProgress known;
    auto load = [](double value, const QString &stage = u"text_model"_s) {
        ProgressEvent e;
        e.kind = ProgressEvent::Kind::Load;
        e.progress.value = value;
        e.progress.stage = stage;
        return e;
    };
    QVERIFY(load(0.0).applyTo(&known));
    QVERIFY(!load(0.001).applyTo(&known));
    QCOMPARE(valueOf(known), 0.001);   // kept all the same
    QVERIFY(load(0.4).applyTo(&known));
    QVERIFY(load(0.4, u"mmproj"_s).applyTo(&known));

    ProgressEvent download;
    download.kind = ProgressEvent::Kind::Download;
    download.progress.downloadDone = 0;
    download.progress.downloadTotal = 4'000'000'000;
    QVERIFY(download.applyTo(&known));
    download.progress.downloadDone = 1'000'000;   // 0.025 %
    QVERIFY(!download.applyTo(&known));
    download.progress.downloadDone = 8'000'000;   // 0.2 %
    QVERIFY(download.applyTo(&known));
    QCOMPARE(valueOf(known), 0.4);   // the load's part stays

    ProgressEvent ended;
    ended.kind = ProgressEvent::Kind::Ended;
    QVERIFY(ended.applyTo(&known));
    QVERIFY(known.isEmpty());
    QVERIFY(!ended.applyTo(&known));
}

void TstLoadProgress::adminJsonRoundTrip()
{
    LoadProgress p;
    p.value = 0.4;
    p.stage = u"text_model"_s;
    p.stages = {u"text_model"_s};
    p.downloadDone = 1'200'000'000;
    p.downloadTotal = 4'000'000'000;
    const QJsonObject json = p.toJson();
    QCOMPARE(QJsonDocument(json).toJson(QJsonDocument::Compact),
             QByteArray(R"({"download":{"done":1200000000,"total":4000000000},"stage":"text_model","stages":["text_model"],"value":0.4})"));
    QCOMPARE(LoadProgress::fromJson(json), p);
    QVERIFY(LoadProgress().toJson().isEmpty());
    QVERIFY(LoadProgress::fromJson(QJsonObject{{u"value"_s, u"half"_s}, {u"download"_s, 3}}).isEmpty());
}

void TstLoadProgress::catalogKeepsItUntilTheLoadEnds()
{
    Config config = oneHost(QUrl(u"http://127.0.0.1:9"_s));
    UpstreamPool pool;
    Catalog catalog(config, &pool);
    QSignalSpy changed(&catalog, &Catalog::changed);
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kProgressZero));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(valueOf(catalog.host(u"h1"_s)->loadProgress.value(u"tiny-llama-a"_s)), 0.0);
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kProgressZero));   // sent twice, as llama.cpp does
    QCOMPARE(changed.size(), 1);
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kProgressOne));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(valueOf(catalog.host(u"h1"_s)->loadProgress.value(u"tiny-llama-a"_s)), 1.0);
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kLoaded));
    QCOMPARE(changed.size(), 3);
    QVERIFY(catalog.host(u"h1"_s)->loadProgress.isEmpty());
    // The end of a load it never heard of changes nothing; an unknown host is ignored.
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kFailed));
    catalog.applyLoadProgress(u"nope"_s, *parseProgressEvent(kProgressOne));
    QCOMPARE(changed.size(), 3);

    // A new load starts from nothing, whatever the last one reached.
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kProgressOne));
    catalog.markLoading(u"h1"_s, u"tiny-llama-a"_s);
    QVERIFY(catalog.host(u"h1"_s)->loadProgress.isEmpty());
}

void TstLoadProgress::slowFakeLoadReachesTheCatalog()
{
    fake::FakeOptions options;
    options.models = {u"m1"_s, u"m2"_s};
    options.loadDelay = 2s;   // half way (value 0.5) for a second
    fake::FakeLlamaServer router(options);
    QVERIFY(router.listen());
    UpstreamPool pool;
    Catalog catalog(oneHost(router.baseUrl()), &pool);
    ModelEvents events(&catalog, &pool);
    catalog.start();
    events.start();
    QTRY_VERIFY_WITH_TIMEOUT(events.isConnected(u"h1"_s) && router.sseSubscribers() == 1, WaitMs);

    QNetworkAccessManager http;
    QNetworkRequest load(router.baseUrl().resolved(QUrl(u"/models/load"_s)));
    load.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    std::unique_ptr<QNetworkReply> reply(http.post(load, R"({"model":"m2"})"));
    QTRY_COMPARE_WITH_TIMEOUT(valueOf(catalog.host(u"h1"_s)->loadProgress.value(u"m2"_s)), 0.5, WaitMs);
    QCOMPARE(catalog.host(u"h1"_s)->loadProgress.value(u"m2"_s).stage, u"text_model"_s);
    QVERIFY(!catalog.host(u"h1"_s)->loadProgress.contains(u"m1"_s));
    // Loaded: the progress is gone, and the list (read again on the event) says loaded.
    QTRY_COMPARE_WITH_TIMEOUT(catalog.model(u"h1"_s, u"m2"_s).value_or(ModelEntry()).status, u"loaded"_s, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(catalog.host(u"h1"_s)->loadProgress.isEmpty(), WaitMs);
}

void TstLoadProgress::downloadEndsWithItsEvent()
{
    // llama.cpp's download (POST /models on the router): status "downloading", its bytes, then
    // download_finished (an event without "data").
    QVERIFY(!parseProgressEvent(kDownloading));
    Config config = oneHost(QUrl(u"http://127.0.0.1:9"_s));
    UpstreamPool pool;
    Catalog catalog(config, &pool);
    catalog.applyLoadProgress(u"h1"_s, *parseProgressEvent(kDownloadHalf));
    QCOMPARE(catalog.host(u"h1"_s)->loadProgress.value(kRepo).downloadDone, 2'000'000'000);
    QCOMPARE(catalog.host(u"h1"_s)->loadProgress.value(kRepo).downloadTotal, 4'000'000'000);
    const auto finished = parseProgressEvent(kDownloadFinished);
    QVERIFY(finished);
    QCOMPARE(finished->kind, ProgressEvent::Kind::Ended);
    catalog.applyLoadProgress(u"h1"_s, *finished);
    QVERIFY(catalog.host(u"h1"_s)->loadProgress.isEmpty());
    const auto failed = parseProgressEvent(R"({"model":"a/b-GGUF","event":"download_failed"})");
    QVERIFY(failed && failed->kind == ProgressEvent::Kind::Ended);
}

QTEST_GUILESS_MAIN(TstLoadProgress)
#include "tst_loadprogress.moc"
