// Saved prompt caches across restarts (issue 31 items 3 and 6): the index in the store brings a
// save back after a relay restart or an engine crash, the size budget holds across a restart,
// and an entry that cannot be trusted (missing, cut short, another model) is never restored.
#include "promptcachefixture.h"

using namespace switchyard::test::promptcache;

class TestPromptCacheTrust : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void savedCachesSurviveARelayRestartAndAnEngineCrash();
    void anEntryThatCannotBeTrustedIsNotRestored_data();
    void anEntryThatCannotBeTrustedIsNotRestored();
    void theSizeBudgetEvictsTheOldestAcrossARestart();
    void anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored_data();
    void anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored();
};

// Issue 31: the index of saved slots is in the store. A new relay over the same store and slot
// folder, which finds engine b running, restores alpha's slot when alpha's next turn comes; so
// does the next start after the engine crashed.
void TestPromptCacheTrust::savedCachesSurviveARelayRestartAndAnEngineCrash()
{
    QTemporaryDir slotDir;
    QTemporaryDir data;
    const QString historyPath = data.filePath(u"history.sqlite"_s);
    QVERIFY(saveAlphaAndStop(slotDir.path(), historyPath));
    // (The saved tokens are the prompt and the 4 generated; the next turn reuses the prompt.)

    SystemClock clock;
    HistoryStore store(historyPath, clock);
    QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
    const QList<SavedSlot> indexed = store.savedSlots(u"h1"_s);
    QCOMPARE(indexed.size(), 1);
    QCOMPARE(indexed.at(0).model, u"alpha"_s);
    QVERIFY2(indexed.at(0).modelIdentity.contains(u"/srv/models/alpha.gguf"_s), qPrintable(indexed.at(0).modelIdentity));
    QVERIFY(QFile::exists(QDir(slotDir.path()).filePath(indexed.at(0).filename)));

    CacheFixture f;
    f.folder = slotDir.path();
    f.startOn = u"b"_s;
    QVERIFY(f.startWithCaches());
    f.relay->setHistory(&store);
    QCOMPARE(f.keeper()->saved().size(), 1);
    QCOMPARE(f.keeper()->savedBytes(), indexed.at(0).bytes);

    const RawHttpClient::Response next = f.ask(conversation("h1-alpha", 4));
    QCOMPARE(next.status, 200);
    QStringList paths = f.pathsReceivedByA();
    qsizetype restore = paths.indexOf(u"POST /slots/0"_s);
    QVERIFY2(restore >= 0 && restore < paths.indexOf(u"POST /v1/chat/completions"_s), qPrintable(paths.join(u", "_s)));
    const HistoryEvent *restored = lastOfKind(f.events, HistoryEvent::Kind::CacheRestore);
    QVERIFY(restored);
    QCOMPARE(restored->cacheOutcome, HistoryEvent::CacheOutcome::Done);
    QVERIFY2(timingsOf(next.body).value("cache_n"_L1).toInt() >= int(indexed.at(0).tokens) - 4 - 10, qPrintable(QString::fromUtf8(next.body)));
    QCOMPARE(timingsOf(next.body).value("prompt_n"_L1).toInt(), 2 + 50 + 10);   // the new reply and turn, the template

    // The engine crashes; its next start restores the save again (the KV cache went with it).
    f.driver->crash();
    f.engineA->clearReceived();
    const RawHttpClient::Response afterCrash = f.ask(conversation("h1-alpha", 4));
    QCOMPARE(afterCrash.status, 200);
    paths = f.pathsReceivedByA();
    restore = paths.indexOf(u"POST /slots/0"_s);
    QVERIFY2(restore >= 0 && restore < paths.indexOf(u"POST /v1/chat/completions"_s), qPrintable(paths.join(u", "_s)));
    QCOMPARE(ofKind(f.events, HistoryEvent::Kind::CacheRestore).size(), 2);
    QVERIFY2(timingsOf(afterCrash.body).value("cache_n"_L1).toInt() >= int(indexed.at(0).tokens) - 4 - 10,
             qPrintable(QString::fromUtf8(afterCrash.body)));
    // Restored, it waits for no request any more, here or in the store.
    QCOMPARE(store.savedSlots(u"h1"_s).size(), 1);
    QVERIFY(!store.savedSlots(u"h1"_s).at(0).pending);
}

void TestPromptCacheTrust::anEntryThatCannotBeTrustedIsNotRestored_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("why");
    QTest::newRow("file missing") << u"remove"_s << u"not restored: its file %1 is missing"_s;
    QTest::newRow("file truncated") << u"truncate"_s << u"not restored: its file %1 is 4096 bytes, the save wrote"_s;
    QTest::newRow("another model") << u"model"_s
                                   << u"not restored: it was saved from another model (file /srv/models/alpha.gguf, "
                                      "now /srv/models/alpha-v2.gguf)"_s;
}

