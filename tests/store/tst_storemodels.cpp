// The store's item models: the request log (live rows, honest durations, aborted and own
// requests, loading from the store) and the timeline.
#include "journal/journalformat.h"
#include "journal/requestrecord.h"
#include "common/clock.h"
#include "store/historyevent.h"
#include "store/historyschema.h"
#include "store/historystore.h"
#include "store/redactor.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "storetesthelpers.h"

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace storetest;

class TestStoreModels : public QObject
{
    Q_OBJECT

private slots:
    void requestLogModel();
    void requestLogModelLoadFromStore();
    // Issue #21: the wait and bytes in, stored; #22: honest durations, live rows.
    void requestLogDurations_data();
    void requestLogDurations();
    void requestLogLiveRows();
    void requestLogWaitBound_data();
    void requestLogWaitBound();
    void requestLogAbortedAndOwn();
    void timelineModel();
    void timelineIntervals();
};

void TestStoreModels::requestLogModel()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(10);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    // A burst in one event-loop turn becomes one insertion.
    for (int i = 1; i <= 4; ++i) {
        RequestRecord r = makeRecord(u"m"_s, u"3090"_s, 200, baseTime().addSecs(i));
        r.id = i;
        model.append(r);
    }
    QCOMPARE(model.rowCount(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 4, 5000);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(inserted.first().at(2).toInt(), 3);

    // Over capacity: the oldest go first, the newest are last.
    for (int i = 5; i <= 30; ++i) {
        RequestRecord r = makeRecord(u"m"_s, u"3090"_s, i % 3 ? 200 : 503, baseTime().addSecs(i));
        r.id = i;
        model.append(r);
        if (i % 7 == 0)
            QCoreApplication::processEvents();
    }
    QTRY_COMPARE_WITH_TIMEOUT(model.recordAt(9).id, 30, 5000);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.recordAt(0).id, 21);
    QVERIFY(!removed.isEmpty());
    QCOMPARE(model.recordAt(10).id, 0);   // out of range: an empty record

    // One record in every column and role.
    RequestRecord r = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime());
    r.id = 99;
    r.method = u"GET"_s;
    r.path = u"/props"_s;
    r.timeToFirstByte = 345678us;
    r.tokensPerSecond = 97.34;
    r.clientAddress = u"::ffff:192.0.2.10"_s;
    r.userAgent = u"claude-cli/2.1.197 (external, sdk-cli)"_s;
    model.appendRecords({r});
    const int row = model.rowCount() - 1;
    QCOMPARE(row, 9);
    const auto text = [&](int column) { return model.index(row, column).data().toString(); };
    QCOMPARE(text(RequestLogModel::TimeColumn), JournalFormat::timestamp(r.startedAt));
    QCOMPARE(text(RequestLogModel::MethodColumn), u"GET"_s);
    QCOMPARE(text(RequestLogModel::PathColumn), u"/props"_s);
    QCOMPARE(text(RequestLogModel::AliasColumn), u"3090-flint-40b"_s);
    QCOMPARE(text(RequestLogModel::HostColumn), u"3090"_s);
    QCOMPARE(text(RequestLogModel::StatusColumn), u"200"_s);
    QCOMPARE(text(RequestLogModel::DurationColumn), u"2.33 s"_s);
    QCOMPARE(text(RequestLogModel::TtfbColumn), u"346 ms"_s);
    QCOMPARE(text(RequestLogModel::TokensPerSecondColumn), u"97.3"_s);
    QCOMPARE(text(RequestLogModel::ClientColumn), u"192.0.2.10"_s);
    QCOMPARE(text(RequestLogModel::AppColumn), u"Claude Code"_s);
    QCOMPARE(model.headerData(RequestLogModel::AppColumn, Qt::Horizontal).toString(), u"App"_s);
    QCOMPARE(model.index(row, 0).data(Qt::ToolTipRole).toString(), JournalFormat::requestLine(r));
    QCOMPARE(model.index(row, RequestLogModel::TimeColumn).data(RequestLogModel::SortRole).toLongLong(),
             r.startedAt.toMSecsSinceEpoch());
    QCOMPARE(model.index(row, RequestLogModel::TtfbColumn).data(RequestLogModel::SortRole).toDouble(), 345.678);
    QCOMPARE(model.index(row - 1, RequestLogModel::TtfbColumn).data(RequestLogModel::SortRole).toDouble(), -1.0);
    QCOMPARE(model.index(row, 0).data(RequestLogModel::RecordIdRole).toLongLong(), 99);
    QCOMPARE(model.index(row, 0).data(RequestLogModel::SeverityRole).toInt(),
             int(RequestLogModel::Severity::Normal));
    QCOMPARE(model.headerData(RequestLogModel::TtfbColumn, Qt::Horizontal).toString(), u"First byte"_s);

    QCOMPARE(RequestLogModel::severity(makeRecord({}, {}, 404)), RequestLogModel::Severity::ClientError);
    QCOMPARE(RequestLogModel::severity(makeRecord({}, {}, 502)), RequestLogModel::Severity::Error);
    RequestRecord relayError = makeRecord({}, {}, 200);
    relayError.relayError = u"client went away"_s;
    QCOMPARE(RequestLogModel::severity(relayError), RequestLogModel::Severity::Error);

    // A batch larger than the capacity keeps only its newest rows.
    QList<RequestRecord> many;
    for (int i = 100; i < 125; ++i) {
        RequestRecord m = makeRecord(u"m"_s, u"h"_s, 200, baseTime().addSecs(i));
        m.id = i;
        many << m;
    }
    model.appendRecords(many);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.recordAt(0).id, 115);
    QCOMPARE(model.recordAt(9).id, 124);

    model.setCapacity(3);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.recordAt(0).id, 122);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestStoreModels::requestLogModelLoadFromStore()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(5);
    connect(&store, &HistoryStore::requestRecorded, &model, &RequestLogModel::append);

    for (int i = 0; i < 8; ++i)
        store.record(makeRecord(u"m%1"_s.arg(i), u"h"_s, 200, baseTime().addSecs(i)));
    // Live rows not yet inserted are already among the loaded ones: no duplicates.
    model.loadFrom(store, {});
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.recordAt(0).model, u"m3"_s);
    QCOMPARE(model.recordAt(4).model, u"m7"_s);
    QTest::qWait(50);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.recordAt(4).model, u"m7"_s);

    store.record(makeRecord(u"live"_s, u"h"_s, 200, baseTime().addSecs(100)));
    QTRY_COMPARE_WITH_TIMEOUT(model.recordAt(4).model, u"live"_s, 5000);
    QCOMPARE(model.recordAt(0).model, u"m4"_s);

    model.loadFrom(store, baseTime().addSecs(6));
    QCOMPARE(model.rowCount(), 3);
}

