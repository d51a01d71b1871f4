// States that do not mislead (issue 22): what the window shows, asserted on its widgets and item
// models, not on pixels. Items 1 (loading), 3, 9, 15, 16, 17, 18 and 20 here; items 1 (switch)
// and 2 in tst_gui's switchShowsOnHostsTimelineAndTray; 10 and 11 in tst_timelinecontent.
#include "app/appsettings.h"
#include "app/catalogeventrecorder.h"
#include "catalog/catalog.h"
#include "dialogs/exportdialog.h"
#include "dialogs/leasedialog.h"
#include "dialogs/settingsdialog.h"
#include "dialogs/welcomedialog.h"
#include "germanwindow.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/modelfilterproxy.h"
#include "models/modeltablemodel.h"
#include "shared/clientconfigexporter.h"
#include "shared/statuspalette.h"
#include "store/timelinemodel.h"
#include "timeline/timelinescale.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "testenginedriver.h"
#include "tray/autostart.h"
#include "window/hostcarddelegate.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"
#include "window/modelsview.h"
#include "window/relayclient.h"

#include <QApplication>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>

#include <cmath>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

double distance(const QColor &a, const QColor &b)
{
    return std::sqrt(std::pow(a.red() - b.red(), 2) + std::pow(a.green() - b.green(), 2) + std::pow(a.blue() - b.blue(), 2));
}

QString labelFor(QWidget *field)
{
    auto *form = field->parentWidget()->findChild<QFormLayout *>();
    auto *label = form ? qobject_cast<QLabel *>(form->labelForField(field)) : nullptr;
    return label ? label->text() : QString();
}

// A relay started from a config text, with a history store in a temporary folder.
struct RelayFromJson
{
    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store{dir.filePath(u"h.sqlite"_s), clock};
    RelayRunner runner{nullptr, &store};

    // Empty when it started, else what went wrong.
    QString start(const QByteArray &json, const QString &fileName)
    {
        const ConfigResult config = ConfigLoader::parse(json, fileName);
        if (!config.ok())
            return config.errors.value(0).toString();
        QString error;
        return runner.start(*config.config, &error) ? QString() : error;
    }
};

} // namespace

class TstStates : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadingShowsOnTheCard();
    void leaseColourIsNoEngineColour();
    void timelineSpanFromTheData();
    void contextForUnloadedModels();
    void contextForOtherEnginesModels();
    void replicatedAliasHasItsRow();
    void reloadKeepsTheEngineBar();
    void exportDialogModelsTiersAndHints();
    void selectionSurvivesALoad();
    void settingsSayWhatRuns();
    void leaseIsOneDialog();
    void windowLayoutSmallAndLarge();
    void liveFromTheEventFeed();
    void germanFitsAndQtSpeaksIt();   // last: it installs the German catalogues
};

void TstStates::loadingShowsOnTheCard()
{
    // Item 1: a model load keeps the host up, and the card says "loading M" with the time.
    fake::FakeOptions slow = GuiFleet::defaultH1();
    slow.loadDelay = 3s;
    GuiFleet fleet;
    QVERIFY(fleet.start(slow));
    HostTableModel hosts;
    hosts.setService(fleet.service());
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    client.load(u"h1-m2"_s);
    const QModelIndex h1 = hosts.index(0);
    QTRY_COMPARE_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList(), QStringList{u"m2"_s}, WaitMs);
    QCOMPARE(HostActivity(h1.data(HostTableModel::ActivityRole).toInt()), HostActivity::Up);
    const QDateTime since = h1.data(HostTableModel::LoadingSinceRole).toDateTime();
    QVERIFY(since.isValid());
    const QString line = HostCardDelegate::engineLine(h1, since.addSecs(2));
    QVERIFY2(line.startsWith(u"engine main · loading m2 · "_s) && line.endsWith(u" · 2 s"_s), qPrintable(line));   // progress: tst_hostcardload
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LoadingRole).toStringList().isEmpty(), WaitMs);
    QVERIFY(HostCardDelegate::engineLine(h1, QDateTime::currentDateTime()).contains(u"2 of 2 model"_s));
}

