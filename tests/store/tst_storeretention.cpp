// The store's statistics, its retention by age and by rows, and redaction before the disk.
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

class TestStoreRetention : public QObject
{
    Q_OBJECT

private slots:
    void stats_data();
    void stats();
    void statsSkipLoadsAndLeaseRefusals();
    void retentionByAge();
    void retentionMaxRows();
    void redactionNeverReachesDisk();
    // Issue #21: the wait and bytes in, stored; #22: honest durations, live rows.
};

void TestStoreRetention::stats_data()
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

void TestStoreRetention::statsSkipLoadsAndLeaseRefusals()
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

void TestStoreRetention::stats()
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

void TestStoreRetention::retentionByAge()
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

void TestStoreRetention::retentionMaxRows()
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

void TestStoreRetention::redactionNeverReachesDisk()
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

QTEST_GUILESS_MAIN(TestStoreRetention)

#include "tst_storeretention.moc"