void TestStoreModels::timelineModel()
{
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCapacity(5);
    const QDateTime t0 = baseTime();
    using K = HistoryEvent::Kind;

    model.append(makeEvent(K::SwitchStart, u"3090"_s, u"fork"_s, t0.addSecs(10), u"3090-flint-40b"_s));
    HistoryEvent up = makeEvent(K::SwitchEnd, u"3090"_s, u"fork"_s, t0.addSecs(12));
    up.duration = 2326ms;
    model.append(up);
    model.append(makeEvent(K::HostUp, u"a9"_s, u"mainline"_s, t0.addSecs(5)));   // late: goes first
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.eventAt(0).host, u"a9"_s);
    QCOMPARE(model.eventAt(2).kind, K::SwitchEnd);
    QCOMPARE(model.index(2, TimelineModel::KindColumn).data().toString(), u"engine up"_s);
    QCOMPARE(model.index(2, TimelineModel::DurationColumn).data().toString(), u"2.326s"_s);
    QCOMPARE(model.index(2, TimelineModel::DurationColumn).data(TimelineModel::SortRole).toLongLong(), 2326);
    QCOMPARE(model.index(2, 0).data(TimelineModel::KindRole).toInt(), int(K::SwitchEnd));
    QCOMPARE(model.index(2, 0).data(Qt::ToolTipRole).toString(),
             JournalFormat::eventLine(up.at, u"host 3090: engine fork up after 2s"_s));
    QCOMPARE(model.headerData(TimelineModel::KindColumn, Qt::Horizontal).toString(), u"Event"_s);

    for (int i = 0; i < 4; ++i)
        model.append(makeEvent(K::Load, u"3090"_s, u"fork"_s, t0.addSecs(20 + i), u"m%1"_s.arg(i)));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.eventAt(0).kind, K::SwitchEnd);   // the two oldest went
    model.append(makeEvent(K::HostDown, u"a9"_s, {}, t0));   // older than all, and full: dropped
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.eventAt(0).kind, K::SwitchEnd);

    const QList<HistoryEvent> between = model.eventsBetween(t0.addSecs(20), t0.addSecs(22));
    QCOMPARE(between.size(), 3);
    QCOMPARE(between.first().model, u"m0"_s);
    QCOMPARE(between.last().model, u"m2"_s);
    QCOMPARE(model.eventsBetween({}, t0.addSecs(12)).size(), 1);
    QCOMPARE(model.eventsBetween(t0.addSecs(23), {}).size(), 1);

    // From the store, newest kept when over capacity.
    QTemporaryDir dir;
    FakeClock clock(t0);
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    for (int i = 0; i < 7; ++i)
        store.recordEvent(makeEvent(K::Unload, u"3090"_s, u"fork"_s, t0.addSecs(i), u"m%1"_s.arg(i)));
    model.loadFrom(store, {});
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.eventAt(0).model, u"m2"_s);
    QCOMPARE(model.eventAt(4).model, u"m6"_s);
    QCOMPARE(model.eventAt(4).id, 7);
    connect(&store, &HistoryStore::eventRecorded, &model, &TimelineModel::append);
    store.recordEvent(makeEvent(K::LeaseTaken, u"3090"_s, {}, t0.addSecs(30)));
    QCOMPARE(model.eventAt(4).kind, K::LeaseTaken);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestStoreModels::timelineIntervals()
{
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QDateTime t0 = baseTime();
    const auto at = [&](int s) { return t0.addSecs(s); };
    using K = HistoryEvent::Kind;
    model.append(makeEvent(K::SwitchEnd, u"3090"_s, u"mainline"_s, at(0)));
    model.append(makeEvent(K::SwitchEnd, u"a9"_s, u"alpha"_s, at(5)));       // another host
    model.append(makeEvent(K::SwitchStart, u"3090"_s, u"fork"_s, at(100)));
    model.append(makeEvent(K::SwitchEnd, u"3090"_s, u"fork"_s, at(102)));
    model.append(makeEvent(K::Load, u"3090"_s, u"fork"_s, at(110)));         // not a boundary
    model.append(makeEvent(K::SwitchStart, u"3090"_s, u"mainline"_s, at(200)));
    model.append(makeEvent(K::SwitchFailed, u"3090"_s, u"mainline"_s, at(230)));
    model.append(makeEvent(K::HostUp, u"3090"_s, u"mainline"_s, at(300)));
    model.append(makeEvent(K::HostDown, u"3090"_s, {}, at(400)));
    model.append(makeEvent(K::SwitchEnd, u"3090"_s, u"fork"_s, at(500)));

    QList<EngineInterval> spans = model.engineIntervals(u"3090"_s, at(0), at(600));
    QCOMPARE(spans.size(), 4);
    QCOMPARE(spans[0].engine, u"mainline"_s);
    QCOMPARE(spans[0].start, at(0));
    QCOMPARE(spans[0].end, at(100));
    QVERIFY(!spans[0].ongoing);
    QCOMPARE(spans[1].engine, u"fork"_s);
    QCOMPARE(spans[1].start, at(102));
    QCOMPARE(spans[1].end, at(200));
    QCOMPARE(spans[2].engine, u"mainline"_s);   // came back with the host
    QCOMPARE(spans[2].start, at(300));
    QCOMPARE(spans[2].end, at(400));
    QCOMPARE(spans[3].engine, u"fork"_s);
    QCOMPARE(spans[3].start, at(500));
    QCOMPARE(spans[3].end, at(600));
    QVERIFY(spans[3].ongoing);

    // Clipped to the range; spans wholly outside it are left out.
    spans = model.engineIntervals(u"3090"_s, at(150), at(350));
    QCOMPARE(spans.size(), 2);
    QCOMPARE(spans[0].start, at(150));
    QCOMPARE(spans[0].end, at(200));
    QCOMPARE(spans[1].start, at(300));
    QCOMPARE(spans[1].end, at(350));
    QVERIFY(spans[1].ongoing);

    spans = model.engineIntervals(u"a9"_s, {}, {});
    QCOMPARE(spans.size(), 1);
    QCOMPARE(spans[0].engine, u"alpha"_s);
    QVERIFY(spans[0].ongoing);
    QVERIFY(!spans[0].end.isValid());
    QVERIFY(model.engineIntervals(u"nobody"_s, at(0), at(600)).isEmpty());

    // An idle stop ends the bar (the box then sleeps); the engine's start after the wake begins
    // the next one.
    model.append(makeEvent(K::SwitchEnd, u"3060"_s, u"main"_s, at(600)));
    model.append(makeEvent(K::IdleStop, u"3060"_s, u"main"_s, at(650)));
    model.append(makeEvent(K::SleepCommand, u"3060"_s, {}, at(651)));
    model.append(makeEvent(K::WakeSent, u"3060"_s, {}, at(700)));
    model.append(makeEvent(K::Woke, u"3060"_s, {}, at(704)));
    model.append(makeEvent(K::SwitchEnd, u"3060"_s, u"main"_s, at(706)));
    spans = model.engineIntervals(u"3060"_s, at(600), at(800));
    QCOMPARE(spans.size(), 2);
    QCOMPARE(spans[0].end, at(650));
    QVERIFY(!spans[0].ongoing);
    QCOMPARE(spans[1].start, at(706));
    QVERIFY(spans[1].ongoing);
}

