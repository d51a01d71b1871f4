// The history store on disk: its schema and migration, writes flushed in batches, queries and
// filters, events, reopening, a crash under load (this executable as its child), the wait,
// bytes in and restored prompt caches round-tripped.
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

namespace {

constexpr char ChildEnv[] = "SWITCHYARD_STORE_CHILD";

// The crash test's child: records a request every 2 ms and prints the id of the last request
// in each committed batch, until the parent kills it.
int runChild(int argc, char **argv, const QString &dbPath)
{
    QCoreApplication app(argc, argv);
    SystemClock clock;
    HistoryStore store(dbPath, clock);
    if (!store.isOpen()) {
        std::fprintf(stderr, "child: %s\n", qPrintable(store.errorString()));
        return 2;
    }
    store.setFlushInterval(100ms);
    QObject::connect(&store, &HistoryStore::flushed, &app, [](qint64 lastRequestId, qint64, int, int) {
        if (lastRequestId > 0) {
            std::printf("%lld\n", static_cast<long long>(lastRequestId));
            std::fflush(stdout);
        }
    });
    QTimer tick;
    tick.setInterval(2ms);
    int n = 0;
    QObject::connect(&tick, &QTimer::timeout, &store, [&] {
        store.record(makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200));
        if (++n % 25 == 0)
            store.recordEvent(makeEvent(HistoryEvent::Kind::Load, u"3090"_s, u"fork"_s, {}, u"flint-40b"_s));
    });
    tick.start();
    QTimer::singleShot(60s, &app, &QCoreApplication::quit);   // if the parent is gone
    return app.exec();
}

} // namespace

class TestHistoryStore : public QObject
{
    Q_OBJECT

private slots:
    void schema();
    void flushedWithinInterval();
    void batchIsOneTransaction();
    void queriesAndFilters();
    void queriesSeeUnflushedRows();
    void eventsRoundTrip();
    void relayRunsRoundTrip();
    void reopenKeepsRowsAndIds();
    void crashDurability();
    // Issue #21: the wait and bytes in, stored; #22: honest durations, live rows.
    void schemaMigratesVersion1();
    void waitAndBytesInRoundTrip();
    void restoredCacheRoundTrips();
    // Issue #31: the prompt-cache index outlives the store, per host.
    void savedSlotsRoundTrip();
};

void TestHistoryStore::schema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"sub/dir/history.sqlite"_s);   // parents are created
    FakeClock clock(baseTime());
    {
        HistoryStore store(path, clock);
        QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
        RawDb raw(path);
        QVERIFY(raw.isOpen());
        QCOMPARE(raw.scalar(u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
        QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), HistorySchema::currentVersion());
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'requests_%'"_s).toInt(), 3);
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'events_%'"_s).toInt(), 2);
    }
    {
        // A database from a newer build is refused, not written to.
        RawDb raw(path);
        QVERIFY(raw.exec(u"PRAGMA user_version = 99"_s));
    }
    HistoryStore newer(path, clock);
    QVERIFY(!newer.isOpen());
    QVERIFY(newer.errorString().contains(u"99"_s));
    QSignalSpy errors(&newer, &HistoryStore::errorOccurred);
    newer.record(makeRecord(u"a"_s, u"h"_s, 200));
    QVERIFY(!newer.sync());
    QVERIFY(errors.wait(5000));
}

void TestHistoryStore::flushedWithinInterval()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    HistoryStore store(path, clock);
    QVERIFY(store.isOpen());
    store.setFlushInterval(200ms);
    QSignalSpy flushed(&store, &HistoryStore::flushed);
    QSignalSpy recorded(&store, &HistoryStore::requestRecorded);
    RawDb raw(path);

    QElapsedTimer elapsed;
    elapsed.start();
    for (int i = 0; i < 3; ++i)
        store.record(makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200));
    QCOMPARE(recorded.size(), 3);   // at once, for live views
    QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM requests"_s).toInt(), 0);   // only in memory so far

    QVERIFY(flushed.wait(5000));
    QVERIFY2(elapsed.elapsed() < 1500, qPrintable(QString::number(elapsed.elapsed())));
    QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM requests"_s).toInt(), 3);
    QCOMPARE(flushed.first().at(0).toLongLong(), 3);   // last request id
    QCOMPARE(flushed.first().at(2).toInt(), 3);
}