// Issue 31 item 6: a slot file that is missing, truncated or of another model is never loaded.
// The request is prefilled as usual, the history says why, and the entry is forgotten with its
// file; the history recorded before is all still there.
void TestPromptCacheTrust::anEntryThatCannotBeTrustedIsNotRestored()
{
    QFETCH(QString, change);
    QFETCH(QString, why);
    QTemporaryDir slotDir;
    QTemporaryDir data;
    const QString historyPath = data.filePath(u"history.sqlite"_s);
    QVERIFY(saveAlphaAndStop(slotDir.path(), historyPath));

    SystemClock clock;
    HistoryStore store(historyPath, clock);
    QCOMPARE(store.savedSlots(u"h1"_s).size(), 1);
    const SavedSlot saved = store.savedSlots(u"h1"_s).at(0);
    const QString file = QDir(slotDir.path()).filePath(saved.filename);
    const qsizetype eventsBefore = store.events({}).size();
    QVERIFY(eventsBefore >= 3);   // the first relay's switch and save

    CacheFixture f;
    f.folder = slotDir.path();
    f.startOn = u"b"_s;
    QVERIFY(spoilSaved(change, file, f));
    QVERIFY(f.startWithCaches());
    f.relay->setHistory(&store);
    QCOMPARE(f.keeper()->saved().size(), 1);

    const RawHttpClient::Response next = f.ask(conversation("h1-alpha", 4));
    QCOMPARE(next.status, 200);
    const QStringList paths = f.pathsReceivedByA();
    QVERIFY2(!paths.contains(u"POST /slots/0"_s), qPrintable(paths.join(u", "_s)));
    QVERIFY(paths.contains(u"POST /v1/chat/completions"_s));
    QCOMPARE(timingsOf(next.body).value("cache_n"_L1).toInt(), 0);   // a normal prefill
    const HistoryEvent *skipped = lastOfKind(f.events, HistoryEvent::Kind::CacheRestore);
    QVERIFY(skipped);
    QCOMPARE(skipped->cacheOutcome, HistoryEvent::CacheOutcome::Skipped);
    const QString expected = why.contains(u"%1"_s) ? why.arg(saved.filename) : why;
    QVERIFY2(skipped->detail.contains(expected), qPrintable(skipped->detail));

    // Forgotten, and its file gone with it; the store and the window's card say the same.
    QVERIFY(f.keeper()->saved().isEmpty());
    QCOMPARE(f.keeper()->usage().saved, 0);
    QCOMPARE(f.keeper()->usage().bytes, 0);
    QVERIFY(!QFile::exists(file));
    QVERIFY(store.savedSlots(u"h1"_s).isEmpty());
    // The history says why, and keeps everything it had.
    const QList<HistoryEvent> events = store.events({});
    QVERIFY(events.size() > eventsBefore);
    bool recorded = false;
    for (const HistoryEvent &e : events)
        recorded = recorded || (e.kind == HistoryEvent::Kind::CacheRestore && e.detail.contains(expected));
    QVERIFY(recorded);
    QCOMPARE(ofKind(events, HistoryEvent::Kind::CacheSave).size(), 1);
}

// The size budget across a restart: within a run the oldest save is dropped and forgotten in the
// store with its file; a relay started with a smaller budget drops what no longer fits at once.
void TestPromptCacheTrust::theSizeBudgetEvictsTheOldestAcrossARestart()
{
    QTemporaryDir data;
    const QString historyPath = data.filePath(u"history.sqlite"_s);
    SystemClock clock;
    QString betaFile;
    QTemporaryDir slotDir;
    {
        HistoryStore store(historyPath, clock);
        CacheFixture f;
        f.folder = slotDir.path();
        f.bytesPerToken = 8 * 1024;   // ~110 tokens: ~0.9 MB a save
        f.maxMb = 1.5;
        QVERIFY(f.startWithCaches());
        f.relay->setHistory(&store);
        QCOMPARE(f.ask(conversation("h1-alpha", 2)).status, 200);
        QCOMPARE(f.ask(conversation("h1-beta", 2)).status, 200);   // saves alpha's slot
        const QString alphaFile = f.keeper()->saved().at(0).filename;
        QTest::qWait(5);   // a later timestamp for the second save than for the first
        QCOMPARE(f.ask(conversation("h1-alpha", 3)).status, 200);   // saves beta's; alpha's is dropped
        QCOMPARE(f.keeper()->saved().size(), 1);
        betaFile = f.keeper()->saved().at(0).filename;
        QVERIFY(!QFile::exists(QDir(slotDir.path()).filePath(alphaFile)));
        const QList<SavedSlot> indexed = store.savedSlots(u"h1"_s);
        QCOMPARE(indexed.size(), 1);
        QCOMPARE(indexed.at(0).model, u"beta"_s);
        QCOMPARE(indexed.at(0).filename, betaFile);
    }
    QVERIFY(QFile::exists(QDir(slotDir.path()).filePath(betaFile)));

    HistoryStore store(historyPath, clock);
    CacheFixture f;
    f.folder = slotDir.path();
    f.maxMb = 0.5;   // beta's save alone is over it now
    QVERIFY(f.startWithCaches());
    f.relay->setHistory(&store);
    QVERIFY(f.keeper()->saved().isEmpty());
    QVERIFY(store.savedSlots(u"h1"_s).isEmpty());
    QVERIFY(!QFile::exists(QDir(slotDir.path()).filePath(betaFile)));
    const HistoryEvent *dropped = lastOfKind(f.events, HistoryEvent::Kind::CacheSave);
    QVERIFY(dropped);
    QCOMPARE(dropped->cacheOutcome, HistoryEvent::CacheOutcome::Dropped);
    QCOMPARE(dropped->model, u"beta"_s);
    QVERIFY2(dropped->detail.contains(u"over the 0.5 MB budget"_s), qPrintable(dropped->detail));
}