void TstStates::leaseColourIsNoEngineColour()
{
    // Item 3: no engine's colour is the lease's (or a status colour), whatever it is called.
    QSet<QRgb> hues;
    for (int i = 0; i < 400; ++i) {
        const QString name = i < 6 ? QStringList{u"main"_s, u"mainline"_s, u"fork"_s, u"ik-llama"_s, u"a"_s, u"b"_s}.at(i)
                                   : u"engine%1"_s.arg(i);
        const QColor c = StatusPalette::forEngine(name);
        hues.insert(c.rgb());
        QVERIFY2(distance(c, StatusPalette::lease()) > 60, qPrintable(name + u" "_s + c.name()));
        QVERIFY2(distance(c, StatusPalette::switching()) > 60, qPrintable(name + u" "_s + c.name()));
        QVERIFY2(distance(c, StatusPalette::bad()) > 60, qPrintable(name + u" "_s + c.name()));
    }
    QCOMPARE(hues.size(), 8);

    // The legend names the engines in the colours their bars have, not one teal "engine up".
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    SystemClock clock;
    TimelineView view(clock, &hosts);
    const QString legend = view.legend()->text();
    QVERIFY2(legend.contains(StatusPalette::forEngine(u"main").name()) && legend.contains(u"main"_s), qPrintable(legend));
    QCOMPARE(view.legendColor(u"main"_s), StatusPalette::forEngine(u"main"));
    QCOMPARE(view.legendColor(u"lease"_s), StatusPalette::lease());
    QVERIFY(view.legendColor(u"lease"_s) != view.legendColor(u"main"_s));
}

void TstStates::contextForUnloadedModels()
{
    // Item 7: the Context column is filled for a model that is not loaded, from the size the
    // router will load it with; and a load through the window is not "use" (item 8).
    fake::FakeOptions o = GuiFleet::defaultH1();
    o.modelContext.insert(u"m2"_s, 262144);
    GuiFleet fleet;
    QVERIFY(fleet.start(o));
    SystemClock clock;
    ModelTableModel models(clock);
    models.setHistory(fleet.store.get());
    models.setService(fleet.service());
    QTRY_VERIFY(models.rowOfAlias(u"h1-m2"_s) >= 0);
    const int m2 = models.rowOfAlias(u"h1-m2"_s);
    QCOMPARE(models.statusAt(m2), u"unloaded"_s);
    QCOMPARE(models.index(m2, ModelTableModel::ContextColumn).data().toString(), u"256k"_s);
    QCOMPARE(models.index(models.rowOfAlias(u"h1-m1"_s), ModelTableModel::ContextColumn).data().toString(), u"32k"_s);

    RequestRecord load;
    load.startedAt = QDateTime::currentDateTime();
    load.method = u"POST"_s;
    load.path = u"/models/load"_s;
    load.model = u"h1-m2"_s;
    load.status = 200;
    fleet.store->record(load);
    RequestRecord refused = load;
    refused.path = u"/v1/chat/completions"_s;
    refused.status = 423;
    fleet.store->record(refused);
    QTRY_VERIFY(!fleet.store->requests({}).isEmpty());
    QVERIFY(models.index(m2, ModelTableModel::RequestsColumn).data().toString().isEmpty());
    QVERIFY(models.index(m2, ModelTableModel::LastUsedColumn).data().toString().isEmpty());
}