void TestHistoryStore::batchIsOneTransaction()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    HistoryStore store(path, clock);
    store.setFlushInterval(100ms);
    QSignalSpy flushed(&store, &HistoryStore::flushed);
    for (int i = 0; i < 500; ++i) {
        store.record(makeRecord(u"m%1"_s.arg(i % 7), u"3090"_s, 200));
        if (i % 50 == 0)
            store.recordEvent(makeEvent(HistoryEvent::Kind::Load, u"3090"_s, u"fork"_s, {}, u"m"_s));
    }
    QVERIFY(flushed.wait(5000));
    QTest::qWait(300);   // a second batch, if the store split this one, would have come by now
    QCOMPARE(flushed.size(), 1);
    const QList<QVariant> args = flushed.first();
    QCOMPARE(args.at(0).toLongLong(), 500);
    QCOMPARE(args.at(1).toLongLong(), 10);
    QCOMPARE(args.at(2).toInt(), 500);
    QCOMPARE(args.at(3).toInt(), 10);
    RawDb raw(path);
    QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM requests"_s).toInt(), 500);
    QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM events"_s).toInt(), 10);
}

void TestHistoryStore::queriesAndFilters()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    const QDateTime t0 = baseTime();

    RequestRecord full = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, t0);
    full.method = u"GET"_s;
    full.path = u"/props"_s;
    full.engine = u"mainline"_s;
    full.bytesOut = 49489;
    full.duration = 1234567ns;
    full.timeToFirstByte = 345678ns;
    full.streamedTokens = 812;
    full.tokensPerSecond = 97.25;
    full.clientAddress = u"192.0.2.11"_s;
    full.userAgent = u"opencode/1.0"_s;
    full.relayError = u"upstream hiccup"_s;
    store.record(full);
    store.record(makeRecord(u"3090-flint-40b"_s, u"3090"_s, 424, t0.addSecs(10)));
    store.record(makeRecord(u"a9-laguna"_s, u"a9"_s, 200, t0.addSecs(20)));
    store.record(makeRecord(u"a9-laguna"_s, u"a9"_s, 502, t0.addSecs(30)));
    store.record(makeRecord(u"3090-nope"_s, QString(), 404, t0.addSecs(40)));
    RequestRecord noStart = makeRecord(u"x"_s, u"a9"_s, 200);   // stamped with the clock
    clock.advance(50s);
    store.record(noStart);
    QVERIFY(store.sync());

    const auto ids = [](const QList<RequestRecord> &rows) {
        QList<qint64> out;
        for (const RequestRecord &r : rows)
            out << r.id;
        return out;
    };
    RequestQuery q;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{6, 5, 4, 3, 2, 1}));   // newest first
    q.since = t0.addSecs(20);
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{6, 5, 4, 3}));
    q.until = t0.addSecs(40);
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{4, 3}));
    q = {};
    q.host = u"a9"_s;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{6, 4, 3}));
    q.model = u"a9-laguna"_s;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{4, 3}));
    q = {};
    q.status = 424;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{2}));
    q = {};
    q.errorsOnly = true;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{5, 4, 2}));
    q.limit = 2;
    QCOMPARE(ids(store.requests(q)), (QList<qint64>{5, 4}));

    q = {};
    q.status = 200;
    q.host = u"3090"_s;
    const QList<RequestRecord> rows = store.requests(q);
    QCOMPARE(rows.size(), 1);
    const RequestRecord &r = rows.first();
    QCOMPARE(r.startedAt, full.startedAt);
    QCOMPARE(r.method, full.method);
    QCOMPARE(r.path, full.path);
    QCOMPARE(r.model, full.model);
    QCOMPARE(r.host, full.host);
    QCOMPARE(r.engine, full.engine);
    QCOMPARE(r.status, full.status);
    QCOMPARE(r.bytesOut, full.bytesOut);
    QCOMPARE(r.duration.count(), full.duration.count());
    QCOMPARE(r.timeToFirstByte->count(), full.timeToFirstByte->count());
    QCOMPARE(r.streamedTokens, full.streamedTokens);
    QCOMPARE(r.tokensPerSecond, full.tokensPerSecond);
    QCOMPARE(r.clientAddress, full.clientAddress);
    QCOMPARE(r.userAgent, full.userAgent);
    QCOMPARE(r.relayError, full.relayError);

    q = {};
    q.model = u"x"_s;
    const QList<RequestRecord> stamped = store.requests(q);
    QCOMPARE(stamped.size(), 1);
    QCOMPARE(stamped.first().startedAt, clock.now());
    QVERIFY(!stamped.first().timeToFirstByte);
    QVERIFY(!stamped.first().streamedTokens);
    QVERIFY(!stamped.first().tokensPerSecond);
}

