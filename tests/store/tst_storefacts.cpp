// The facts behind a record's English words (issue 34): a failed switch's engine failure and a
// refused request's host refusal are kept beside the text (schema step 6), redacted like it,
// read back whole; a database from before the step is migrated without losing a row, and its rows
// keep their text with no facts.
#include "storetesthelpers.h"

#include <QJsonArray>

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace storetest;

namespace {

// The facts as hosts/recordedfacts.h writes them, spelled out: the store only keeps JSON.
QJsonObject endedFacts(const QString &tail)
{
    return QJsonObject{{"engine_failure"_L1, QJsonObject{{"kind"_L1, "ended"_L1},
                                                         {"runner"_L1, "process"_L1},
                                                         {"exit"_L1, QJsonObject{{"code"_L1, 1}, {"killed"_L1, false}}},
                                                         {"output_tail"_L1, tail}}}};
}

// A database as schema step 5 left it: made by this build, then without step 6's columns
// (SQLite's DROP COLUMN), with the version set back.
bool makeVersion5(const QString &path, FakeClock &clock)
{
    {
        HistoryStore store(path, clock);
        if (!store.isOpen())
            return false;
        RequestRecord refused = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 424, baseTime());
        refused.relayError = u"switching host 3090 to engine fork failed: exited with code 1"_s;
        store.record(refused);
        store.record(makeRecord(u"3090-flint-40b"_s, u"3090"_s, 200, baseTime().addSecs(1)));
        HistoryEvent failed = makeEvent(HistoryEvent::Kind::SwitchFailed, u"3090"_s, u"fork"_s, baseTime().addSecs(2));
        failed.detail = u"exited with code 1"_s;
        store.recordEvent(failed);
        store.recordEvent(makeEvent(HistoryEvent::Kind::SwitchStart, u"3090"_s, u"fork"_s, baseTime().addSecs(3)));
        if (!store.sync())
            return false;
    }
    RawDb raw(path);
    // Steps 6 and 7 undone: their columns go.
    return raw.exec(u"ALTER TABLE events DROP COLUMN facts"_s) && raw.exec(u"ALTER TABLE requests DROP COLUMN relay_facts"_s)
        && raw.exec(u"ALTER TABLE requests DROP COLUMN side_call"_s) && raw.exec(u"PRAGMA user_version = 5"_s) && raw.scalar(u"PRAGMA user_version"_s).toInt() == 5;
}

} // namespace

class TestStoreFacts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void factsRoundTrip();
    void factsAreRedacted();
    void version5MigratesKeepingEveryRow();
};

void TestStoreFacts::factsRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    const QJsonObject facts = endedFacts(u"no such model file"_s);
    const QJsonObject refusal{{"refusal"_L1, QJsonObject{{"reason"_L1, "switch_failed"_L1}, {"host"_L1, "3090"_L1}}}};
    {
        HistoryStore store(path, clock);
        QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
        HistoryEvent failed = makeEvent(HistoryEvent::Kind::SwitchFailed, u"3090"_s, u"fork"_s, baseTime());
        failed.detail = u"exited with code 1: no such model file"_s;
        failed.facts = facts;
        store.recordEvent(failed);
        store.recordEvent(makeEvent(HistoryEvent::Kind::SwitchStart, u"3090"_s, u"fork"_s, baseTime().addSecs(1)));
        RequestRecord refused = makeRecord(u"3090-flint-40b"_s, u"3090"_s, 424, baseTime());
        refused.relayError = u"switching host 3090 to engine fork failed: exited with code 1"_s;
        refused.relayFacts = refusal;
        store.record(refused);
        QVERIFY(store.sync());
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"SELECT facts FROM events WHERE kind = 'switch_start'"_s).toString(), QString());
    }
    HistoryStore reopened(path, clock);
    const QList<HistoryEvent> events = reopened.events({}, 0);   // newest first
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(1).facts, facts);
    QCOMPARE(events.at(1).detail, u"exited with code 1: no such model file"_s);
    QVERIFY(events.at(0).facts.isEmpty());
    const QList<RequestRecord> requests = allRequests(reopened);
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requests.first().relayFacts, refusal);
}