void TestStoreModels::requestLogDurations_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("sub-ms") << qint64(420'000) << u"420 µs"_s;
    QTest::newRow("tiny") << qint64(3'000) << u"3 µs"_s;
    QTest::newRow("few ms") << qint64(3'450'000) << u"3.5 ms"_s;
    QTest::newRow("ms") << qint64(345'678'000) << u"346 ms"_s;
    QTest::newRow("s") << qint64(2'326'000'000) << u"2.33 s"_s;
    QTest::newRow("tens of s") << qint64(42'260'000'000) << u"42.3 s"_s;
    QTest::newRow("minutes") << qint64(184'000'000'000) << u"3 min 04 s"_s;
}

void TestStoreModels::requestLogDurations()
{
    // The same words in the table and the details pane; never "0s" for a request that took time.
    QFETCH(qint64, ns);
    QFETCH(QString, text);
    QCOMPARE(RequestLogModel::durationText(std::chrono::nanoseconds(ns)), text);

    RequestLogModel model;
    RequestRecord get = makeRecord({}, {}, 200, baseTime());
    get.method = u"GET"_s;
    get.path = u"/v1/models"_s;
    get.duration = std::chrono::nanoseconds(ns);
    get.timeToFirstByte = std::chrono::nanoseconds(ns);
    RequestRecord empty = get;
    empty.status = 204;
    empty.bytesOut = 0;   // no body: no first byte of one
    model.appendRecords({get, empty});
    QCOMPARE(model.index(0, RequestLogModel::DurationColumn).data().toString(), text);
    QCOMPARE(model.index(0, RequestLogModel::TtfbColumn).data().toString(), text);
    QCOMPARE(model.index(1, RequestLogModel::TtfbColumn).data().toString(), u"—"_s);
}

void TestStoreModels::requestLogWaitBound_data()
{
    QTest::addColumn<int>("phase");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("boundInS");   // -1: no bound
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("waiting");
    const int waiting = int(RequestPhase::Waiting);
    const int sw = int(WaitReason::Kind::Switch);
    QTest::newRow("held for a switch, with its bound") << waiting << sw << 25
        << u"waiting: switch fork→mainline · at the latest 10:42:40"_s
        << u"waits for engine mainline · switch at the latest 10:42:40 (in 25 s)"_s;
    QTest::newRow("a bound minutes away") << waiting << sw << 95
        << u"waiting: switch fork→mainline · at the latest 10:43:50"_s
        << u"waits for engine mainline · switch at the latest 10:43:50 (in 1 min 35 s)"_s;
    QTest::newRow("a bound passed") << waiting << sw << 0
        << u"waiting: switch fork→mainline · at the latest 10:42:15"_s
        << u"waits for engine mainline · switch at the latest 10:42:15 (in 0 s)"_s;
    QTest::newRow("a switch without a bound") << waiting << sw << -1 << u"waiting: switch fork→mainline"_s
        << u"waits for engine mainline"_s;
    QTest::newRow("a model load") << waiting << int(WaitReason::Kind::ModelLoad) << -1 << u"waiting: model loading"_s
        << u"waits for its model to load"_s;
    QTest::newRow("streaming: no wait") << int(RequestPhase::Streaming) << sw << 25 << u"streaming"_s << QString();
}

// Issue 31 item 1: what a waiting request waits for and until when, from its facts (the reason
// and the bound as a time), in the log's row and its details.
void TestStoreModels::requestLogWaitBound()
{
    QFETCH(int, phase);
    QFETCH(int, kind);
    QFETCH(int, boundInS);
    QFETCH(QString, status);
    QFETCH(QString, waiting);
    const QDateTime now(QDate(2026, 12, 7), QTime(10, 42, 15));
    RequestRecord r = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 0, now);
    r.waitReason = {WaitReason::Kind(kind), u"fork"_s, u"mainline"_s};
    if (kind != int(WaitReason::Kind::Switch))
        r.waitReason = {WaitReason::Kind(kind), {}, {}};
    if (boundInS >= 0)
        r.waitUntil = now.addSecs(boundInS);
    QCOMPARE(RequestLogModel::liveStatusText(RequestPhase(phase), r), status);
    QCOMPARE(RequestLogModel::waitingText(RequestPhase(phase), r, now), waiting);
}

void TestStoreModels::requestLogLiveRows()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RequestRecord r = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 0, baseTime());
    r.liveId = 7;
    r.startedSteady = std::chrono::steady_clock::now() - 1500ms;
    r.duration = {};
    r.bytesOut = 0;

    // Arrives, then waits for a switch: one row, in place.
    model.updateLive(r, RequestPhase::Arrived);
    r.waitReason = {WaitReason::Kind::Switch, u"fork"_s, u"mainline"_s};
    r.waitingSince = r.startedSteady;
    model.updateLive(r, RequestPhase::Waiting);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, 5000);
    QVERIFY(model.isLive(0));
    QCOMPARE(model.liveCount(), 1);
    const auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(0, column).data(role); };
    QCOMPARE(cell(RequestLogModel::StatusColumn).toString(), u"waiting: switch fork→mainline"_s);
    QCOMPARE(RequestLogModel::Severity(cell(0, RequestLogModel::SeverityRole).toInt()), RequestLogModel::Severity::InProgress);
    QCOMPARE(cell(0, RequestLogModel::LiveRole).toBool(), true);
    QVERIFY(cell(RequestLogModel::DurationColumn).toString().endsWith(u" s"_s));   // 1.5 s and counting
    QCOMPARE(cell(RequestLogModel::TtfbColumn).toString(), u"—"_s);

    // Streams: the token count rises in the same row.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    r.waitingSince = {};
    r.waited = 1400ms;
    model.updateLive(r, RequestPhase::Streaming);
    r.streamedTokens = 42;
    model.updateLive(r, RequestPhase::Streaming);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(changed.size(), 2);
    QCOMPARE(cell(RequestLogModel::StatusColumn).toString(), u"streaming"_s);
    QCOMPARE(cell(RequestLogModel::TokensPerSecondColumn).toString(), u"42 tokens"_s);
    // Its duration ticks while it runs.
    QVERIFY(changed.wait(3000));

    // Done: the finished record (the store's, with its id) takes the row.
    RequestRecord done = r;
    done.id = 5;
    done.status = 200;
    done.duration = 2600ms;
    done.bytesOut = 900;
    done.timeToFirstByte = 1450ms;
    done.tokensPerSecond = 40.0;
    model.append(done);
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(!model.isLive(0));
    QCOMPARE(model.liveCount(), 0);
    QCOMPARE(cell(RequestLogModel::StatusColumn).toString(), u"200"_s);
    QCOMPARE(cell(0, RequestLogModel::RecordIdRole).toLongLong(), 5);
    QCOMPARE(RequestLogModel::Severity(cell(0, RequestLogModel::SeverityRole).toInt()), RequestLogModel::Severity::Normal);

    // A request that ends within the turn it arrived in is one insertion of its finished record.
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    RequestRecord quick = makeRecord({}, {}, 404, baseTime().addSecs(3));
    quick.liveId = 8;
    model.updateLive(quick, RequestPhase::Arrived);
    quick.id = 6;
    model.append(quick);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, 5000);
    QCOMPARE(inserted.size(), 1);
    QVERIFY(!model.isLive(1));
    QCOMPARE(model.recordAt(1).id, 6);

    // A store reload keeps what is still in flight.
    RequestRecord running = makeRecord(u"m"_s, u"h"_s, 0, baseTime().addSecs(4));
    running.liveId = 9;
    model.updateLive(running, RequestPhase::Upstream);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 3, 5000);
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    model.loadFrom(store, {});
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.isLive(0));
    QCOMPARE(model.index(0, RequestLogModel::StatusColumn).data().toString(), u"sent"_s);
}

