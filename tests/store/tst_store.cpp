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

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr char ChildEnv[] = "SWITCHYARD_STORE_CHILD";

class FakeClock final : public Clock
{
public:
    explicit FakeClock(QDateTime now) : m_now(std::move(now)) {}
    QDateTime now() const override { return m_now; }
    void advance(std::chrono::seconds by) { m_now = m_now.addSecs(by.count()); }

private:
    QDateTime m_now;
};

QDateTime baseTime()
{
    return QDateTime(QDate(2026, 10, 24), QTime(22, 21, 38, 674));
}

RequestRecord makeRecord(const QString &model, const QString &host, int status,
                         const QDateTime &startedAt = {})
{
    RequestRecord r;
    r.startedAt = startedAt;
    r.method = u"POST"_s;
    r.path = u"/v1/chat/completions"_s;
    r.model = model;
    r.host = host;
    r.engine = u"fork"_s;
    r.status = status;
    r.bytesOut = 1234;
    r.duration = 2326ms;
    r.clientAddress = u"192.0.2.10"_s;
    r.userAgent = u"Python-urllib/3.14"_s;
    return r;
}

HistoryEvent makeEvent(HistoryEvent::Kind kind, const QString &host, const QString &engine,
                       const QDateTime &at, const QString &model = {})
{
    HistoryEvent e;
    e.kind = kind;
    e.host = host;
    e.engine = engine;
    e.at = at;
    e.model = model;
    return e;
}

// A second, independent connection to a store's file: what another process would see.
class RawDb
{
public:
    explicit RawDb(const QString &path)
        : m_name(u"raw-%1"_s.arg(++s_counter))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
        db.setDatabaseName(path);
        m_open = db.open();
    }
    ~RawDb()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    bool isOpen() const { return m_open; }

    bool exec(const QString &sql) const
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        return q.exec(sql);
    }

    QVariant scalar(const QString &sql) const
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.exec(sql) || !q.next()) {
            qWarning() << sql << q.lastError().text();
            return {};
        }
        return q.value(0);
    }

private:
    static inline int s_counter = 0;
    QString m_name;
    bool m_open = false;
};

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<RequestRecord> allRequests(HistoryStore &store)
{
    RequestQuery q;
    q.limit = 0;
    return store.requests(q);
}

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

Q_DECLARE_METATYPE(QList<int>)

class TestStore : public QObject
{
    Q_OBJECT

private slots:
    void redactor_data();
    void redactor();
    void eventText_data();
    void eventText();
    void eventKindNames();
    void schema();
    void flushedWithinInterval();
    void batchIsOneTransaction();
    void queriesAndFilters();
    void queriesSeeUnflushedRows();
    void eventsRoundTrip();
    void stats_data();
    void stats();
    void statsSkipLoadsAndLeaseRefusals();
    void retentionByAge();
    void retentionMaxRows();
    void redactionNeverReachesDisk();
    void reopenKeepsRowsAndIds();
    void crashDurability();
    void requestLogModel();
    void requestLogModelLoadFromStore();
    // Issue #21: the wait and bytes in, stored; #22: honest durations, live rows.
    void schemaMigratesVersion1();
    void waitAndBytesInRoundTrip();
    void restoredCacheRoundTrips();
    void waitReasonText_data();
    void waitReasonText();
    void requestLogDurations_data();
    void requestLogDurations();
    void requestLogLiveRows();
    void requestLogAbortedAndOwn();
    void timelineModel();
    void timelineIntervals();
};