// Facts quote what an engine printed, which may hold a key: redacted at any depth, like the text.
void TestStoreFacts::factsAreRedacted()
{
    QTemporaryDir dir;
    FakeClock clock(baseTime());
    HistoryStore store(dir.filePath(u"history.sqlite"_s), clock);
    store.setSecrets({u"relay-secret-token"_s});
    HistoryEvent failed = makeEvent(HistoryEvent::Kind::SwitchFailed, u"3090"_s, u"fork"_s, baseTime());
    QJsonObject facts = endedFacts(u"bad key relay-secret-token"_s);
    QJsonObject inner = facts.value("engine_failure"_L1).toObject();
    inner.insert("engines"_L1, QJsonArray{u"Bearer abcdefgh12345"_s});
    facts.insert("engine_failure"_L1, inner);
    failed.facts = facts;
    store.recordEvent(failed);
    QVERIFY(store.sync());
    const QJsonObject stored = store.events({}, 0).first().facts.value("engine_failure"_L1).toObject();
    QCOMPARE(stored.value("output_tail"_L1).toString(), u"bad key "_s + Redactor::placeholder());
    QVERIFY2(!stored.value("engines"_L1).toArray().at(0).toString().contains(u"abcdefgh12345"_s),
             qPrintable(stored.value("engines"_L1).toArray().at(0).toString()));
    QCOMPARE(stored.value("exit"_L1).toObject().value("code"_L1).toInt(), 1);   // numbers as they were
}

void TestStoreFacts::version5MigratesKeepingEveryRow()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.sqlite"_s);
    FakeClock clock(baseTime());
    QVERIFY(makeVersion5(path, clock));
    {
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM pragma_table_info('events') WHERE name = 'facts'"_s).toInt(), 0);
    }
    HistoryStore store(path, clock);
    QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
    {
        RawDb raw(path);
        QCOMPARE(raw.scalar(u"PRAGMA user_version"_s).toInt(), HistorySchema::currentVersion());
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM requests"_s).toInt(), 2);
        QCOMPARE(raw.scalar(u"SELECT COUNT(*) FROM events"_s).toInt(), 2);
    }
    // Every row kept, with its text; none has facts.
    const QList<RequestRecord> requests = allRequests(store);   // newest first
    QCOMPARE(requests.size(), 2);
    QCOMPARE(requests.at(1).relayError, u"switching host 3090 to engine fork failed: exited with code 1"_s);
    QCOMPARE(requests.at(1).status, 424);
    QVERIFY(requests.at(1).relayFacts.isEmpty());
    QVERIFY(!requests.at(1).sideCall);   // rows from before step 7 were not side calls
    QCOMPARE(requests.at(0).status, 200);
    const QList<HistoryEvent> events = store.events({}, 0);
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(1).kind, HistoryEvent::Kind::SwitchFailed);
    QCOMPARE(events.at(1).detail, u"exited with code 1"_s);
    QVERIFY(events.at(1).facts.isEmpty());
    QCOMPARE(events.at(0).kind, HistoryEvent::Kind::SwitchStart);

    // New rows after the migration keep their facts, numbered on from the old ones.
    HistoryEvent failed = makeEvent(HistoryEvent::Kind::SwitchFailed, u"3090"_s, u"fork"_s, baseTime().addSecs(10));
    failed.facts = endedFacts({});
    store.recordEvent(failed);
    QVERIFY(store.sync());
    const QList<HistoryEvent> after = store.events({}, 0);
    QCOMPARE(after.size(), 3);
    QCOMPARE(after.first().id, 3);
    QCOMPARE(after.first().facts, endedFacts({}));
}

QTEST_GUILESS_MAIN(TestStoreFacts)
#include "tst_storefacts.moc"
