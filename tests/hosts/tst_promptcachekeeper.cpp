// Prompt caches across a switch (issue 19) with the fake router's slot API: a switch saves what
// the stopped engine's slots hold, the first request for that model after the switch back
// restores it before it is forwarded, and every way this can go wrong (a save too slow for the
// budget, a restore that fails or does not fit, a cache folder over its size) leaves switches
// and requests as they were, with a history event saying what happened.
#include "promptcachefixture.h"

using namespace switchyard::test::promptcache;

class TestPromptCacheKeeper : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savedOnSwitchAwayRestoredBeforeTheNextRequest();
    void aSaveCutOffByTheBudgetIsNotKept();
    void aSavePredictedTooSlowIsSkippedUpFront();
    void aRestoreThatFailsLetsTheRequestGoOn();
    void aRestoreThatDoesNotFitLetsTheRequestGoOn();
    void theOldestSavesGoOverTheSizeBudget();
    void fileNamesAreValidForLlamaServer();
};

void TestPromptCacheKeeper::savedOnSwitchAwayRestoredBeforeTheNextRequest()
{
    CacheFixture f;
    QVERIFY(f.startWithCaches());
    const RawHttpClient::Response first = f.ask(conversation("h1-alpha", 3));
    QCOMPARE(first.status, 200);
    const int promptTokens = timingsOf(first.body).value("prompt_n"_L1).toInt();
    QVERIFY(promptTokens > 100);

    QSignalSpy savedChanged(f.keeper(), &PromptCacheKeeper::savedChanged);
    QCOMPARE(f.ask(conversation("h1-beta", 1)).status, 200);   // the switch to b saves a's slot
    const QList<HistoryEvent> saves = ofKind(f.events, HistoryEvent::Kind::CacheSave);
    QCOMPARE(saves.size(), 1);
    QCOMPARE(saves.at(0).engine, u"a"_s);
    QCOMPARE(saves.at(0).model, u"alpha"_s);
    QVERIFY2(saves.at(0).detail.startsWith(u"slot 0, %1 tokens, "_s.arg(promptTokens + 4)), qPrintable(saves.at(0).detail));
    QVERIFY(saves.at(0).duration.has_value());
    QCOMPARE(saves.at(0).cacheOutcome, HistoryEvent::CacheOutcome::Done);   // what the metrics count
    // The save comes between the switch's start and its end.
    const auto indexOf = [&](HistoryEvent::Kind kind) {
        for (qsizetype i = 0; i < f.events.size(); ++i) {
            if (f.events.at(i).kind == kind)
                return i;
        }
        return qsizetype(-1);
    };
    QVERIFY(indexOf(HistoryEvent::Kind::SwitchStart) < indexOf(HistoryEvent::Kind::CacheSave));
    QVERIFY(indexOf(HistoryEvent::Kind::CacheSave) < indexOf(HistoryEvent::Kind::SwitchEnd));
    const QList<PromptCacheKeeper::Saved> saved = f.keeper()->saved();
    QCOMPARE(saved.size(), 1);
    QCOMPARE(QFileInfo(QDir(f.dir.path()).filePath(saved.at(0).filename)).size(), saved.at(0).bytes);
    QCOMPARE(saved.at(0).bytes, qint64(promptTokens + 4) * f.bytesPerToken);
    // What the window's card says (issue 31): one save against the host's budget, told at once.
    QVERIFY(!savedChanged.isEmpty());
    QCOMPARE(f.keeper()->usage().saved, 1);
    QCOMPARE(f.keeper()->usage().bytes, saved.at(0).bytes);
    QCOMPARE(f.keeper()->usage().maxBytes, qint64(f.maxMb * 1024 * 1024));

    // /admin/hosts lists the saved cache.
    RawHttpClient admin(f.port());
    QVERIFY(admin.connectToServer());
    admin.send(RawHttpClient::get("/admin/hosts"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 1, 5000);
    const QJsonObject caches = QJsonDocument::fromJson(admin.responses().at(0).body).array().at(0).toObject()
                                   .value("prompt_caches"_L1).toObject();
    QCOMPARE(caches.value("dir"_L1).toString(), f.dir.path());
    const QJsonObject listed = caches.value("saved"_L1).toArray().at(0).toObject();
    QCOMPARE(listed.value("model"_L1).toString(), u"alpha"_s);
    QCOMPARE(listed.value("engine"_L1).toString(), u"a"_s);
    QCOMPARE(qint64(listed.value("bytes"_L1).toDouble()), saved.at(0).bytes);
    QCOMPARE(qint64(caches.value("bytes"_L1).toDouble()), saved.at(0).bytes);

    QList<RequestRecord> records;
    QObject::connect(f.relay->relay(), &Relay::requestFinished, f.relay.get(),
                     [&records](const RequestRecord &r) { records << r; });
    // The history keeps it: /admin/requests says how many tokens were restored.
    QTemporaryDir historyDir;
    SystemClock clock;
    HistoryStore store(historyDir.filePath(u"history.sqlite"_s), clock);
    QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
    f.relay->setHistory(&store);

    // Back on a: the restore goes first, and the next turn evaluates only its new part.
    f.engineA->clearReceived();
    const RawHttpClient::Response next = f.ask(conversation("h1-alpha", 4));
    QCOMPARE(next.status, 200);
    const QStringList paths = f.pathsReceivedByA();
    const qsizetype restore = paths.indexOf(u"POST /slots/0"_s);
    QVERIFY2(restore >= 0 && restore < paths.indexOf(u"POST /v1/chat/completions"_s), qPrintable(paths.join(u", "_s)));
    const QList<HistoryEvent> restores = ofKind(f.events, HistoryEvent::Kind::CacheRestore);
    QCOMPARE(restores.size(), 1);
    QVERIFY2(restores.at(0).detail.startsWith(u"slot 0, %1 tokens"_s.arg(promptTokens + 4)), qPrintable(restores.at(0).detail));
    QCOMPARE(restores.at(0).cacheOutcome, HistoryEvent::CacheOutcome::Done);
    const QJsonObject timings = timingsOf(next.body);
    QVERIFY2(timings.value("cache_n"_L1).toInt() >= promptTokens - 10, qPrintable(QString::fromUtf8(next.body)));
    QCOMPARE(timings.value("prompt_n"_L1).toInt(), 2 + 50 + 10);   // the new reply and turn, the template
    QCOMPARE(f.relay->hostController(u"h1"_s)->bookkeepingError(), QString());
    // The request's record and journal line say it went out on a restored cache.
    QTRY_COMPARE_WITH_TIMEOUT(records.size(), 1, 3000);
    QCOMPARE(records.at(0).restoredPromptTokens, qint64(promptTokens + 4));
    QVERIFY2(JournalFormat::requestLine(records.at(0)).contains(u" cache=restored:%1"_s.arg(promptTokens + 4)),
             qPrintable(JournalFormat::requestLine(records.at(0))));
    QVERIFY(store.sync());
    admin.send(RawHttpClient::get("/admin/requests?model=h1-alpha&limit=1"));
    QTRY_COMPARE_WITH_TIMEOUT(admin.completedResponses(), 2, 5000);
    const QJsonObject row = QJsonDocument::fromJson(admin.responses().at(1).body).array().at(0).toObject();
    QCOMPARE(row.value("restored_tokens"_L1).toInteger(), promptTokens + 4);
    QVERIFY2(row.value("journal"_L1).toString().contains(u" cache=restored:%1"_s.arg(promptTokens + 4)),
             qPrintable(row.value("journal"_L1).toString()));

    // A second request of the same model restores nothing more.
    QCOMPARE(f.ask(conversation("h1-alpha", 5)).status, 200);
    QCOMPARE(ofKind(f.events, HistoryEvent::Kind::CacheRestore).size(), 1);
}

void TestPromptCacheKeeper::aSaveCutOffByTheBudgetIsNotKept()
{
    CacheFixture f;
    f.saveDelay = 3000ms;
    f.budget = 400ms;
    QVERIFY(f.startWithCaches());
    QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(f.ask(conversation("h1-beta", 1)).status, 200);
    QVERIFY2(clock.elapsed() < 2500, qPrintable(QString::number(clock.elapsed())));   // did not wait for the save
    const QList<HistoryEvent> saves = ofKind(f.events, HistoryEvent::Kind::CacheSave);
    QCOMPARE(saves.size(), 1);
    QVERIFY2(saves.at(0).detail.contains(u"not saved: no answer within"_s), qPrintable(saves.at(0).detail));
    QCOMPARE(saves.at(0).cacheOutcome, HistoryEvent::CacheOutcome::Skipped);
    QVERIFY(f.keeper()->saved().isEmpty());
    // Back on a: nothing to restore, and the request is served.
    QCOMPARE(f.ask(conversation("h1-alpha", 3)).status, 200);
    QVERIFY(ofKind(f.events, HistoryEvent::Kind::CacheRestore).isEmpty());
}

void TestPromptCacheKeeper::aSavePredictedTooSlowIsSkippedUpFront()
{
    CacheFixture f;
    f.saveDelay = 300ms;
    f.budget = 1000ms;
    QVERIFY(f.startWithCaches());
    QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);   // ~110 tokens: saved in 300 ms
    QCOMPARE(f.ask(conversation("h1-beta", 1)).status, 200);
    QCOMPARE(f.keeper()->saved().size(), 1);
    QCOMPARE(f.ask(conversation("h1-alpha", 12)).status, 200);   // ~6x the tokens: ~1.8 s > 1 s
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(f.ask(conversation("h1-beta", 2)).status, 200);
    QVERIFY2(clock.elapsed() < 1500, qPrintable(QString::number(clock.elapsed())));
    QList<HistoryEvent> saves;
    for (const HistoryEvent &e : ofKind(f.events, HistoryEvent::Kind::CacheSave)) {
        if (e.model == u"alpha")
            saves << e;
    }
    QCOMPARE(saves.size(), 2);
    QVERIFY2(saves.at(1).detail.contains(u"not saved: it would take ~"_s), qPrintable(saves.at(1).detail));
    QVERIFY(!saves.at(1).duration.has_value());   // never started
    QCOMPARE(saves.at(1).cacheOutcome, HistoryEvent::CacheOutcome::Skipped);
}