void TestStore::redactor_data()
{
    QTest::addColumn<QStringList>("secrets");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");

    const QStringList none;
    QTest::newRow("plain path") << none << u"/v1/chat/completions"_s << u"/v1/chat/completions"_s;
    QTest::newRow("plain ua") << none << u"python-requests/2.31"_s << u"python-requests/2.31"_s;
    QTest::newRow("sk inside a word") << none << u"ask-me-anything-model-large"_s
                                      << u"ask-me-anything-model-large"_s;
    QTest::newRow("bearer") << none << u"auth failed: Bearer secret123"_s << u"auth failed: [redacted]"_s;
    QTest::newRow("bearer lowercase") << none << u"bearer abc.def-ghi, then"_s << u"[redacted], then"_s;
    QTest::newRow("authorization bearer") << none << u"Authorization: Bearer secret123"_s
                                          << u"Authorization: [redacted]"_s;
    QTest::newRow("authorization basic") << none << u"authorization=Basic dXNlcjpwYXNz end"_s
                                         << u"authorization=[redacted] end"_s;
    QTest::newRow("sk key") << none << u"key sk-ant-api03-abcDEF123_x rejected"_s
                            << u"key [redacted] rejected"_s;
    QTest::newRow("upper case") << none << u"BEARER SECRET99 and ACCESS_TOKEN=zz9 x"_s
                                << u"[redacted] and ACCESS_TOKEN=[redacted] x"_s;
    QTest::newRow("word at the very end") << none << u"x-api-key:k9"_s << u"x-api-key:[redacted]"_s;
    QTest::newRow("word cut off at the end") << none << u"a bea"_s << u"a bea"_s;
    QTest::newRow("x-api-key") << none << u"x-api-key: abc123xyz"_s << u"x-api-key: [redacted]"_s;
    QTest::newRow("api_key json") << none << uR"({"api_key": "abc123"})"_s
                                  << uR"({"api_key": "[redacted]"})"_s;
    QTest::newRow("configured") << QStringList{u"hunter2-configured"_s}
                                << u"/v1/hunter2-configured/x"_s << u"/v1/[redacted]/x"_s;
    QTest::newRow("longest first") << QStringList{u"abc"_s, u"abcdef"_s}
                                   << u"xabcdefx abc"_s << u"x[redacted]x [redacted]"_s;
    QTest::newRow("empty secret ignored") << QStringList{QString()} << u"text"_s << u"text"_s;
}

void TestStore::redactor()
{
    QFETCH(QStringList, secrets);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Redactor r;
    r.setSecrets(secrets);
    QCOMPARE(r.redact(input), expected);
    QCOMPARE(r.redact(expected), expected);   // idempotent
}