void TstStates::contextForOtherEnginesModels()
{
    // Item 7: a model of an engine that is not running (here two single-model servers whose
    // models the config lists) keeps the context size the catalog saw, as the export dialog does.
    fake::FakeOptions a;
    a.singleModel = true;
    a.models = {u"small"_s};
    a.loaded = a.models;
    a.contextSize = 8192;
    fake::FakeOptions b = a;
    b.models = {u"big"_s};
    b.loaded = b.models;
    b.contextSize = 262144;
    fake::FakeLlamaServer one(a);
    fake::FakeLlamaServer two(b);
    QVERIFY(one.listen() && two.listen());
    const QByteArray json = "{\"listen\": \"127.0.0.1:0\", \"hosts\": {\"box\": {\"engines\": {"
                            "\"first\": {\"url\": \"" + one.baseUrl().toString().toUtf8() + "\", \"models\": [\"small\"]},"
                            "\"second\": {\"url\": \"" + two.baseUrl().toString().toUtf8() + "\", \"models\": [\"big\"]}}}}}";
    RelayFromJson relay;
    const QString error = relay.start(json, u"two-engines.json"_s);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    Catalog *catalog = relay.runner.service()->catalog();
    ModelTableModel models(relay.clock);
    models.setService(relay.runner.service());
    const auto contextOf = [&](const QString &alias) {
        const int row = models.rowOfAlias(alias);
        return row < 0 ? QString() : models.index(row, ModelTableModel::ContextColumn).data().toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(contextOf(u"box-small"_s), u"8k"_s, WaitMs);
    // The second engine runs now: the first one's model is not loaded, its size still known.
    catalog->setCurrentEngine(u"box"_s, u"second"_s);
    QTRY_COMPARE_WITH_TIMEOUT(contextOf(u"box-big"_s), u"256k"_s, WaitMs);
    const int small = models.rowOfAlias(u"box-small"_s);
    QCOMPARE(models.statusAt(small), u"unloaded"_s);
    QCOMPARE(models.index(small, ModelTableModel::EngineColumn).data().toString(), u"first"_s);
    QCOMPARE(contextOf(u"box-small"_s), u"8k"_s);
    QCOMPARE(models.index(small, ModelTableModel::ContextColumn).data(ModelTableModel::SortRole).toLongLong(), 8192);
}

void TstStates::replicatedAliasHasItsRow()
{
    // Issue 20: one name served by two boxes is one row, named by the alias, with the hosts of
    // its replicas, the status and context of the best of them, and the replicas in its tooltip.
    fake::FakeOptions a;
    a.models = {u"flint"_s};
    a.loaded = a.models;
    a.contextSize = 65536;
    fake::FakeOptions b = a;
    b.loaded.clear();
    fake::FakeLlamaServer one(a);
    fake::FakeLlamaServer two(b);
    QVERIFY(one.listen() && two.listen());
    const QByteArray json = "{\"listen\": \"127.0.0.1:0\", \"hosts\": {"
                            "\"h1\": {\"engines\": {\"main\": {\"url\": \"" + one.baseUrl().toString().toUtf8() + "\"}}},"
                            "\"h2\": {\"engines\": {\"main\": {\"url\": \"" + two.baseUrl().toString().toUtf8() + "\"}}}},"
                            "\"aliases\": {\"coder\": [\"h2-flint\", \"h1-flint\"]}}";
    RelayFromJson relay;
    const QString error = relay.start(json, u"replicas.json"_s);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    ModelTableModel models(relay.clock);
    models.setService(relay.runner.service());
    QTRY_VERIFY_WITH_TIMEOUT(models.rowOfAlias(u"coder"_s) >= 0 && models.rowOfAlias(u"h1-flint"_s) >= 0
                                 && models.statusAt(models.rowOfAlias(u"coder"_s)) == "loaded"_L1,
                             WaitMs);
    const int coder = models.rowOfAlias(u"coder"_s);
    QCOMPARE(models.index(coder, ModelTableModel::HostColumn).data().toString(), u"h2, h1"_s);
    QCOMPARE(models.index(coder, ModelTableModel::ContextColumn).data().toString(), u"64k"_s);
    const QString tip = models.index(coder, ModelTableModel::AliasColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"h2-flint, h1-flint"_s), qPrintable(tip));
    QCOMPARE(models.index(coder, ModelTableModel::HostColumn).data(Qt::ToolTipRole).toString(), u"Replicated on 2 hosts"_s);
    // Each box's own row stays, with its own status.
    QCOMPARE(models.statusAt(models.rowOfAlias(u"h2-flint"_s)), u"unloaded"_s);
}