void TestHistoryStore::queriesSeeUnflushedRows()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    store.setFlushInterval(1h);   // the timer would never get there in this test
    store.record(makeRecord(u"a"_s, u"h"_s, 200));
    store.recordEvent(makeEvent(HistoryEvent::Kind::HostUp, u"h"_s, {}, {}));
    QCOMPARE(allRequests(store).size(), 1);
    QCOMPARE(store.events({}, 10).size(), 1);
    store.record(makeRecord(u"a"_s, u"h"_s, 500));
    QCOMPARE(store.stats({}).value(u"a"_s).errors, 1);
}

void TestHistoryStore::eventsRoundTrip()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    QSignalSpy recorded(&store, &HistoryStore::eventRecorded);
    const QDateTime t0 = baseTime();
    store.recordEvent(makeEvent(HistoryEvent::Kind::SwitchStart, u"3090"_s, u"fork"_s, t0, u"3090-flint-40b"_s));
    HistoryEvent end = makeEvent(HistoryEvent::Kind::SwitchEnd, u"3090"_s, u"fork"_s, t0.addSecs(2));
    end.duration = 2326ms;
    store.recordEvent(end);
    HistoryEvent failed = makeEvent(HistoryEvent::Kind::SwitchFailed, u"a9"_s, u"mainline"_s, t0.addSecs(5));
    failed.detail = u"exit code 1"_s;
    store.recordEvent(failed);
    clock.advance(60s);
    store.recordEvent(makeEvent(HistoryEvent::Kind::HostDown, u"a9"_s, {}, {}));   // clock's now
    QCOMPARE(recorded.size(), 4);
    QCOMPARE(recorded.at(3).at(0).value<HistoryEvent>().at, clock.now());

    const QList<HistoryEvent> all = store.events({}, 0);
    QCOMPARE(all.size(), 4);
    QCOMPARE(all.at(0).kind, HistoryEvent::Kind::HostDown);   // newest first
    QCOMPARE(all.at(0).id, 4);
    QCOMPARE(all.at(0).at, clock.now());
    QCOMPARE(all.at(1).kind, HistoryEvent::Kind::SwitchFailed);
    QCOMPARE(all.at(1).detail, u"exit code 1"_s);
    QCOMPARE(all.at(1).host, u"a9"_s);
    QCOMPARE(all.at(1).engine, u"mainline"_s);
    QCOMPARE(all.at(2).kind, HistoryEvent::Kind::SwitchEnd);
    QCOMPARE(all.at(2).duration, std::optional(2326ms));
    QCOMPARE(all.at(2).at, t0.addSecs(2));
    QCOMPARE(all.at(2).toString(), u"host 3090: engine fork up after 2s"_s);
    QCOMPARE(all.at(3).model, u"3090-flint-40b"_s);
    QVERIFY(!all.at(3).duration);
    QCOMPARE(store.events(t0.addSecs(1), 0).size(), 3);
    QCOMPARE(store.events({}, 1).size(), 1);
}