void TestStore::eventText_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("durationMs");   // -1: none
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QString>("expected");

    using K = HistoryEvent::Kind;
    QTest::newRow("switch start (seed)") << int(K::SwitchStart) << u"fork"_s << u"3090-flint-40b"_s
                                         << qint64(-1) << QString()
                                         << u"host 3090: switching to engine fork for 3090-flint-40b"_s;
    QTest::newRow("switch end (seed)") << int(K::SwitchEnd) << u"fork"_s << QString() << qint64(2326)
                                       << QString() << u"host 3090: engine fork up after 2s"_s;
    QTest::newRow("switch end half rounds up") << int(K::SwitchEnd) << u"fork"_s << QString()
                                               << qint64(2500) << QString()
                                               << u"host 3090: engine fork up after 3s"_s;
    QTest::newRow("switch end minutes") << int(K::SwitchEnd) << u"mainline"_s << QString()
                                        << qint64(90'200) << QString()
                                        << u"host 3090: engine mainline up after 1m30s"_s;
    QTest::newRow("switch end no duration") << int(K::SwitchEnd) << u"fork"_s << QString() << qint64(-1)
                                            << QString() << u"host 3090: engine fork up"_s;
    QTest::newRow("switch failed") << int(K::SwitchFailed) << u"mainline"_s << QString() << qint64(-1)
                                   << u"engine mainline stopped: GPU owned by bench queue"_s
                                   << u"host 3090: engine mainline failed: engine mainline stopped: GPU owned by bench queue"_s;
    QTest::newRow("load") << int(K::Load) << u"fork"_s << u"3090-flint-40b"_s << qint64(12'400)
                          << QString() << u"host 3090: model 3090-flint-40b loaded on engine fork after 12s"_s;
    QTest::newRow("unload") << int(K::Unload) << u"fork"_s << u"3090-flint-40b"_s << qint64(-1)
                            << QString() << u"host 3090: model 3090-flint-40b unloaded from engine fork"_s;
    QTest::newRow("lease taken") << int(K::LeaseTaken) << QString() << QString() << qint64(-1)
                                 << u"bench queue until 18:00"_s
                                 << u"host 3090: GPU lease taken by bench queue until 18:00"_s;
    QTest::newRow("lease released") << int(K::LeaseReleased) << QString() << QString()
                                    << qint64(3'600'000) << QString()
                                    << u"host 3090: GPU lease released after 1h0m0s"_s;
    QTest::newRow("host down") << int(K::HostDown) << QString() << QString() << qint64(-1)
                               << u"connection refused"_s << u"host 3090: down: connection refused"_s;
    QTest::newRow("host up") << int(K::HostUp) << u"fork"_s << QString() << qint64(-1) << QString()
                             << u"host 3090: up, engine fork"_s;
    QTest::newRow("failover") << int(K::Failover) << QString() << u"coder"_s << qint64(-1)
                              << u"to a9-flint-40b: Connection refused"_s
                              << u"host 3090: failover of coder to a9-flint-40b: Connection refused"_s;
    QTest::newRow("cache save") << int(K::CacheSave) << u"fork"_s << u"flint-40b"_s << qint64(1400)
                                << u"slot 0, 48213 tokens, 1131.4 MB"_s
                                << u"host 3090: prompt cache of flint-40b on engine fork: save after 1s: slot 0, 48213 tokens, 1131.4 MB"_s;
    QTest::newRow("cache restore skipped") << int(K::CacheRestore) << u"fork"_s << u"flint-40b"_s << qint64(12)
                                           << u"slot 0, 48213 tokens not restored: Unable to restore slot"_s
                                           << u"host 3090: prompt cache of flint-40b on engine fork: restore after 0s: "
                                              "slot 0, 48213 tokens not restored: Unable to restore slot"_s;
}

void TestStore::eventText()
{
    QFETCH(int, kind);
    QFETCH(QString, engine);
    QFETCH(QString, model);
    QFETCH(qint64, durationMs);
    QFETCH(QString, detail);
    QFETCH(QString, expected);
    HistoryEvent e = makeEvent(HistoryEvent::Kind(kind), u"3090"_s, engine, baseTime(), model);
    if (durationMs >= 0)
        e.duration = std::chrono::milliseconds(durationMs);
    e.detail = detail;
    QCOMPARE(e.toString(), expected);
    QCOMPARE(JournalFormat::eventLine(e.at, e.toString()), u"2026/10/24 22:21:38 "_s + expected);
}

void TestStore::eventKindNames()
{
    QStringList names;
    for (int i = 0; i < HistoryEvent::KindCount; ++i) {
        const auto kind = HistoryEvent::Kind(i);
        const QString name = HistoryEvent::kindName(kind);
        QCOMPARE(HistoryEvent::kindFromName(name), std::optional(kind));
        QVERIFY(!TimelineModel::kindTitle(kind).isEmpty());
        names << name;
    }
    QCOMPARE(names, (QStringList{u"switch_start"_s, u"switch_end"_s, u"switch_failed"_s, u"load"_s,
                                 u"unload"_s, u"lease_taken"_s, u"lease_released"_s, u"host_up"_s,
                                 u"host_down"_s, u"failover"_s, u"cache_save"_s, u"cache_restore"_s,
                                 u"wake_sent"_s, u"woke"_s, u"wake_timed_out"_s, u"idle_stop"_s, u"sleep_command"_s}));
    QVERIFY(!HistoryEvent::kindFromName(u"bogus"_s));
}

void TestStore::schema()
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

void TestStore::flushedWithinInterval()
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

void TestStore::batchIsOneTransaction()
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

void TestStore::queriesAndFilters()
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

void TestStore::queriesSeeUnflushedRows()
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

void TestStore::eventsRoundTrip()
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

void TestStore::stats_data()
{
    QTest::addColumn<QList<int>>("statuses");
    QTest::addColumn<QVariantList>("ttfbs");      // null: no first byte
    QTest::addColumn<QVariantList>("rates");      // null: no tokens
    QTest::addColumn<qint64>("errors");
    QTest::addColumn<QVariant>("medianTtfb");     // null: none
    QTest::addColumn<QVariant>("medianRate");

    const QVariant null;
    QTest::newRow("odd count") << QList<int>{200, 200, 500} << QVariantList{10.0, 30.0, 20.0}
                               << QVariantList{5.0, 15.0, 10.0} << qint64(1) << QVariant(20.0)
                               << QVariant(10.0);
    QTest::newRow("even count averages the middle two")
            << QList<int>{200, 404, 200, 200} << QVariantList{10.0, 40.0, 20.0, 30.0}
            << QVariantList{1.0, 2.0, 3.0, 4.0} << qint64(1) << QVariant(25.0) << QVariant(2.5);
    QTest::newRow("nulls are skipped") << QList<int>{200, 200, 200} << QVariantList{null, 50.0, null}
                                       << QVariantList{null, null, null} << qint64(0) << QVariant(50.0)
                                       << null;
    QTest::newRow("single error, nothing measured") << QList<int>{429} << QVariantList{null}
                                                    << QVariantList{null} << qint64(1) << null << null;
    QTest::newRow("duplicates and outlier") << QList<int>{200, 200, 200, 200, 200}
                                            << QVariantList{5.0, 5.0, 100000.0, 1.0, 5.0}
                                            << QVariantList{50.0, 0.5, 48.0, 52.0, 49.0} << qint64(0)
                                            << QVariant(5.0) << QVariant(49.0);
    QTest::newRow("every status from 400 counts") << QList<int>{399, 400, 424, 503, 0}
                                                  << QVariantList{1.0, 2.0, 3.0, 4.0, null}
                                                  << QVariantList{null, null, null, null, null}
                                                  << qint64(3) << QVariant(2.5) << null;
}

void TestStore::statsSkipLoadsAndLeaseRefusals()
{
    // Issue 22, item 8: "Today" counts use, not the window's own loads or 423s of a leased host.
    QVERIFY(countsAsUse(u"/v1/chat/completions"_s, 200));
    QVERIFY(countsAsUse(u"/v1/messages"_s, 500));
    QVERIFY(!countsAsUse(u"/models/load"_s, 200));
    QVERIFY(!countsAsUse(u"/v1/chat/completions"_s, 423));
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    store.record(makeRecord(u"a"_s, u"h"_s, 200, baseTime()));
    store.record(makeRecord(u"a"_s, u"h"_s, 423, baseTime().addSecs(1)));
    RequestRecord load = makeRecord(u"a"_s, u"h"_s, 200, baseTime().addSecs(2));
    load.path = u"/models/load"_s;
    store.record(load);
    const AliasStat a = store.stats(baseTime()).value(u"a"_s);
    QCOMPARE(a.requests, qint64(1));
    QCOMPARE(a.errors, qint64(0));
}

void TestStore::stats()
{
    QFETCH(QList<int>, statuses);
    QFETCH(QVariantList, ttfbs);
    QFETCH(QVariantList, rates);
    QFETCH(qint64, errors);
    QFETCH(QVariant, medianTtfb);
    QFETCH(QVariant, medianRate);

    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    const QDateTime since = baseTime();
    const auto add = [&](const QString &alias, int status, const QVariant &ttfb, const QVariant &rate,
                         const QDateTime &at) {
        RequestRecord r = makeRecord(alias, u"3090"_s, status, at);
        if (!ttfb.isNull())
            r.timeToFirstByte = std::chrono::nanoseconds(qint64(ttfb.toDouble() * 1e6));
        if (!rate.isNull())
            r.tokensPerSecond = rate.toDouble();
        store.record(r);
    };
    // Older than `since`: must not count.
    add(u"3090-flint-40b"_s, 500, 9e9, 9e9, since.addSecs(-1));
    for (int i = 0; i < statuses.size(); ++i)
        add(u"3090-flint-40b"_s, statuses[i], ttfbs[i], rates[i], since.addSecs(i));
    // Another alias in the same period: its own group.
    add(u"a9-laguna"_s, 200, 7.0, 70.0, since.addSecs(1));
    add(u"a9-laguna"_s, 502, QVariant(), QVariant(), since.addSecs(2));

    const AliasStats stats = store.stats(since);
    QCOMPARE(stats.keys(), (QStringList{u"3090-flint-40b"_s, u"a9-laguna"_s}));
    const AliasStat s = stats.value(u"3090-flint-40b"_s);
    QCOMPARE(s.alias, u"3090-flint-40b"_s);
    QCOMPARE(s.requests, qint64(statuses.size()));
    QCOMPARE(s.errors, errors);
    QCOMPARE(s.medianTtfbMs.has_value(), !medianTtfb.isNull());
    if (s.medianTtfbMs)
        QCOMPARE(*s.medianTtfbMs, medianTtfb.toDouble());
    QCOMPARE(s.medianTokensPerSecond.has_value(), !medianRate.isNull());
    if (s.medianTokensPerSecond)
        QCOMPARE(*s.medianTokensPerSecond, medianRate.toDouble());

    const AliasStat other = stats.value(u"a9-laguna"_s);
    QCOMPARE(other.requests, 2);
    QCOMPARE(other.errors, 1);
    QCOMPARE(other.medianTtfbMs, std::optional(7.0));
    QCOMPARE(other.medianTokensPerSecond, std::optional(70.0));

    QCOMPARE(store.stats({}).value(u"3090-flint-40b"_s).requests, qint64(statuses.size() + 1));
}

void TestStore::retentionByAge()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    QSignalSpy pruned(&store, &HistoryStore::pruned);
    const QDateTime now = clock.now();
    for (int daysAgo : {10, 8, 6, 1}) {
        store.record(makeRecord(u"m%1"_s.arg(daysAgo), u"3090"_s, 200, now.addDays(-daysAgo)));
        store.recordEvent(makeEvent(HistoryEvent::Kind::HostUp, u"3090"_s, {}, now.addDays(-daysAgo)));
    }
    QVERIFY(store.sync());
    QTRY_VERIFY_WITH_TIMEOUT(!pruned.isEmpty(), 5000);   // the prune at open, before any rows
    pruned.clear();

    store.setRetention(7, 0);
    store.prune();
    QVERIFY(pruned.wait(5000));
    QCOMPARE(pruned.first().at(0).toLongLong(), 2);
    QCOMPARE(pruned.first().at(1).toLongLong(), 2);
    const QList<RequestRecord> left = allRequests(store);
    QCOMPARE(left.size(), 2);
    QCOMPARE(left.at(0).model, u"m1"_s);
    QCOMPARE(left.at(1).model, u"m6"_s);
    QCOMPARE(store.events({}, 0).size(), 2);

    // Age is measured by the store's clock, not the machine's.
    clock.advance(std::chrono::hours(24 * 5));
    store.prune();
    QVERIFY(pruned.wait(5000));
    QCOMPARE(allRequests(store).size(), 1);
    clock.advance(std::chrono::hours(24 * 30));
    store.prune();
    QVERIFY(pruned.wait(5000));
    QCOMPARE(allRequests(store).size(), 0);
    QCOMPARE(store.events({}, 0).size(), 0);

    // days <= 0 keeps everything.
    store.record(makeRecord(u"ancient"_s, u"3090"_s, 200, now.addYears(-5)));
    store.setRetention(0, 0);
    store.prune();
    QVERIFY(pruned.wait(5000));
    QCOMPARE(allRequests(store).size(), 1);
}