void TstStates::reloadKeepsTheEngineBar()
{
    // Item 12: Reload Config re-creates every host's catalog state and controller. The new
    // catalog starts at a host's first engine until the controller has probed which one runs;
    // here the second one runs, and the first is not there. That is no downtime: the timeline
    // keeps one bar for the running engine.
    fake::FakeOptions optionsA;
    optionsA.models = {u"alpha"_s};
    fake::FakeOptions optionsB;
    optionsB.models = {u"beta"_s};
    optionsB.loaded = optionsB.models;
    fake::FakeLlamaServer engineA(optionsA);
    fake::FakeLlamaServer engineB(optionsB);
    QVERIFY(engineA.listen() && engineB.listen());
    const quint16 portA = engineA.port();
    engineA.close();   // b runs on the host
    Config config = *ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1=http://127.0.0.1:%1"_s.arg(portA)}).config;
    config.hosts.first().engines.first().name = u"a"_s;
    config.hosts.first().engines.first().models = {u"alpha"_s};   // listed: nothing to discover
    EngineConfig b;
    b.name = u"b"_s;
    b.url = engineB.baseUrl();
    b.models = {u"beta"_s};
    config.hosts.first().engines.append(b);
    const QHash<QString, fake::FakeLlamaServer *> engines{{u"a"_s, &engineA}, {u"b"_s, &engineB}};
    const QHash<QString, quint16> ports{{u"a"_s, portA}, {u"b"_s, engineB.port()}};

    QTemporaryDir dir;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    runner.setDriverFactory([engines, ports](const Config &) -> RelayService::DriverFactory {
        return [engines, ports](const HostConfig &) { return std::make_unique<TestEngineDriver>(engines, ports, u"b"_s); };
    });
    CatalogEventRecorder recorder(&store, clock);
    connect(&runner, &RelayRunner::serviceChanged, &recorder, &CatalogEventRecorder::setService);
    QString error;
    QVERIFY2(runner.start(config, &error), qPrintable(error));
    const auto servingB = [&runner] {
        const Catalog::HostState *h = runner.service()->catalog()->host(u"h1"_s);
        return h->engine == u"b"_s && h->reachable;
    };
    QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
    const QDateTime before = QDateTime::currentDateTime();
    for (int i = 0; i < 2; ++i) {
        RelayService *old = runner.service();
        QVERIFY2(runner.replace(config, &error), qPrintable(error));
        QVERIFY(runner.service() != old);
        QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
        runner.service()->catalog()->refreshAll();
        QTRY_VERIFY_WITH_TIMEOUT(servingB(), WaitMs);
    }
    TimelineModel timeline;
    timeline.loadFrom(store, {});
    QStringList seen;
    for (const HistoryEvent &e : store.events({}))
        seen.append(HistoryEvent::kindName(e.kind) + u' ' + e.engine + u' ' + e.detail);
    const QList<EngineInterval> bars = timeline.engineIntervals(u"h1"_s, before.addSecs(-60), QDateTime::currentDateTime());
    QVERIFY2(bars.size() == 1, qPrintable(QString::number(bars.size()) + u" bars from\n"_s + seen.join(u'\n')));
    QCOMPARE(bars.first().engine, u"b"_s);
    QVERIFY(bars.first().ongoing);
    QVERIFY2(!seen.join(u'\n').contains(u"host_down"_s), qPrintable(seen.join(u'\n')));
}

