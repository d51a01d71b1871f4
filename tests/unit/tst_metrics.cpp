// The Prometheus text the relay's /metrics writes: the 0.0.4 format byte for byte (HELP/TYPE,
// escaping, numbers, cumulative buckets), and the request counters fed from journal records.
#include "journal/requestrecord.h"
#include "metrics/boxgauges.h"
#include "metrics/hostgauges.h"
#include "metrics/processmetrics.h"
#include "metrics/relaymetrics.h"
#include "store/historyevent.h"
#include "metrics/requestmetrics.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using namespace switchyard;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

class TestMetrics : public QObject
{
    Q_OBJECT

private slots:
    void numbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("zero") << 0.0 << QByteArray("0");
        QTest::newRow("integer") << 1234567.0 << QByteArray("1234567");
        QTest::newRow("negative") << -3.0 << QByteArray("-3");
        QTest::newRow("fraction") << 0.25 << QByteArray("0.25");
        QTest::newRow("shortest round trip") << 0.1 << QByteArray("0.1");
        QTest::newRow("large") << 1e20 << QByteArray("1e+20");
        QTest::newRow("+Inf") << std::numeric_limits<double>::infinity() << QByteArray("+Inf");
        QTest::newRow("-Inf") << -std::numeric_limits<double>::infinity() << QByteArray("-Inf");
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("NaN");
    }
    void numbers()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, text);
        QCOMPARE(PrometheusText::number(value), text);
    }

    void escapesLabelValuesAndHelp()
    {
        PrometheusText out;
        out.family("x_total", PrometheusText::Type::Counter, "a \\ help\nline");
        out.sample("x_total", {{"alias", u"a\"b\\c\nd"_s}}, 1);
        QCOMPARE(out.text(), QByteArray("# HELP x_total a \\\\ help\\nline\n"
                                        "# TYPE x_total counter\n"
                                        "x_total{alias=\"a\\\"b\\\\c\\nd\"} 1\n"));
    }

    void countersAddUpPerLabelTuple()
    {
        CounterFamily c("c_total", "h", {"a", "b"});
        c.add({u"x"_s, u"1"_s});
        c.add({u"x"_s, u"1"_s}, 2);
        c.add({u"y"_s, u"1"_s});
        PrometheusText out;
        c.write(out);
        QCOMPARE(out.text(), QByteArray("# HELP c_total h\n# TYPE c_total counter\n"
                                        "c_total{a=\"x\",b=\"1\"} 3\n"
                                        "c_total{a=\"y\",b=\"1\"} 1\n"));
    }

    // Buckets are cumulative, a value on a bound counts in it, +Inf holds every observation.
    void histogramsAreCumulative()
    {
        HistogramFamily h("d_seconds", "h", {"host"}, {1, 0.5});
        for (double v : {0.1, 0.5, 0.7, 3.0})
            h.observe({u"a"_s}, v);
        PrometheusText out;
        h.write(out);
        QCOMPARE(out.text(), QByteArray("# HELP d_seconds h\n# TYPE d_seconds histogram\n"
                                        "d_seconds_bucket{host=\"a\",le=\"0.5\"} 2\n"
                                        "d_seconds_bucket{host=\"a\",le=\"1\"} 3\n"
                                        "d_seconds_bucket{host=\"a\",le=\"+Inf\"} 4\n"
                                        "d_seconds_sum{host=\"a\"} 4.3\n"
                                        "d_seconds_count{host=\"a\"} 4\n"));
    }

    void kinds_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kind");
        QTest::newRow("openai chat") << "POST" << "/v1/chat/completions" << "chat";
        QTest::newRow("chat without v1") << "POST" << "/chat/completions" << "chat";
        QTest::newRow("anthropic") << "POST" << "/v1/messages" << "messages";
        QTest::newRow("count tokens") << "POST" << "/v1/messages/count_tokens" << "messages";
        QTest::newRow("responses") << "POST" << "/v1/responses" << "responses";
        QTest::newRow("completions") << "POST" << "/v1/completions" << "completions";
        QTest::newRow("llama.cpp completion") << "POST" << "/completion" << "completions";
        QTest::newRow("model list") << "GET" << "/v1/models" << "models";
        QTest::newRow("router list") << "GET" << "/models" << "models";
        QTest::newRow("load") << "POST" << "/models/load" << "load";
        QTest::newRow("unload") << "POST" << "/models/unload" << "unload";
        QTest::newRow("props") << "GET" << "/props" << "other";
        QTest::newRow("GET on chat") << "GET" << "/v1/chat/completions" << "other";
    }
    void kinds()
    {
        QFETCH(QString, method);
        QFETCH(QString, path);
        QFETCH(QString, kind);
        QCOMPARE(requestKind(method, path), kind);
    }

    void statusClasses()
    {
        QCOMPARE(statusClass(200), u"2xx"_s);
        QCOMPARE(statusClass(424), u"4xx"_s);
        QCOMPARE(statusClass(502), u"5xx"_s);
        QCOMPARE(statusClass(0), u"none"_s);
    }

    void requestsAreCountedByTheirLabels()
    {
        RequestMetrics metrics;
        RequestRecord r;
        r.method = u"POST"_s;
        r.path = u"/v1/chat/completions"_s;
        r.model = u"3090-flint-40b"_s;
        r.host = u"3090"_s;
        r.engine = u"mainline"_s;
        r.status = 200;
        r.userAgent = u"opencode/1.18.33"_s;
        r.bytesOut = 1000;
        r.duration = 2s;
        r.timeToFirstByte = 50ms;
        r.streamedTokens = 120;
        r.tokensPerSecond = 60;
        r.keyName = u"laptop"_s;
        r.promptTokens = 1000;
        metrics.record(r, r.model);
        metrics.record(r, r.model);
        r.status = 424;
        r.streamedTokens.reset();
        r.tokensPerSecond.reset();
        r.promptTokens.reset();
        r.keyName.clear();   // keys configured, none sent: refused before a key name was known
        metrics.record(r, r.model);

        const QStringList ok{u"3090"_s, u"mainline"_s, u"3090-flint-40b"_s, u"chat"_s, u"2xx"_s, u"opencode"_s, u"laptop"_s};
        QCOMPARE(metrics.requests().value(ok), 2.0);
        QStringList refused = ok;
        refused[4] = u"4xx"_s;
        refused[6] = QString();
        QCOMPARE(metrics.requests().value(refused), 1.0);

        PrometheusText out;
        metrics.write(out);
        const QByteArray text = out.text();
        QVERIFY(text.contains("switchyard_streamed_tokens_total{host=\"3090\",alias=\"3090-flint-40b\"} 240\n"));
        QVERIFY(text.contains("switchyard_prompt_tokens_total{host=\"3090\",alias=\"3090-flint-40b\"} 2000\n"));
        QVERIFY(text.contains(",client_app=\"opencode\",key=\"laptop\"} 2\n"));
        QVERIFY(text.contains(",client_app=\"opencode\",key=\"\"} 1\n"));
        QVERIFY(text.contains("switchyard_response_bytes_total{host=\"3090\",alias=\"3090-flint-40b\"} 3000\n"));
        QVERIFY(text.contains("switchyard_request_first_byte_seconds_count{host=\"3090\",alias=\"3090-flint-40b\"} 3\n"));
        QVERIFY(text.contains("switchyard_stream_tokens_per_second_bucket{host=\"3090\",alias=\"3090-flint-40b\",le=\"50\"} 0\n"));
        QVERIFY(text.contains("switchyard_stream_tokens_per_second_bucket{host=\"3090\",alias=\"3090-flint-40b\",le=\"75\"} 2\n"));
        // Every family is announced once, before its samples.
        QCOMPARE(text.count("# TYPE switchyard_requests_total counter\n"), 1);
        QVERIFY(text.indexOf("# TYPE switchyard_requests_total") < text.indexOf("switchyard_requests_total{"));
    }
    void waitsAndBytesInAreCountedByHostAndAlias()
    {
        // #21: the time waited before going upstream (bounds in docs/METRICS.md), bytes in.
        RequestMetrics metrics;
        RequestRecord r;
        r.method = u"POST"_s;
        r.path = u"/v1/messages"_s;
        r.host = u"3090"_s;
        r.engine = u"fork"_s;
        r.status = 200;
        r.bytesIn = 700;
        metrics.record(r, u"3090-qwen38"_s);   // went at once
        r.waited = 2300ms;
        r.waitReason = {WaitReason::Kind::Switch, u"mainline"_s, u"fork"_s};
        r.bytesIn = 300;
        metrics.record(r, u"3090-qwen38"_s);
        RequestRecord unrouted;   // a 404 for an unknown model reaches no host: no wait to count
        unrouted.method = u"POST"_s;
        unrouted.path = u"/v1/messages"_s;
        unrouted.status = 404;
        unrouted.bytesIn = 50;
        metrics.record(unrouted, u"other"_s);

        PrometheusText out;
        metrics.write(out);
        const QByteArray text = out.text();
        QVERIFY(text.contains("# TYPE switchyard_request_wait_seconds histogram\n"));
        QVERIFY(text.contains("switchyard_request_wait_seconds_bucket{host=\"3090\",alias=\"3090-qwen38\",le=\"0.001\"} 1\n"));
        QVERIFY(text.contains("switchyard_request_wait_seconds_bucket{host=\"3090\",alias=\"3090-qwen38\",le=\"1\"} 1\n"));
        QVERIFY(text.contains("switchyard_request_wait_seconds_bucket{host=\"3090\",alias=\"3090-qwen38\",le=\"2.5\"} 2\n"));
        QVERIFY(text.contains("switchyard_request_wait_seconds_bucket{host=\"3090\",alias=\"3090-qwen38\",le=\"600\"} 2\n"));
        QVERIFY(text.contains("switchyard_request_wait_seconds_sum{host=\"3090\",alias=\"3090-qwen38\"} 2.3\n"));
        QVERIFY(!text.contains("switchyard_request_wait_seconds_count{host=\"\""));
        QVERIFY(text.contains("# TYPE switchyard_request_bytes_total counter\n"));
        QVERIFY(text.contains("switchyard_request_bytes_total{host=\"3090\",alias=\"3090-qwen38\"} 1000\n"));
        QVERIFY(text.contains("switchyard_request_bytes_total{host=\"\",alias=\"other\"} 50\n"));
    }
    void promptCacheSavesAndRestoresAreCountedByOutcome()
    {
        using Outcome = HistoryEvent::CacheOutcome;
        RelayMetrics metrics(QDateTime::currentDateTime(), {}, {});
        auto event = [](HistoryEvent::Kind kind, Outcome outcome, const QString &detail) {
            HistoryEvent e;
            e.kind = kind;
            e.cacheOutcome = outcome;
            e.host = u"3090"_s;
            e.engine = u"fork"_s;
            e.model = u"flint-40b"_s;
            e.detail = detail;
            return e;
        };
        // Counted by the keeper's typed outcome alone: details that read otherwise (or say
        // nothing) change nothing, and an event without an outcome is not counted.
        metrics.historyEvent(event(HistoryEvent::Kind::CacheSave, Outcome::Done, u"slot 0, 48213 tokens, 1131.4 MB"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheSave, Outcome::Done, u"slot 1 not saved: reworded"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheSave, Outcome::Skipped, u"Slot 2 übersprungen"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheSave, Outcome::Dropped, {}));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheSave, Outcome::None, u"slot 3 dropped: old words"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheRestore, Outcome::Done, u"slot 0 not restored: reworded"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheRestore, Outcome::Skipped, u"slot 1, 100 tokens"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::CacheRestore, Outcome::Skipped, {}));
        const QByteArray text = metrics.exposition();
        QVERIFY2(text.contains("switchyard_prompt_cache_saves_total{host=\"3090\",engine=\"fork\",outcome=\"saved\"} 2\n"), text.constData());
        QVERIFY(text.contains("switchyard_prompt_cache_saves_total{host=\"3090\",engine=\"fork\",outcome=\"skipped\"} 1\n"));
        QVERIFY(text.contains("switchyard_prompt_cache_saves_total{host=\"3090\",engine=\"fork\",outcome=\"dropped\"} 1\n"));
        QVERIFY(text.contains("switchyard_prompt_cache_restores_total{host=\"3090\",engine=\"fork\",outcome=\"restored\"} 1\n"));
        QVERIFY(text.contains("switchyard_prompt_cache_restores_total{host=\"3090\",engine=\"fork\",outcome=\"skipped\"} 2\n"));
        QVERIFY(!text.contains("outcome=\"\""));
        QVERIFY(!text.contains("switchyard_prompt_cache_restores_total{host=\"3090\",engine=\"fork\",outcome=\"saved\"}"));
    }

    void wakesAndIdleStopsAreCounted()
    {
        RelayMetrics metrics(QDateTime::currentDateTime(), {}, {});
        auto event = [](HistoryEvent::Kind kind, const QString &engine) {
            HistoryEvent e;
            e.kind = kind;
            e.host = u"3090"_s;
            e.engine = engine;
            return e;
        };
        metrics.historyEvent(event(HistoryEvent::Kind::WakeSent, {}));
        metrics.historyEvent(event(HistoryEvent::Kind::Woke, {}));
        metrics.historyEvent(event(HistoryEvent::Kind::WakeSent, {}));
        metrics.historyEvent(event(HistoryEvent::Kind::WakeTimedOut, {}));
        metrics.historyEvent(event(HistoryEvent::Kind::Woke, u"fork"_s));
        metrics.historyEvent(event(HistoryEvent::Kind::IdleStop, u"fork"_s));
        const QByteArray text = metrics.exposition();
        QVERIFY2(text.contains("switchyard_host_wakes_total{host=\"3090\",outcome=\"woke\"} 2\n"), text.constData());
        QVERIFY(text.contains("switchyard_host_wakes_total{host=\"3090\",outcome=\"timed_out\"} 1\n"));
        QVERIFY(text.contains("switchyard_idle_stops_total{host=\"3090\",engine=\"fork\"} 1\n"));
    }

    void hostGaugesHaveOneSeriesPerStateAndEngine()
    {
        HostGauges h;
        h.host = u"3090"_s;
        h.state = u"draining"_s;
        h.engine = u"fork"_s;
        h.engines = {u"mainline"_s, u"fork"_s};
        h.running = 2;
        h.waiting = 1;
        h.leased = false;
        h.modelsLoaded = 1;
        PrometheusText out;
        writeHostGauges(out, {h}, {u"serving"_s, u"draining"_s});
        const QByteArray text = out.text();
        QVERIFY(text.contains("switchyard_host_requests_in_flight{host=\"3090\"} 2\n"));
        QVERIFY(text.contains("switchyard_host_requests_waiting{host=\"3090\"} 1\n"));
        QVERIFY(text.contains("switchyard_host_lease_held{host=\"3090\"} 0\n"));
        QVERIFY(text.contains("switchyard_host_models_loaded{host=\"3090\"} 1\n"));
        QVERIFY(text.contains("switchyard_host_state{host=\"3090\",state=\"serving\"} 0\n"));
        QVERIFY(text.contains("switchyard_host_state{host=\"3090\",state=\"draining\"} 1\n"));
        QVERIFY(text.contains("switchyard_engine_running{host=\"3090\",engine=\"mainline\"} 0\n"));
        QVERIFY(text.contains("switchyard_engine_running{host=\"3090\",engine=\"fork\"} 1\n"));
    }

    void boxGaugesShowEveryRelaysRequestsAndTheLease()
    {
        // Issue 33: a shared box as its agent describes it; alice streams on fork, bob waits for
        // mainline (a switch held for alice's stream); the lease is read on its own.
        const QJsonObject box{
            {"state"_L1, u"draining"_s}, {"engine"_L1, u"fork"_s}, {"target"_L1, u"mainline"_s},
            {"holds"_L1, QJsonArray{QJsonObject{{"relay"_L1, u"alice:18766"_s}, {"engine"_L1, u"fork"_s}, {"state"_L1, u"running"_s}},
                                    QJsonObject{{"relay"_L1, u"alice:18766"_s}, {"engine"_L1, u"fork"_s}, {"state"_L1, u"running"_s}},
                                    QJsonObject{{"relay"_L1, u"bob:18766"_s}, {"engine"_L1, u"mainline"_s}, {"state"_L1, u"waiting"_s}}}},
            {"lease"_L1, QJsonObject{{"owner"_L1, u"bench"_s}}}};
        PrometheusText out;
        writeBoxGauges(out, {BoxGauges::fromBox(u"3090"_s, {u"mainline"_s, u"fork"_s}, box)});
        const QByteArray text = out.text();
        QVERIFY2(text.contains("switchyard_box_requests_in_flight{host=\"3090\",relay=\"alice:18766\"} 2\n"), text.constData());
        QVERIFY(!text.contains("switchyard_box_requests_in_flight{host=\"3090\",relay=\"bob:18766\"}"));
        QVERIFY(text.contains("switchyard_box_requests_waiting{host=\"3090\",relay=\"bob:18766\"} 1\n"));
        QVERIFY(text.contains("switchyard_box_switch_held{host=\"3090\",engine=\"mainline\"} 1\n"));
        QVERIFY(text.contains("switchyard_box_switch_held{host=\"3090\",engine=\"fork\"} 0\n"));
        QVERIFY(text.contains("switchyard_box_lease_held{host=\"3090\",owner=\"bench\"} 1\n"));

        // Under the batch policy the box serves on while bob waits: still a switch held for alice.
        QJsonObject serving = box;
        serving.insert("state"_L1, u"serving"_s);
        serving.remove("target"_L1);
        serving.remove("lease"_L1);
        PrometheusText batch;
        writeBoxGauges(batch, {BoxGauges::fromBox(u"3090"_s, {u"mainline"_s, u"fork"_s}, serving)});
        QVERIFY(batch.text().contains("switchyard_box_switch_held{host=\"3090\",engine=\"mainline\"} 1\n"));
        QVERIFY(!batch.text().contains("switchyard_box_lease_held{"));
        // Nothing runs: bob's request waits for the engine to start, not for anyone's stream.
        serving.insert("holds"_L1, QJsonArray{box.value("holds"_L1).toArray().at(2)});
        PrometheusText idle;
        writeBoxGauges(idle, {BoxGauges::fromBox(u"3090"_s, {u"mainline"_s, u"fork"_s}, serving)});
        QVERIFY(idle.text().contains("switchyard_box_switch_held{host=\"3090\",engine=\"mainline\"} 0\n"));
    }

    void processMetricsReadThisProcess()
    {
        PrometheusText out;
        const QDateTime started = QDateTime::fromMSecsSinceEpoch(1764633600500);
        writeProcessMetrics(out, started);
        const QByteArray text = out.text();
        QVERIFY(text.contains("process_start_time_seconds 1764633600.5\n"));
        const auto value = [&](const QByteArray &name) {
            const qsizetype at = text.indexOf("\n" + name + ' ');
            return at < 0 ? -1.0 : text.mid(at + name.size() + 2, text.indexOf('\n', at + 1) - at - name.size() - 2).toDouble();
        };
        QVERIFY2(value("process_resident_memory_bytes") > 1024 * 1024, text.constData());
        // stdin, stdout and stderr at least.
        QVERIFY2(value("process_open_fds") >= 3, text.constData());
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