void TestStoreModels::requestLogAbortedAndOwn()
{
    RequestLogModel model;
    RequestRecord aborted = makeRecord(u"m"_s, u"h"_s, 200, baseTime());
    aborted.relayError = RequestRecord::ClientLeftError;
    QVERIFY(aborted.clientLeft());
    model.appendRecords({aborted});
    // Not a red 200: the client went away.
    QCOMPARE(model.index(0, RequestLogModel::StatusColumn).data().toString(), u"aborted"_s);
    QCOMPARE(RequestLogModel::Severity(model.index(0, 0).data(RequestLogModel::SeverityRole).toInt()),
             RequestLogModel::Severity::Aborted);

    RequestRecord load = makeRecord(u"m"_s, u"h"_s, 200, baseTime());
    load.userAgent = u"switchyard-desktop/0.9"_s;
    QVERIFY(RequestLogModel::isOwnRequest(load));
    load.userAgent = u"switchyard-export/0.9"_s;
    QVERIFY(RequestLogModel::isOwnRequest(load));
    load.userAgent = u"switchyard-traffic"_s;   // the demo's clients are clients
    QVERIFY(!RequestLogModel::isOwnRequest(load));
}

QTEST_GUILESS_MAIN(TestStoreModels)

#include "tst_storemodels.moc"