void TstStates::exportDialogModelsTiersAndHints()
{
    // Item 13: every model is offered (not only loaded ones); opencode's renamed keys are
    // explained; a qwen model gets its limits and no "top_p": null; Claude Code's tiers each
    // get a model; and each client says which file it reads.
    fake::FakeOptions o = GuiFleet::defaultH1();
    o.models = {u"qwen38-27b"_s, u"m2"_s};
    o.loaded = {u"qwen38-27b"_s};
    o.modelContext = {{u"qwen38-27b"_s, 131072}};
    GuiFleet fleet;
    QVERIFY(fleet.start(o));
    const QStringList aliases = fleet.service()->catalog()->aliases();
    QVERIFY(aliases.contains(u"h1-m2"_s) && aliases.contains(u"h2-m3"_s));   // neither is loaded
    ExportDialog dialog(fleet.endpoint(), QString(), aliases);
    dialog.exporter()->setProgram(qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard"_s);
    QSignalSpy exported(&dialog, &ExportDialog::exported);
    dialog.show();
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, WaitMs * 2);
    QVERIFY2(exported.last().first().toBool(), qPrintable(dialog.preview()));
    QStringList offered;
    for (int i = 0; i < dialog.modelBox()->count(); ++i)
        offered.append(dialog.modelBox()->itemData(i).toString());
    for (const QString &alias : aliases)
        QVERIFY2(offered.contains(alias), qPrintable(alias));

    // opencode (the first client): the key rename said, the qwen entry with limits, no top_p.
    QVERIFY(dialog.renameNote()->isVisible());
    QVERIFY2(dialog.renameNote()->text().contains(u"h1-q38-27b"_s), qPrintable(dialog.renameNote()->text()));
    QVERIFY(!dialog.tiersShown());
    QVERIFY2(dialog.fileHint()->text().contains(u"opencode.json"_s), qPrintable(dialog.fileHint()->text()));
    const QJsonObject models = QJsonDocument::fromJson(dialog.preview().toUtf8()).object().value("provider"_L1).toObject()
                                   .value("switchyard"_L1).toObject().value("models"_L1).toObject();
    const QJsonObject qwen = models.value("h1-q38-27b"_L1).toObject();
    QCOMPARE(qwen.value("id"_L1).toString(), u"h1-qwen38-27b"_s);
    QCOMPARE(qwen.value("limit"_L1).toObject().value("context"_L1).toInt(), 131072);
    QVERIFY2(!qwen.contains("options"_L1), qPrintable(dialog.preview()));

    // Claude Code: one model per tier.
    dialog.setClient(u"claude-code"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, WaitMs * 2);
    QVERIFY(dialog.tiersShown());
    QVERIFY(!dialog.renameNote()->isVisible());
    QVERIFY2(dialog.fileHint()->text().contains(u"~/.claude/settings.json"_s), qPrintable(dialog.fileHint()->text()));
    QComboBox *haiku = dialog.tierBox(u"haiku"_s);
    QVERIFY(haiku);
    haiku->setCurrentIndex(haiku->findData(u"h2-m3"_s));
    QTRY_VERIFY_WITH_TIMEOUT(dialog.preview().contains(u"\"ANTHROPIC_DEFAULT_HAIKU_MODEL\": \"h2-m3\""_s), WaitMs * 2);
    QVERIFY(dialog.preview().contains(u"\"ANTHROPIC_SMALL_FAST_MODEL\": \"h2-m3\""_s));
    QVERIFY(!dialog.preview().contains(u"\"ANTHROPIC_DEFAULT_OPUS_MODEL\": \"h2-m3\""_s));

    dialog.setClient(u"codex"_s);
    QVERIFY2(dialog.fileHint()->text().contains(u"config.toml"_s), qPrintable(dialog.fileHint()->text()));
    QVERIFY(!dialog.tiersShown());
}

void TstStates::timelineSpanFromTheData()
{
    // Item 10: the default span follows the newest events (here 3 minutes back: 5 minutes
    // shown), until the user picks one.
    FixedClock clock(QDateTime::currentDateTime());
    TimelineModel events;
    HistoryEvent up;
    up.kind = HistoryEvent::Kind::HostUp;
    up.host = u"h1"_s;
    up.engine = u"main"_s;
    up.at = clock.now().addSecs(-180);
    events.append(up);
    TimelineWidget timeline(clock);
    timeline.setHosts({u"h1"_s});
    timeline.setEvents(&events);
    timeline.resize(900, timeline.sizeHint().height());
    timeline.setFollowing(true);
    QVERIFY(timeline.isAutoSpan());
    QCOMPARE(timeline.scale().spanMs(), qint64(5 * 60 * 1000));
    timeline.setSpan(std::chrono::hours(1));
    QVERIFY(!timeline.isAutoSpan());
    HistoryEvent later = up;
    later.at = clock.now().addSecs(-3600 * 5);   // older data no longer changes the user's span
    events.append(later);
    timeline.setFollowing(true);
    QCOMPARE(timeline.scale().spanMs(), qint64(3600 * 1000));
}