void TestStore::retentionMaxRows()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    QSignalSpy pruned(&store, &HistoryStore::pruned);
    QTRY_VERIFY_WITH_TIMEOUT(!pruned.isEmpty(), 5000);   // the prune at open
    pruned.clear();

    // More than one prune batch (1000 rows), so the work is split into queued steps.
    for (int i = 0; i < 2500; ++i)
        store.record(makeRecord(u"m"_s, u"3090"_s, 200, clock.now().addSecs(i)));
    store.setRetention(30, 1000);
    store.prune();   // hands the pending rows over first
    // Recorded while the prune runs: newer than its cut, kept.
    store.record(makeRecord(u"late"_s, u"3090"_s, 200, clock.now().addSecs(9999)));
    QVERIFY(pruned.wait(10000));
    QCOMPARE(pruned.first().at(0).toLongLong(), 1500);

    const QList<RequestRecord> left = allRequests(store);
    QCOMPARE(left.size(), 1001);
    QCOMPARE(left.first().id, 2501);
    QCOMPARE(left.last().id, 1501);   // the newest 1000 of those recorded before the prune

    store.setRetention(30, 1);
    store.prune();
    QVERIFY(pruned.wait(10000));
    QCOMPARE(allRequests(store).size(), 1);

    // Ids of pruned rows are never handed out again.
    QSignalSpy recorded(&store, &HistoryStore::requestRecorded);
    store.record(makeRecord(u"next"_s, u"3090"_s, 200));
    QCOMPARE(recorded.first().at(0).value<RequestRecord>().id, 2502);
}