void TestHistoryStore::relayRunsRoundTrip()
{
    // Issue 30, item 9: when the relay ran is kept by kind name, with no host, and read back
    // after a reopen; a kind this build does not know (a newer one's) is skipped, not guessed.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    const QDateTime t0 = baseTime();
    {
        HistoryStore store(path, clock);
        store.recordEvent(makeEvent(HistoryEvent::Kind::RelayStarted, {}, {}, t0));
        store.recordEvent(makeEvent(HistoryEvent::Kind::HostUp, u"3090"_s, u"fork"_s, t0.addSecs(1)));
        store.recordEvent(makeEvent(HistoryEvent::Kind::RelayStopped, {}, {}, t0.addSecs(60)));
    }
    {
        RawDb raw(path);
        QVERIFY(raw.isOpen());
        QCOMPARE(raw.scalar(u"SELECT group_concat(kind || '/' || host, ',') FROM (SELECT kind, host FROM events ORDER BY id)"_s)
                     .toString(),
                 u"relay_started/,host_up/3090,relay_stopped/"_s);
        QVERIFY(raw.exec(u"INSERT INTO events (at, kind) VALUES (%1, 'relay_paused')"_s.arg(t0.addSecs(70).toMSecsSinceEpoch())));
    }
    HistoryStore store(path, clock);
    QVERIFY(store.isOpen());
    const QList<HistoryEvent> all = store.events({}, 0);
    QCOMPARE(all.size(), 3);
    QCOMPARE(all.at(0).kind, HistoryEvent::Kind::RelayStopped);
    QCOMPARE(all.at(0).at, t0.addSecs(60));
    QVERIFY(all.at(0).host.isEmpty());
    QCOMPARE(all.at(2).kind, HistoryEvent::Kind::RelayStarted);
    QCOMPARE(all.at(2).at, t0);
}

void TestHistoryStore::reopenKeepsRowsAndIds()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    {
        HistoryStore store(path, clock);
        store.setFlushInterval(1h);
        for (int i = 0; i < 3; ++i)
            store.record(makeRecord(u"m"_s, u"h"_s, 200));
        store.recordEvent(makeEvent(HistoryEvent::Kind::HostUp, u"h"_s, {}, {}));
        // Not flushed by the timer: the destructor writes it.
    }
    HistoryStore store(path, clock);
    QVERIFY(store.isOpen());
    QCOMPARE(allRequests(store).size(), 3);
    QSignalSpy recorded(&store, &HistoryStore::requestRecorded);
    QSignalSpy events(&store, &HistoryStore::eventRecorded);
    store.record(makeRecord(u"m"_s, u"h"_s, 200));
    store.recordEvent(makeEvent(HistoryEvent::Kind::HostUp, u"h"_s, {}, {}));
    QCOMPARE(recorded.first().at(0).value<RequestRecord>().id, 4);
    QCOMPARE(events.first().at(0).value<HistoryEvent>().id, 2);
}

void TestHistoryStore::crashDurability()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);

    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(ChildEnv), path);
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QList<qint64> reported;
    QByteArray pending;
    const auto readLines = [&] {
        pending += child.readAllStandardOutput();
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            reported << pending.left(nl).toLongLong();
            pending.remove(0, nl + 1);
        }
    };
    connect(&child, &QProcess::readyReadStandardOutput, this, readLines);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForStarted(10000));

    // Let it write for a while (a batch every 100 ms), then kill it mid-load.
    QTRY_VERIFY_WITH_TIMEOUT(reported.size() >= 15, 30000);
    child.kill();   // SIGKILL: no destructor, no last flush
    QVERIFY(child.waitForFinished(10000));
    readLines();
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QVERIFY(std::is_sorted(reported.cbegin(), reported.cend()));
    const qint64 lastReported = reported.last();
    QVERIFY(lastReported > 100);

    {
        RawDb raw(path);
        QVERIFY(raw.isOpen());
        QCOMPARE(raw.scalar(u"PRAGMA integrity_check"_s).toString(), u"ok"_s);
        // Every committed batch is there, and nothing in between is missing.
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM requests WHERE id <= %1"_s.arg(lastReported)).toLongLong(),
                 lastReported);
        QVERIFY(raw.scalar(u"SELECT COUNT(*) FROM events"_s).toLongLong() > 0);
    }
    // And the store opens it again and carries on after the last id.
    SystemClock clock;
    HistoryStore store(path, clock);
    QVERIFY(store.isOpen());
    QSignalSpy recorded(&store, &HistoryStore::requestRecorded);
    store.record(makeRecord(u"after"_s, u"h"_s, 200));
    QVERIFY(recorded.first().at(0).value<RequestRecord>().id > lastReported);
}