void TstStates::selectionSurvivesALoad()
{
    // Item 9: the model the user selected stays selected when a load changes the table.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    SystemClock clock;
    ModelTableModel models(clock);
    models.setService(fleet.service());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    RelayClient client;
    client.setEndpoint(fleet.endpoint());
    ModelsView view(&models, &hosts, &client);
    view.table()->sortByColumn(ModelTableModel::StatusColumn, Qt::AscendingOrder);
    QTRY_VERIFY(models.rowOfAlias(u"h1-m2"_s) >= 0);
    QVERIFY(view.selectAlias(u"h1-m2"_s));
    QCOMPARE(view.selectedAlias(), u"h1-m2"_s);
    QVERIFY(view.loadAction()->isEnabled());
    view.loadAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(models.statusAt(models.rowOfAlias(u"h1-m2"_s)), u"loaded"_s, WaitMs);
    QCOMPARE(view.selectedAlias(), u"h1-m2"_s);

    // A reset of the table (h2 now lists another model): the selection follows the model.
    QSignalSpy reset(view.proxy(), &QAbstractItemModel::modelReset);
    const quint16 port = fleet.h2->port();
    fleet.h2->close();
    fake::FakeOptions more = GuiFleet::defaultH2();
    more.models = {u"m3"_s, u"m4"_s};
    fleet.h2 = std::make_unique<fake::FakeLlamaServer>(more);
    QVERIFY(fleet.h2->listen(QHostAddress(QHostAddress::LocalHost), port));
    fleet.service()->catalog()->refreshHost(u"h2"_s);
    QTRY_VERIFY_WITH_TIMEOUT(models.rowOfAlias(u"h2-m4"_s) >= 0, WaitMs);
    QVERIFY(reset.size() >= 1);
    QCOMPARE(view.selectedAlias(), u"h1-m2"_s);
}

void TstStates::settingsSayWhatRuns()
{
    // Item 15: plain words, the address in use, and no "--upstream" in a demo session.
    QTemporaryDir dir;
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    Autostart autostart(u"switchyard"_s);
    SettingsDialog dialog(&settings, &autostart, {u"--demo"_s});
    dialog.setRunning(u"127.0.0.1:41234"_s, true);
    QVERIFY2(dialog.listenField()->placeholderText().contains(u"127.0.0.1:41234"_s),
             qPrintable(dialog.listenField()->placeholderText()));
    QVERIFY2(!dialog.configField()->placeholderText().contains(u"--upstream"_s),
             qPrintable(dialog.configField()->placeholderText()));
    QVERIFY(dialog.configField()->placeholderText().contains(u"demo"_s));
    const QString early = labelFor(dialog.early200Field());
    const QString comment = labelFor(dialog.commentEveryField());
    QVERIFY2(!early.isEmpty() && !early.contains(u"200"_s) && !early.contains(u"Early"_s), qPrintable(early));
    QVERIFY2(!comment.isEmpty() && !comment.contains(u"comment"_s, Qt::CaseInsensitive), qPrintable(comment));
}

void TstStates::leaseIsOneDialog()
{
    // Item 16: who and how long in one dialog, not two prompts in a row.
    LeaseDialog dialog(u"h1"_s);
    QCOMPARE(dialog.owner(), u"desktop"_s);
    QCOMPARE(dialog.duration(), 60min);
    dialog.minutesField()->setValue(15);
    dialog.ownerField()->setText(u"  bench "_s);
    QCOMPARE(dialog.owner(), u"bench"_s);
    QCOMPARE(dialog.duration(), 15min);
    dialog.ownerField()->clear();
    QVERIFY(!dialog.takeButton()->isEnabled());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));   // nobody named: not taken
    dialog.ownerField()->setText(u"bench"_s);
    QVERIFY(dialog.takeButton()->isEnabled());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