void TestStore::redactionNeverReachesDisk()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    const QByteArray bearerSecret = "secret123";
    const QByteArray configured = "hunter2-configured-token";
    {
        HistoryStore store(path, clock);
        store.setSecrets({QString::fromLatin1(configured)});
        QSignalSpy recorded(&store, &HistoryStore::requestRecorded);

        RequestRecord r = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 401);
        r.path = u"/v1/chat/completions/"_s + QString::fromLatin1(configured);
        r.userAgent = u"curl/8.5 (Bearer secret123)"_s;
        r.relayError = u"upstream said: invalid header Authorization: Bearer secret123"_s;
        store.record(r);
        RequestRecord r2 = makeRecord(QString::fromLatin1(configured), u"3090"_s, 404);
        r2.relayError = u"key "_s + QString::fromLatin1(configured) + u" rejected"_s;
        store.record(r2);
        HistoryEvent e = makeEvent(HistoryEvent::Kind::SwitchFailed, u"3090"_s, u"fork"_s, {});
        e.detail = u"agent refused Bearer secret123 and "_s + QString::fromLatin1(configured);
        store.recordEvent(e);

        // Live views get the redacted values too.
        QCOMPARE(recorded.size(), 2);
        const auto live = recorded.first().at(0).value<RequestRecord>();
        QVERIFY(!live.userAgent.contains(u"secret123"_s));
        QCOMPARE(live.relayError, u"upstream said: invalid header Authorization: [redacted]"_s);

        QVERIFY(store.sync());
        const QByteArray mainFile = fileBytes(path);
        const QByteArray wal = fileBytes(path + u"-wal"_s);
        QVERIFY(!wal.isEmpty());   // the rows are there, just not the secrets
        QVERIFY(wal.contains("[redacted]") || mainFile.contains("[redacted]"));
        for (const QByteArray &bytes : {mainFile, wal, fileBytes(path + u"-shm"_s)}) {
            QVERIFY(!bytes.contains(bearerSecret));
            QVERIFY(!bytes.contains(configured));
        }
        const QList<RequestRecord> rows = allRequests(store);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(1).path, u"/v1/chat/completions/[redacted]"_s);
        QCOMPARE(rows.at(0).model, u"[redacted]"_s);
    }
    // After close the WAL is checkpointed into the main file.
    const QByteArray closed = fileBytes(path) + fileBytes(path + u"-wal"_s);
    QVERIFY(closed.contains("[redacted]"));
    QVERIFY(!closed.contains(bearerSecret));
    QVERIFY(!closed.contains(configured));
}