// ---- issue #21: the wait, bytes in, live rows --------------------------------------------------

void TestHistoryStore::schemaMigratesVersion1()
{
    // A database as the first schema left it, with a row: the new columns come with defaults.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    {
        RawDb raw(path);
        QVERIFY(raw.isOpen());
        QVERIFY(raw.exec(u"CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at INTEGER NOT NULL,"
                          " method TEXT NOT NULL DEFAULT '', path TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',"
                          " host TEXT NOT NULL DEFAULT '', engine TEXT NOT NULL DEFAULT '', status INTEGER NOT NULL DEFAULT 0,"
                          " bytes_out INTEGER NOT NULL DEFAULT 0, duration_ms REAL NOT NULL DEFAULT 0, ttfb_ms REAL,"
                          " tokens INTEGER, tokens_per_s REAL, client TEXT NOT NULL DEFAULT '',"
                          " user_agent TEXT NOT NULL DEFAULT '', relay_error TEXT NOT NULL DEFAULT '')"_s));
        QVERIFY(raw.exec(u"CREATE INDEX requests_started_at ON requests(started_at)"_s));
        QVERIFY(raw.exec(u"CREATE INDEX requests_host ON requests(host, started_at)"_s));
        QVERIFY(raw.exec(u"CREATE INDEX requests_model ON requests(model, started_at)"_s));
        QVERIFY(raw.exec(u"CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL,"
                          " kind TEXT NOT NULL, host TEXT NOT NULL DEFAULT '', engine TEXT NOT NULL DEFAULT '',"
                          " model TEXT NOT NULL DEFAULT '', duration_ms REAL, detail TEXT NOT NULL DEFAULT '')"_s));
        QVERIFY(raw.exec(u"CREATE INDEX events_at ON events(at)"_s));
        QVERIFY(raw.exec(u"CREATE INDEX events_host ON events(host, at)"_s));
        QVERIFY(raw.exec(u"INSERT INTO requests (started_at, method, path, model, host, status, duration_ms)"
                          " VALUES (%1, 'POST', '/v1/messages', 'old-model', 'h', 200, 12.5)"_s
                              .arg(baseTime().toMSecsSinceEpoch())));
        QVERIFY(raw.exec(u"PRAGMA user_version = 1"_s));
    }
    FakeClock clock(baseTime());
    HistoryStore store(path, clock);
    QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
    {
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), HistorySchema::currentVersion());
        QCOMPARE(raw.scalar(u"SELECT wait_reason FROM requests WHERE model = 'old-model'"_s).toString(), QString());
    }
    const QList<RequestRecord> rows = allRequests(store);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().model, u"old-model"_s);
    QCOMPARE(rows.first().bytesIn, qint64(0));
    QCOMPARE(rows.first().waited, std::chrono::nanoseconds(0));
    QVERIFY(rows.first().waitReason.isNone());
    QCOMPARE(rows.first().restoredPromptTokens, qint64(0));
}

void TestHistoryStore::waitAndBytesInRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    {
        HistoryStore store(path, clock);
        QVERIFY(store.isOpen());
        RequestRecord waited = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime());
        waited.bytesIn = 4321;
        waited.waited = 2300ms;
        waited.waitReason = {WaitReason::Kind::Switch, u"fork"_s, u"mainline"_s};
        store.record(waited);
        RequestRecord direct = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime().addSecs(1));
        direct.bytesIn = 17;
        store.record(direct);
        QVERIFY(store.sync());
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"SELECT wait_reason FROM requests WHERE bytes_in = 4321"_s).toString(),
                 u"switch fork→mainline"_s);
        QCOMPARE(raw.scalar(u"SELECT waited_ms FROM requests WHERE bytes_in = 4321"_s).toDouble(), 2300.0);
    }
    HistoryStore reopened(path, clock);
    const QList<RequestRecord> rows = allRequests(reopened);   // newest first
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(1).bytesIn, qint64(4321));
    QCOMPARE(rows.at(1).waited, std::chrono::nanoseconds(2300ms));
    QCOMPARE(rows.at(1).waitReason, (WaitReason{WaitReason::Kind::Switch, u"fork"_s, u"mainline"_s}));
    QCOMPARE(rows.at(0).bytesIn, qint64(17));
    QVERIFY(rows.at(0).waitReason.isNone());
    // No wait: the journal line is the one it always was.
    QVERIFY(!JournalFormat::requestLine(rows.at(0)).contains(u"wait"_s));
}

