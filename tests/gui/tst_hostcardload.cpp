// A model load on the host card with the router's progress (issue 22, item 1): "loading M ·
// 50 % · 2 s" during a slow load on the fake router, the percentage gone once loaded;
// "downloading M · 2.0 of 4.0 GB" while a router downloads a model; the same on a window
// watching the relay through /admin/hosts. Offscreen.
#include "app/remoterelayfeed.h"
#include "catalog/loadprogress.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "window/hostcarddelegate.h"
#include "window/relayclient.h"

#include <QStandardItemModel>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

// A fleet whose h1 loads slowly (half way, 0.5, from 1.5 s to 3 s by default).
fake::FakeOptions slowH1(std::chrono::milliseconds load = 3s)
{
    fake::FakeOptions o = GuiFleet::defaultH1();
    o.loadDelay = load;
    return o;
}

} // namespace

class TstHostCardLoad : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void percentDuringASlowLoad();
    void bytesDuringADownload();
    void stageAndSeveralLoads();
    void watchedRelayShowsItToo();
};

void TstHostCardLoad::percentDuringASlowLoad()
{
    GuiFleet fleet;
    QVERIFY(fleet.start(slowH1()));
    HostTableModel hosts;
    hosts.setService(fleet.service());
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    client.load(u"h1-m2"_s);
    const QModelIndex h1 = hosts.index(hosts.rowOf(u"h1"_s));
    QTRY_COMPARE_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList(), QStringList{u"m2"_s}, WaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(h1.data(HostTableModel::LoadProgressRole).value<LoadProgress>().value.value_or(-1), 0.5, WaitMs);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    const QDateTime since = h1.data(HostTableModel::LoadingSinceRole).toDateTime();
    QVERIFY(since.isValid());
    // One stage ("text_model"), so no stage name: it would say nothing.
    QCOMPARE(HostCardDelegate::engineLine(h1, since.addSecs(2)), u"engine main · loading m2 · 50 % · 2 s"_s);

    // Loaded: the percentage and the loading go; the count says it.
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList().isEmpty(), WaitMs);
    QVERIFY(h1.data(HostTableModel::LoadProgressRole).value<LoadProgress>().isEmpty());
    const QString after = HostCardDelegate::engineLine(h1, QDateTime::currentDateTime());
    QVERIFY2(after.startsWith(u"engine main · 2 of 2 model"_s) && !after.contains(u'%'), qPrintable(after));
}