void TestPromptCacheKeeper::aRestoreThatFailsLetsTheRequestGoOn()
{
    CacheFixture f;
    QVERIFY(f.startWithCaches());
    QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);
    QCOMPARE(f.ask(conversation("h1-beta", 1)).status, 200);
    QCOMPARE(f.keeper()->saved().size(), 1);
    // A file the relay cannot tell from a good one (its size and model are right) that the
    // engine refuses: here, the fake's own record of the model it was saved from.
    QFile file(QDir(f.dir.path()).filePath(f.keeper()->saved().at(0).filename));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("\"model\":\"alpha\""));
    bytes.replace("\"model\":\"alpha\"", "\"model\":\"gamma\"");
    file.seek(0);
    file.write(bytes);
    file.close();
    const RawHttpClient::Response next = f.ask(conversation("h1-alpha", 3));
    QCOMPARE(next.status, 200);
    const QList<HistoryEvent> restores = ofKind(f.events, HistoryEvent::Kind::CacheRestore);
    QCOMPARE(restores.size(), 1);
    QVERIFY2(restores.at(0).detail.endsWith(
                 u" tokens not restored: Unable to restore slot: No available space in KV cache or invalid slot save file"_s),
             qPrintable(restores.at(0).detail));
    QCOMPARE(restores.at(0).cacheOutcome, HistoryEvent::CacheOutcome::Skipped);
    for (const PromptCacheKeeper::Saved &saved : f.keeper()->saved())
        QVERIFY(saved.model != u"alpha");   // dropped: it will not be tried again
    QCOMPARE(timingsOf(next.body).value("cache_n"_L1).toInt(), 0);
    QVERIFY(restores.at(0).toString().startsWith(u"host h1: prompt cache of alpha on engine a: restore after "_s));
}