void TstStates::windowLayoutSmallAndLarge()
{
    // Item 17: a splitter gives the tables their share at 1000×650; the window has a minimum
    // size at which the timeline's controls and legend do not collide; wide cards fill the row.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(fleet.service());
    SystemClock clock;
    MainWindow window(clock, &hosts, &inFlight, nullptr);
    window.setService(fleet.service());
    window.resize(1000, 650);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.splitter());
    QCOMPARE(window.splitter()->count(), 3);
    QVERIFY(!window.splitter()->childrenCollapsible());
    QTRY_VERIFY2(window.tabs()->height() >= window.splitter()->height() * 4 / 10,
                 qPrintable(u"tables %1 of %2"_s.arg(window.tabs()->height()).arg(window.splitter()->height())));

    QVERIFY(window.minimumSize().width() >= MainWindow::MinimumSize.width());
    QVERIFY(window.minimumSize().height() >= MainWindow::MinimumSize.height());
    window.resize(700, 450);   // below the minimum: the window stays at it
    QTRY_VERIFY(window.width() >= MainWindow::MinimumSize.width() && window.height() >= MainWindow::MinimumSize.height());
    auto *timeline = window.findChild<TimelineView *>();
    QVERIFY(timeline);
    QToolButton *now = nullptr;
    for (QToolButton *b : timeline->findChildren<QToolButton *>()) {
        if (b->text() == u"Now"_s)
            now = b;
    }
    QVERIFY(now);
    QTRY_VERIFY2(!now->geometry().intersects(timeline->legend()->geometry()),
                 qPrintable(u"Now %1,%2 %3 wide; legend from %4"_s.arg(now->x()).arg(now->y()).arg(now->width())
                                .arg(timeline->legend()->x())));

    // Large: the two cards share the row; no wide empty band right of them.
    window.resize(1600, 1000);
    QTRY_COMPARE(window.width(), 1600);
    HostsView *cards = window.hostsView();
    QTRY_VERIFY(cards->visualRect(hosts.index(1)).isValid());
    QTRY_VERIFY2(cards->viewport()->width() - cards->visualRect(hosts.index(1)).right() < HostCardDelegate::CardWidth,
                 qPrintable(u"cards end at %1 of %2"_s.arg(cards->visualRect(hosts.index(1)).right()).arg(cards->viewport()->width())));
    QCOMPARE(cards->visualRect(hosts.index(0)).top(), cards->visualRect(hosts.index(1)).top());
}

void TstStates::liveFromTheEventFeed()
{
    // Item 20: while the host's /models/sse feed is connected, the card says "live", not how
    // old the last poll is.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    hosts.setService(fleet.service());
    const QModelIndex h1 = hosts.index(0);
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    const QString facts = HostCardDelegate::factsLine(h1, QDateTime::currentDateTime().addSecs(25));
    QVERIFY2(facts.startsWith(u"live · "_s) && !facts.contains(u"polled"_s), qPrintable(facts));

    // The feed gone (the box is off): the poll's age again.
    fleet.h1->close();
    fleet.service()->catalog()->refreshHost(u"h1"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    QVERIFY(HostCardDelegate::factsLine(h1, QDateTime::currentDateTime()).contains(u"polled"_s));
}

void TstStates::germanFitsAndQtSpeaksIt()
{
    // Item 18: Qt's own buttons in German (qtbase_de), our "Merge Into" as merging, and the
    // card's lines within the narrowest card.
    QVERIFY2(useGerman(QStringLiteral(SWITCHYARD_QM_DIR)), SWITCHYARD_QM_DIR);
    QDialogButtonBox box(QDialogButtonBox::Cancel | QDialogButtonBox::Close);
    QCOMPARE(box.button(QDialogButtonBox::Cancel)->text(), u"Abbrechen"_s);
    QCOMPARE(box.button(QDialogButtonBox::Close)->text().remove(u'&'), u"Schließen"_s);
    const QString merge = QCoreApplication::translate("switchyard::ExportDialog", "&Merge Into…");
    QVERIFY2(!merge.contains(u"Einfügen"_s) && merge != u"&Merge Into…"_s, qPrintable(merge));
    WelcomeDialog welcome(u"/nonexistent/switchyard.json"_s);
    QVERIFY2(welcome.windowTitle() != u"Switchyard: Welcome"_s, qPrintable(welcome.windowTitle()));

    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    hosts.setService(fleet.service());
    const QModelIndex h1 = hosts.index(0);
    QTRY_VERIFY_WITH_TIMEOUT(h1.data(HostTableModel::LiveRole).toBool(), WaitMs);
    const QFontMetrics fm(QApplication::font());
    const int content = HostCardDelegate::CardWidth - 2 * 4 - 5 - 2 * 12;   // margins, strip, padding
    const QDateTime now = QDateTime::currentDateTime();
    for (const QString &line : {HostCardDelegate::engineLine(h1, now), HostCardDelegate::factsLine(h1, now),
                                HostCardDelegate::detailLine(h1, now)}) {
        QVERIFY2(fm.horizontalAdvance(line) <= content, qPrintable(u"%1: %2 px of %3"_s.arg(line).arg(fm.horizontalAdvance(line)).arg(content)));
    }
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

QTEST_MAIN(TstStates)
#include "tst_states.moc"
