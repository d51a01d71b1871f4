// The disk budget of a box's prompt caches on its card (issue 31, item 3): the saves the relay
// keeps (the store's index, read back after a restart) against the host's max_size_mb, said in
// the card's tooltip, and again when a save comes or goes.
#include "models/hosttablemodel.h"
#include "hosts/promptcachekeeper.h"
#include "store/savedslot.h"
#include "twoenginehost.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int WaitMs = 10000;
constexpr qint64 MB = 1024 * 1024;

SavedSlot savedSlot(const QString &model, int slot, qint64 bytes, int minutesAgo)
{
    SavedSlot s;
    s.host = u"h1"_s;
    s.engine = u"a"_s;
    s.model = model;
    s.slot = slot;
    s.filename = PromptCacheKeeper::fileName(s.engine, model, slot);
    s.tokens = 1000;
    s.bytes = bytes;
    s.savedAt = QDateTime::currentDateTime().addSecs(-60 * minutesAgo);
    return s;
}

} // namespace

class TstHostCardPromptCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void words();
    void theCardShowsTheSavesAgainstTheBudget();
    void aSharedBoxShowsItsAgentsCaches();
};

void TstHostCardPromptCache::words()
{
    QCOMPARE(HostTableModel::promptCacheText(3, 412 * MB, 20 * 1024 * MB), u"prompt caches: 3 saved, 412 MB of 20 GB"_s);
    QCOMPARE(HostTableModel::promptCacheText(1, 1536 * MB, 10 * 1024 * MB), u"prompt caches: 1 saved, 1.5 GB of 10 GB"_s);
    QCOMPARE(HostTableModel::promptCacheText(0, 0, 500 * MB), u"prompt caches: 0 saved, 0 MB of 500 MB"_s);
}

// Three saves a relay before this one kept (in the store it opens), then one more saved.
void TstHostCardPromptCache::theCardShowsTheSavesAgainstTheBudget()
{
    TwoEngineHost h;
    QTemporaryDir slotDir;
    h.adjustConfig = [&slotDir](Config &config) {
        config.hosts.first().promptCache.dir = slotDir.path();
        config.hosts.first().promptCache.maxBytes = 20 * 1024 * MB;
    };
    {
        HistoryStore before(h.dir.filePath(u"h.sqlite"_s), h.clock);   // the file TwoEngineHost opens
        QVERIFY2(before.isOpen(), qPrintable(before.errorString()));
        before.keepSavedSlot(savedSlot(u"alpha"_s, 0, 200 * MB, 30));
        before.keepSavedSlot(savedSlot(u"alpha"_s, 1, 112 * MB, 20));
        before.keepSavedSlot(savedSlot(u"gamma"_s, 0, 100 * MB, 10));
        QVERIFY(before.sync());
    }
    const QString error = h.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));

    HostTableModel hosts;
    QAbstractItemModelTester tester(&hosts);
    hosts.setService(h.runner->service());
    QTRY_VERIFY_WITH_TIMEOUT(hosts.rowOf(u"h1"_s) >= 0, WaitMs);
    const QString expected = u"prompt caches: 3 saved, 412 MB of 20 GB"_s;
    QModelIndex card = hosts.index(hosts.rowOf(u"h1"_s));
    QCOMPARE(card.data(HostTableModel::PromptCachesRole).toString(), expected);
    QVERIFY2(card.data(Qt::ToolTipRole).toString().contains(expected), qPrintable(card.data(Qt::ToolTipRole).toString()));

    // A new save reaches the card without anything else changing.
    QSignalSpy changed(&hosts, &QAbstractItemModel::dataChanged);
    h.store->keepSavedSlot(savedSlot(u"beta"_s, 0, 612 * MB, 1));
    QVERIFY(h.store->sync());
    h.controller()->promptCacheKeeper()->setIndex(h.store.get());   // reads the index again
    QVERIFY(!changed.isEmpty());
    card = hosts.index(hosts.rowOf(u"h1"_s));
    QCOMPARE(card.data(HostTableModel::PromptCachesRole).toString(), u"prompt caches: 4 saved, 1 GB of 20 GB"_s);
    QVERIFY(card.data(Qt::ToolTipRole).toString().contains(u"prompt caches: 4 saved, 1 GB of 20 GB"_s));
}

// A box whose agent arbitrates (issue 33): the agent keeps its caches, so the card says what the
// agent's box event says, not this relay's own keeper (which keeps nothing for that box).
void TstHostCardPromptCache::aSharedBoxShowsItsAgentsCaches()
{
    TwoEngineHost h;
    QTemporaryDir slotDir;
    h.adjustConfig = [&slotDir](Config &config) { config.hosts.first().promptCache.dir = slotDir.path(); };
    TestEngineDriver *agent = nullptr;
    h.adjustDriver = [&agent](TestEngineDriver &driver) {
        driver.shared = true;
        agent = &driver;
    };
    const QString error = h.start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(agent);

    HostTableModel hosts;
    QAbstractItemModelTester tester(&hosts);
    hosts.setService(h.runner->service());
    QTRY_VERIFY_WITH_TIMEOUT(hosts.rowOf(u"h1"_s) >= 0, WaitMs);
    // Until the agent says, nothing: not the relay's own empty line.
    QCOMPARE(hosts.index(hosts.rowOf(u"h1"_s)).data(HostTableModel::PromptCachesRole).toString(), QString());

    emit agent->boxSeen(QJsonObject{{"name"_L1, u"gpu"_s}, {"state"_L1, u"serving"_s}, {"engine"_L1, u"a"_s},
                                    {"prompt_caches"_L1, QJsonObject{{"saved"_L1, 5}, {"bytes"_L1, double(300 * MB)},
                                                                     {"max_bytes"_L1, double(10 * 1024 * MB)}}}});
    const QModelIndex card = hosts.index(hosts.rowOf(u"h1"_s));
    QCOMPARE(card.data(HostTableModel::PromptCachesRole).toString(), u"prompt caches: 5 saved, 300 MB of 10 GB"_s);
    QVERIFY(card.data(Qt::ToolTipRole).toString().contains(u"prompt caches: 5 saved, 300 MB of 10 GB"_s));
}

QTEST_MAIN(TstHostCardPromptCache)
#include "tst_hostcardpromptcache.moc"