void TestPromptCacheTrust::anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("why");
    // The relay cannot see the box's folder: the engine refuses the file, in its own words.
    QTest::newRow("file missing")
        << u"remove"_s << u"not restored: Unable to restore slot: No available space in KV cache or invalid slot save file"_s;
    // llama-server aborts on a file cut short (the fake drops the connection): never tried again.
    QTest::newRow("file truncated") << u"truncate"_s << u"(the engine gave no answer: the save is not tried again)"_s;
    // The model is checked as on a local host: the file is never sent to the engine.
    QTest::newRow("another model") << u"model"_s
                                   << u"not restored: it was saved from another model (file /srv/models/alpha.gguf, "
                                      "now /srv/models/alpha-v2.gguf)"_s;
}

// Item 6 on an agent or command host, whose slot folder is on the box: a missing file is the
// engine's to refuse, one cut short makes llama-server abort (so the save is never tried again,
// or every start would crash), a file of another model is not sent to it at all. Each time the
// request is prefilled as usual, the history says why, the entry is forgotten (the file is the
// box's: the next save of that slot overwrites it) and nothing else stored goes.
void TestPromptCacheTrust::anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored()
{
    QFETCH(QString, change);
    QFETCH(QString, why);
    QTemporaryDir slotDir;
    QTemporaryDir data;
    const QString historyPath = data.filePath(u"history.sqlite"_s);
    QVERIFY(saveAlphaAndStop(slotDir.path(), historyPath, 3, u"command"_s));

    SystemClock clock;
    HistoryStore store(historyPath, clock);
    QCOMPARE(store.savedSlots(u"h1"_s).size(), 1);
    const SavedSlot saved = store.savedSlots(u"h1"_s).at(0);
    const QString file = QDir(slotDir.path()).filePath(saved.filename);
    QVERIFY(QFile::exists(file));
    const qsizetype eventsBefore = store.events({}).size();

    CacheFixture f;
    f.hostDriver = u"command"_s;
    f.folder = slotDir.path();
    f.startOn = u"b"_s;
    QVERIFY(spoilSaved(change, file, f));
    QVERIFY(f.startWithCaches());
    f.relay->setHistory(&store);
    QCOMPARE(f.keeper()->saved().size(), 1);

    const RawHttpClient::Response next = f.ask(conversation("h1-alpha", 4));
    QCOMPARE(next.status, 200);
    const QStringList paths = f.pathsReceivedByA();
    QVERIFY(paths.contains(u"POST /v1/chat/completions"_s));
    QCOMPARE(paths.contains(u"POST /slots/0"_s), change != u"model");
    QCOMPARE(timingsOf(next.body).value("cache_n"_L1).toInt(), 0);   // a normal prefill
    const HistoryEvent *skipped = lastOfKind(f.events, HistoryEvent::Kind::CacheRestore);
    QVERIFY(skipped);
    QCOMPARE(skipped->cacheOutcome, HistoryEvent::CacheOutcome::Skipped);
    QVERIFY2(skipped->detail.contains(why), qPrintable(skipped->detail));

    // Forgotten here and in the store; the relay leaves the box's file alone.
    QVERIFY(f.keeper()->saved().isEmpty());
    QVERIFY(store.savedSlots(u"h1"_s).isEmpty());
    QCOMPARE(QFile::exists(file), change != u"remove");
    // The history keeps everything it had, and says why.
    const QList<HistoryEvent> events = store.events({});
    QVERIFY(events.size() > eventsBefore);
    QCOMPARE(ofKind(events, HistoryEvent::Kind::CacheSave).size(), 1);
    QVERIFY(std::any_of(events.cbegin(), events.cend(), [&why](const HistoryEvent &e) {
        return e.kind == HistoryEvent::Kind::CacheRestore && e.detail.contains(why);
    }));
}

QTEST_GUILESS_MAIN(TestPromptCacheTrust)
#include "tst_promptcachetrust.moc"