void TestPromptCacheKeeper::aRestoreThatDoesNotFitLetsTheRequestGoOn()
{
    CacheFixture f;
    QVERIFY(f.startWithCaches());
    QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);
    QCOMPARE(f.ask(conversation("h1-beta", 1)).status, 200);
    QCOMPARE(f.keeper()->saved().size(), 1);
    // A save that holds more tokens than the slot's context (as after a restart with a smaller -c).
    QFile file(QDir(f.dir.path()).filePath(f.keeper()->saved().at(0).filename));
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    const qsizetype at = bytes.indexOf("\"tokens\":");
    QVERIFY(at > 0);
    qsizetype end = at + 9;
    while (end < bytes.size() && std::isdigit(static_cast<unsigned char>(bytes.at(end))))
        ++end;
    const qsizetype size = bytes.size();
    bytes.replace(at, end - at, "\"tokens\":999999");
    bytes.truncate(size);   // the same size as saved (the padding is shorter): the relay lets it through
    file.seek(0);
    file.write(bytes);
    file.close();
    QCOMPARE(f.ask(conversation("h1-alpha", 3)).status, 200);
    const QList<HistoryEvent> restores = ofKind(f.events, HistoryEvent::Kind::CacheRestore);
    QCOMPARE(restores.size(), 1);
    QVERIFY2(restores.at(0).detail.endsWith(u"not restored: Unable to restore slot: Restored prompt does not fit in the slot context"_s),
             qPrintable(restores.at(0).detail));
}