void TestStore::reopenKeepsRowsAndIds()
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

void TestStore::crashDurability()
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

void TestStore::requestLogModel()
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

void TestStore::requestLogModelLoadFromStore()
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

void TestStore::timelineModel()
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

void TestStore::timelineIntervals()
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

// ---- issue #21: the wait, bytes in, live rows --------------------------------------------------

void TestStore::schemaMigratesVersion1()
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

void TestStore::waitAndBytesInRoundTrip()
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
void TestStore::restoredCacheRoundTrips()
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

void TestStore::waitReasonText_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("text");
    QTest::newRow("none") << int(WaitReason::Kind::None) << QString() << QString() << QString();
    QTest::newRow("switch") << int(WaitReason::Kind::Switch) << u"fork"_s << u"mainline"_s << u"switch fork→mainline"_s;
    QTest::newRow("start") << int(WaitReason::Kind::Switch) << QString() << u"mainline"_s << u"switch to mainline"_s;
    QTest::newRow("load") << int(WaitReason::Kind::ModelLoad) << QString() << QString() << u"model loading"_s;
    QTest::newRow("queue") << int(WaitReason::Kind::Queue) << QString() << QString() << u"queue"_s;
    QTest::newRow("lease") << int(WaitReason::Kind::Lease) << QString() << QString() << u"lease"_s;
    QTest::newRow("check") << int(WaitReason::Kind::HostCheck) << QString() << QString() << u"host check"_s;
    QTest::newRow("wake") << int(WaitReason::Kind::Wake) << QString() << QString() << u"host wake"_s;
}

void TestStore::waitReasonText()
{
    QFETCH(int, kind);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, text);
    const WaitReason reason{WaitReason::Kind(kind), from, to};
    QCOMPARE(reason.toString(), text);
    QCOMPARE(WaitReason::fromString(text), reason);
    QVERIFY(WaitReason::fromString(u"bogus"_s).isNone());
}

void TestStore::requestLogDurations_data()
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

void TestStore::requestLogDurations()
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

void TestStore::requestLogLiveRows()
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

void TestStore::requestLogAbortedAndOwn()
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

int main(int argc, char **argv)
{
    // The crash test runs this binary as its child: no tests there, just a store under load.
    if (qEnvironmentVariableIsSet(ChildEnv))
        return runChild(argc, argv, qEnvironmentVariable(ChildEnv));
    QCoreApplication app(argc, argv);
    TestStore test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_store.moc"
