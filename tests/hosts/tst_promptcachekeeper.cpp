// Prompt caches across a switch (issue 19) with the fake router's slot API: a switch saves what
// the stopped engine's slots hold, the first request for that model after the switch back
// restores it before it is forwarded, and every way this can go wrong (a save too slow for the
// budget, a restore that fails or does not fit, a cache folder over its size) leaves switches
// and requests as they were, with a history event saying what happened.
#include "switchingfixture.h"

#include "common/clock.h"
#include "hosts/promptcachekeeper.h"
#include "journal/journalformat.h"
#include "journal/requestrecord.h"
#include "relay/relay.h"
#include "store/historystore.h"
#include "rawhttpclient.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cctype>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// A conversation of `turns` user messages of `words` words each: every turn repeats the ones
// before, as an agent's does.
QByteArray conversation(const QByteArray &model, int turns, int words = 50)
{
    QJsonArray messages;
    messages.append(QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, u"You are a careful coding agent."_s}});
    for (int t = 0; t < turns; ++t) {
        QStringList text;
        for (int w = 0; w < words; ++w)
            text << u"t%1w%2"_s.arg(t).arg(w);
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, text.join(u' ')}});
        if (t + 1 < turns)
            messages.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, u"done %1"_s.arg(t)}});
    }
    const QJsonObject body{{"model"_L1, QString::fromUtf8(model)}, {"messages"_L1, messages}, {"max_tokens"_L1, 4}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QJsonObject timingsOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object().value("timings"_L1).toObject();
}

QList<HistoryEvent> ofKind(const QList<HistoryEvent> &events, HistoryEvent::Kind kind)
{
    QList<HistoryEvent> out;
    for (const HistoryEvent &e : events) {
        if (e.kind == kind)
            out << e;
    }
    return out;
}

struct CacheFixture : SwitchingFixture
{
    QTemporaryDir dir;
    QString folder;   // the slot folder; empty: dir's
    std::chrono::milliseconds saveDelay{0};
    int bytesPerToken = 1024;
    double maxMb = 1000;
    std::chrono::milliseconds budget{5000};
    std::function<void(fake::FakeOptions &a)> tuneA;
    // "local": the cache folder is on this machine (the keeper checks and deletes its files);
    // "command" (or "agent"): it is on the box, and only the engine can tell a bad file.
    QString hostDriver = u"local"_s;

    QString slotFolder() const { return folder.isEmpty() ? dir.path() : folder; }

    bool startWithCaches()
    {
        tune = [this](fake::FakeOptions &a, fake::FakeOptions &b) {
            if (tuneA)
                tuneA(a);
            for (fake::FakeOptions *o : {&a, &b}) {
                o->slotSavePath = slotFolder();
                o->slotSaveDelay = saveDelay;
                o->slotBytesPerToken = bytesPerToken;
                o->tokensPerSecond = 0;
            }
        };
        configure = [this](Config &config) {
            HostConfig &h = config.hosts.first();
            h.driver = hostDriver;
            h.promptCache.dir = slotFolder();
            h.promptCache.maxBytes = qint64(maxMb * 1024 * 1024);
            h.promptCache.saveBudget = budget;
        };
        return dir.isValid() && start();
    }

    PromptCacheKeeper *keeper() const { return relay->hostController(u"h1"_s)->promptCacheKeeper(); }

    // One request through the relay, answered.
    RawHttpClient::Response ask(const QByteArray &body)
    {
        RawHttpClient client(port());
        if (!client.connectToServer())
            return {};
        client.send(RawHttpClient::post("/v1/chat/completions", body));
        if (!QTest::qWaitFor([&] { return client.completedResponses() == 1; }, 15000))
            return {};
        return client.responses().at(0);
    }

    QStringList pathsReceivedByA() const
    {
        QStringList paths;
        for (const fake::ReceivedRequest &r : engineA->received())
            paths << QString::fromUtf8(r.method + ' ' + r.path);
        return paths;
    }
};

} // namespace

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
    void savedCachesSurviveARelayRestartAndAnEngineCrash();
    void anEntryThatCannotBeTrustedIsNotRestored_data();
    void anEntryThatCannotBeTrustedIsNotRestored();
    void theSizeBudgetEvictsTheOldestAcrossARestart();
    void anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored_data();
    void anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored();
};

namespace {

// Alpha's conversation saved by a first relay that switched to beta, then that relay gone: its
// history store closed, the slot file left in `folder`.
bool saveAlphaAndStop(const QString &folder, const QString &historyPath, int alphaTurns = 3,
                      const QString &driver = QStringLiteral("local"))
{
    SystemClock clock;
    HistoryStore store(historyPath, clock);
    CacheFixture first;
    first.folder = folder;
    first.hostDriver = driver;
    if (!store.isOpen() || !first.startWithCaches())
        return false;
    first.relay->setHistory(&store);
    if (first.ask(conversation("h1-alpha", alphaTurns)).status != 200 || first.ask(conversation("h1-beta", 1)).status != 200)
        return false;
    return first.keeper()->saved().size() == 1 && store.sync();
}

const HistoryEvent *lastOfKind(const QList<HistoryEvent> &events, HistoryEvent::Kind kind)
{
    for (qsizetype i = events.size() - 1; i >= 0; --i) {
        if (events.at(i).kind == kind)
            return &events.at(i);
    }
    return nullptr;
}

} // namespace

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

// Issue 31: the index of saved slots is in the store. A new relay over the same store and slot
// folder, which finds engine b running, restores alpha's slot when alpha's next turn comes; so
// does the next start after the engine crashed.
void TestPromptCacheKeeper::savedCachesSurviveARelayRestartAndAnEngineCrash()
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

void TestPromptCacheKeeper::anEntryThatCannotBeTrustedIsNotRestored_data()
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
void TestPromptCacheKeeper::anEntryThatCannotBeTrustedIsNotRestored()
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
    if (change == u"remove") {
        QVERIFY(QFile::remove(file));
    } else if (change == u"truncate") {
        QVERIFY(QFile::resize(file, 4096));
    } else {
        // Other weights under the same name, the same shape: the fake, like llama-server,
        // would load the file; the relay must not ask it to.
        f.tuneA = [](fake::FakeOptions &a) { a.modelFiles.insert(u"alpha"_s, u"/srv/models/alpha-v2.gguf"_s); };
    }
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
void TestPromptCacheKeeper::theSizeBudgetEvictsTheOldestAcrossARestart()
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

void TestPromptCacheKeeper::anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored_data()
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
void TestPromptCacheKeeper::anEntryOnAnotherBoxThatCannotBeTrustedIsNotRestored()
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
    if (change == u"remove")
        QVERIFY(QFile::remove(file));
    else if (change == u"truncate")
        QVERIFY(QFile::resize(file, 4096));
    else
        f.tuneA = [](fake::FakeOptions &a) { a.modelFiles.insert(u"alpha"_s, u"/srv/models/alpha-v2.gguf"_s); };
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

QTEST_GUILESS_MAIN(TestPromptCacheKeeper)
#include "tst_promptcachekeeper.moc"