// A request served from a restored prompt cache says so after a restart too: the record, and
// the journal line the window and /admin/requests show.
void TestHistoryStore::restoredCacheRoundTrips()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    {
        HistoryStore store(path, clock);
        QVERIFY(store.isOpen());
        RequestRecord restored = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime());
        restored.restoredPromptTokens = 20860;
        store.record(restored);
        store.record(makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime().addSecs(1)));
        QVERIFY(store.sync());
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"SELECT SUM(restored_tokens) FROM requests"_s).toLongLong(), 20860);
    }
    HistoryStore reopened(path, clock);
    const QList<RequestRecord> rows = allRequests(reopened);   // newest first
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(1).restoredPromptTokens, qint64(20860));
    QVERIFY(JournalFormat::requestLine(rows.at(1)).endsWith(u" cache=restored:20860"_s));
    QCOMPARE(rows.at(0).restoredPromptTokens, qint64(0));
    QVERIFY(!JournalFormat::requestLine(rows.at(0)).contains(u"cache="_s));
}

void TestHistoryStore::savedSlotsRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    SavedSlot a;
    a.host = u"3090"_s;
    a.engine = u"fork"_s;
    a.model = u"qwen"_s;
    a.slot = 1;
    a.filename = u"switchyard-fork-qwen-0123abcd-slot1.bin"_s;
    a.tokens = 48213;
    a.bytes = 1131400000;
    a.savedAt = baseTime();
    a.took = std::chrono::milliseconds(900);
    a.modelIdentity = uR"({"path":"/m/qwen.gguf"})"_s;
    a.pending = true;
    SavedSlot b = a;
    b.slot = 2;
    b.savedAt = baseTime().addSecs(5);
    b.pending = false;
    SavedSlot other = a;
    other.host = u"a9"_s;
    {
        HistoryStore store(path, clock);
        QVERIFY(store.isOpen());
        store.keepSavedSlot(a);
        store.keepSavedSlot(b);
        store.keepSavedSlot(other);
        SavedSlot replaced = b;
        replaced.tokens = 7;
        store.keepSavedSlot(replaced);   // the same slot saved again: one row
        store.forgetSavedSlot(other);
        QVERIFY(store.sync());
    }
    HistoryStore reopened(path, clock);
    const QList<SavedSlot> rows = reopened.savedSlots(u"3090"_s);   // newest first
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(0).slot, 2);
    QCOMPARE(rows.at(0).tokens, qint64(7));
    QVERIFY(!rows.at(0).pending);
    QCOMPARE(rows.at(1).key(), a.key());
    QCOMPARE(rows.at(1).host, a.host);
    QCOMPARE(rows.at(1).filename, a.filename);
    QCOMPARE(rows.at(1).tokens, a.tokens);
    QCOMPARE(rows.at(1).bytes, a.bytes);
    QCOMPARE(rows.at(1).savedAt, a.savedAt);
    QCOMPARE(rows.at(1).took, a.took);
    QCOMPARE(rows.at(1).modelIdentity, a.modelIdentity);
    QVERIFY(rows.at(1).pending);
    QVERIFY(reopened.savedSlots(u"a9"_s).isEmpty());
}

int main(int argc, char **argv)
{
    // The crash test runs this binary as its child: no tests there, just a store under load.
    if (qEnvironmentVariableIsSet(ChildEnv))
        return runChild(argc, argv, qEnvironmentVariable(ChildEnv));
    QCoreApplication app(argc, argv);
    TestHistoryStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_historystore.moc"
