// What the store writes as text: the redactor's rules, events and their kinds, wait reasons.
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

class TestStoreText : public QObject
{
    Q_OBJECT

private slots:
    void redactor_data();
    void redactor();
    void eventText_data();
    void eventText();
    void eventKindNames();
    // Issue #21: the wait and bytes in, stored; #22: honest durations, live rows.
    void waitReasonText_data();
    void waitReasonText();
};

void TestStoreText::redactor_data()
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

void TestStoreText::redactor()
{
    QFETCH(QStringList, secrets);
    QFETCH(QString, input);
    QFETCH(QString, expected);
    Redactor r;
    r.setSecrets(secrets);
    QCOMPARE(r.redact(input), expected);
    QCOMPARE(r.redact(expected), expected);   // idempotent
}

void TestStoreText::eventText_data()
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
    // The relay's own start and stop name no host.
    QTest::newRow("relay started") << int(K::RelayStarted) << QString() << QString() << qint64(-1) << QString()
                                   << u"relay started"_s;
    QTest::newRow("relay stopped") << int(K::RelayStopped) << QString() << QString() << qint64(-1) << QString()
                                   << u"relay stopped"_s;
}

void TestStoreText::eventText()
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

void TestStoreText::eventKindNames()
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
                                 u"wake_sent"_s, u"woke"_s, u"wake_timed_out"_s, u"idle_stop"_s, u"sleep_command"_s,
                                 u"relay_started"_s, u"relay_stopped"_s}));
    QVERIFY(!HistoryEvent::kindFromName(u"bogus"_s));
}

void TestStoreText::waitReasonText_data()
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

void TestStoreText::waitReasonText()
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

QTEST_GUILESS_MAIN(TestStoreText)

#include "tst_storetext.moc"