void TestPromptCacheKeeper::theOldestSavesGoOverTheSizeBudget()
{
    CacheFixture f;
    f.bytesPerToken = 8 * 1024;   // ~110 tokens: ~0.9 MB a save
    f.maxMb = 1.5;
    QVERIFY(f.startWithCaches());
    QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);
    QCOMPARE(f.ask(conversation("h1-beta", 2)).status, 200);   // saves alpha's slot
    QCOMPARE(f.keeper()->saved().size(), 1);
    const QString alphaFile = f.keeper()->saved().at(0).filename;
    QTest::qWait(5);   // a later timestamp for the second save than for the first
    QCOMPARE(f.ask(conversation("h1-alpha", 3)).status, 200);   // saves beta's slot; alpha's is dropped
    const QList<PromptCacheKeeper::Saved> saved = f.keeper()->saved();
    QCOMPARE(saved.size(), 1);
    QCOMPARE(saved.at(0).model, u"beta"_s);
    QVERIFY(!QFile::exists(QDir(f.dir.path()).filePath(alphaFile)));
    QVERIFY(f.keeper()->savedBytes() <= qint64(1.5 * 1024 * 1024));
    bool dropped = false;
    for (const HistoryEvent &e : ofKind(f.events, HistoryEvent::Kind::CacheSave)) {
        const bool says = e.detail.contains(u"dropped: the saves are over the 1.5 MB budget"_s);
        QCOMPARE(e.cacheOutcome == HistoryEvent::CacheOutcome::Dropped, says);
        dropped = dropped || says;
    }
    QVERIFY(dropped);
}

void TestPromptCacheKeeper::fileNamesAreValidForLlamaServer()
{
    const QString name = PromptCacheKeeper::fileName(u"fork"_s, u"unsloth/Qwen3-Coder:Q4_K_M"_s, 2);
    QVERIFY(name.startsWith(u"switchyard-fork-unsloth_Qwen3-Coder_Q4_K_M-"_s));
    QVERIFY(name.endsWith(u"-slot2.bin"_s));
    QVERIFY(!name.contains(u'/') && !name.contains(u':'));
    // Two names that clean up alike still differ.
    QVERIFY(PromptCacheKeeper::fileName(u"a"_s, u"m/x"_s, 0) != PromptCacheKeeper::fileName(u"a"_s, u"m:x"_s, 0));
}

QTEST_GUILESS_MAIN(TestPromptCacheKeeper)
#include "tst_promptcachekeeper.moc"