void TstHostCardLoad::bytesDuringADownload()
{
    // A router downloading a model (POST /models on llama.cpp; the fake has no downloads): the
    // model reads "downloading", its events say the bytes, download_finished ends it. Here the
    // catalog is told as ModelEvents would tell it.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    Catalog *catalog = fleet.service()->catalog();
    catalog->setModelStatus(u"h1"_s, u"m2"_s, u"downloading"_s);
    catalog->applyLoadProgress(u"h1"_s, *parseProgressEvent(R"({"model":"m2","event":"download_progress","data":{"progress":{)"
                                                            R"("https://huggingface.co/a/m2-GGUF/resolve/main/m2.gguf":{"done":2000000000,"total":4000000000}}}})"));
    const QModelIndex h1 = hosts.index(hosts.rowOf(u"h1"_s));
    QCOMPARE(h1.data(HostTableModel::LoadingRole).toStringList(), QStringList{u"m2"_s});
    const QDateTime since = h1.data(HostTableModel::LoadingSinceRole).toDateTime();
    QCOMPARE(HostCardDelegate::engineLine(h1, since.addSecs(12)), u"engine main · downloading m2 · 2.0 of 4.0 GB · 12 s"_s);
    catalog->applyLoadProgress(u"h1"_s, *parseProgressEvent(R"({"model":"m2","event":"download_finished"})"));
    QVERIFY(h1.data(HostTableModel::LoadProgressRole).value<LoadProgress>().isEmpty());
    QVERIFY(!HostCardDelegate::engineLine(h1, since).contains(u"GB"_s));
}

void TstHostCardLoad::stageAndSeveralLoads()
{
    // The card's words from the model's roles alone: a stage named when the load has several,
    // a small download in MB, nothing from the router yet, and two loads at once (whose
    // percentage would it be?).
    QStandardItemModel model(1, 1);
    const QModelIndex card = model.index(0, 0);
    const QDateTime since = QDateTime::currentDateTime();
    model.setData(card, int(HostActivity::Up), HostTableModel::ActivityRole);
    model.setData(card, u"main"_s, HostTableModel::EngineRole);
    model.setData(card, QStringList{u"m2"_s}, HostTableModel::LoadingRole);
    model.setData(card, since, HostTableModel::LoadingSinceRole);
    LoadProgress p;
    p.value = 0.404;
    p.stage = u"mmproj"_s;
    p.stages = {u"text_model"_s, u"mmproj"_s};
    model.setData(card, QVariant::fromValue(p), HostTableModel::LoadProgressRole);
    QCOMPARE(HostCardDelegate::engineLine(card, since.addSecs(5)), u"engine main · loading m2 · mmproj 40 % · 5 s"_s);

    LoadProgress small;
    small.downloadDone = 120'000'000;
    small.downloadTotal = 380'000'000;
    model.setData(card, QVariant::fromValue(small), HostTableModel::LoadProgressRole);
    QCOMPARE(HostCardDelegate::engineLine(card, since.addSecs(5)), u"engine main · downloading m2 · 120 of 380 MB · 5 s"_s);

    model.setData(card, QVariant::fromValue(LoadProgress()), HostTableModel::LoadProgressRole);
    QCOMPARE(HostCardDelegate::engineLine(card, since.addSecs(5)), u"engine main · loading m2 · 5 s"_s);

    // HostTableModel gives no progress for two loads (a slower load here: the second must come
    // while the first runs).
    GuiFleet fleet;
    QVERIFY(fleet.start(slowH1(8s)));
    HostTableModel hosts;
    hosts.setService(fleet.service());
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    client.load(u"h1-m2"_s);
    const QModelIndex h1 = hosts.index(hosts.rowOf(u"h1"_s));
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LoadProgressRole).value<LoadProgress>().value.has_value(), WaitMs);
    fleet.h1->setModelStatus(u"m1"_s, fake::FakeModelStatus::Loading);   // a second load
    QTRY_COMPARE_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList().size(), 2, WaitMs);
    QVERIFY(h1.data(HostTableModel::LoadProgressRole).value<LoadProgress>().isEmpty());
    QVERIFY(!HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()).contains(u'%'));
}

void TstHostCardLoad::watchedRelayShowsItToo()
{
    // /admin/hosts carries the progress; a window watching the relay shows it as the local one.
    // (A relay with its host controllers, as `switchyard serve` runs it: /admin/hosts lists them.)
    fake::FakeLlamaServer router(slowH1());
    QVERIFY(router.listen());
    ConfigResult config = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1="_s + router.baseUrl().toString()});
    QVERIFY(config.ok());
    RelayService relay(*config.config, RelayService::standardDrivers(*config.config));
    QString error;
    QVERIFY2(relay.start(&error), qPrintable(error));
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore watched(dir.filePath(u"watched.sqlite"_s), clock);
    RemoteRelayFeed feed(relay.endpoint(), QString(), &watched, 200ms);
    HostTableModel hosts;
    hosts.setRemote(&feed);
    feed.start();
    QTRY_VERIFY2_WITH_TIMEOUT(hosts.rowOf(u"h1"_s) >= 0, qPrintable(feed.error()), WaitMs);

    RelayClient client;
    client.setEndpoint(relay.endpoint());
    client.load(u"h1-m2"_s);
    const auto progress = [&hosts] {
        return hosts.index(hosts.rowOf(u"h1"_s)).data(HostTableModel::LoadProgressRole).value<LoadProgress>();
    };
    QTRY_COMPARE_WITH_TIMEOUT(progress().value.value_or(-1), 0.5, WaitMs);
    const QModelIndex h1 = hosts.index(hosts.rowOf(u"h1"_s));
    const QString line = HostCardDelegate::engineLine(h1, QDateTime::currentDateTime());
    QVERIFY2(line.startsWith(u"engine main · loading m2 · 50 %"_s), qPrintable(line));
    QTRY_VERIFY_WITH_TIMEOUT(hosts.index(hosts.rowOf(u"h1"_s)).data(HostTableModel::LoadingRole).toStringList().isEmpty(), WaitMs);
    QVERIFY(progress().isEmpty());
}

QTEST_MAIN(TstHostCardLoad)
#include "tst_hostcardload.moc"
