// States that do not mislead (issue 22), the models table, the dialogs and the window's layout:
// items 7, 9, 13, 15, 16 and 17, asserted on widgets and item models, not on pixels. The host
// cards, the timeline and German are tst_states.
#include "app/appsettings.h"
#include "catalog/catalog.h"
#include "dialogs/exportdialog.h"
#include "dialogs/leasedialog.h"
#include "dialogs/settingsdialog.h"
#include "fleetwindow.h"
#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "models/modelfilterproxy.h"
#include "models/modeltablemodel.h"
#include "shared/clientconfigexporter.h"
#include "timeline/timelineview.h"
#include "tray/autostart.h"
#include "window/hostcarddelegate.h"
#include "window/hostsview.h"
#include "window/mainwindow.h"
#include "window/modelsview.h"
#include "window/relayclient.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

constexpr int WaitMs = 10000;

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

class TstStatesWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void contextForUnloadedModels();
    void contextForOtherEnginesModels();
    void rowsKeepTheirOrderThroughASwitch();
    void replicatedAliasHasItsRow();
    void exportDialogModelsTiersAndHints();
    void selectionSurvivesALoad();
    void settingsSayWhatRuns();
    void leaseIsOneDialog();
    void windowLayoutSmallAndLarge();
};

void TstStatesWindow::contextForUnloadedModels()
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

void TstStatesWindow::contextForOtherEnginesModels()
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

void TstStatesWindow::rowsKeepTheirOrderThroughASwitch()
{
    // Issue 30 item 12: the catalog lists the running engine's models first; a switch to the
    // other engine (a load of its model) must not move the rows under the user's eyes.
    fake::FakeOptions a;
    a.singleModel = true;
    a.models = {u"small"_s};
    a.loaded = a.models;
    fake::FakeOptions b = a;
    b.models = {u"big"_s};
    b.loaded = b.models;
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
    QAbstractItemModelTester tester(&models);
    models.setService(relay.runner.service());
    const auto order = [&models] { return QStringList{models.aliasAt(0), models.aliasAt(1)}; };
    QTRY_COMPARE_WITH_TIMEOUT(models.statusAt(models.rowOfAlias(u"box-small"_s)), u"loaded"_s, WaitMs);
    const QStringList before = order();
    QCOMPARE(before, (QStringList{u"box-small"_s, u"box-big"_s}));   // the running engine's first
    QSignalSpy reset(&models, &QAbstractItemModel::modelReset);
    catalog->setCurrentEngine(u"box"_s, u"second"_s);
    QTRY_COMPARE_WITH_TIMEOUT(models.statusAt(models.rowOfAlias(u"box-big"_s)), u"loaded"_s, WaitMs);
    QCOMPARE(models.statusAt(models.rowOfAlias(u"box-small"_s)), u"unloaded"_s);
    QCOMPARE(order(), before);
    QCOMPARE(reset.count(), 0);
}

void TstStatesWindow::replicatedAliasHasItsRow()
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

void TstStatesWindow::exportDialogModelsTiersAndHints()
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

void TstStatesWindow::selectionSurvivesALoad()
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

void TstStatesWindow::settingsSayWhatRuns()
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

void TstStatesWindow::leaseIsOneDialog()
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

void TstStatesWindow::windowLayoutSmallAndLarge()
{
    // Item 17: a splitter gives the tables their share at 1000×650; the window has a minimum
    // size at which the timeline's controls and legend do not collide; wide cards fill the row.
    GuiFleet fleet;
    QVERIFY(fleet.start());
    FleetWindow shown(fleet);
    MainWindow &window = shown.window;
    window.resize(1000, 650);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.splitter());
    QCOMPARE(window.splitter()->count(), 3);
    QVERIFY(!window.splitter()->childrenCollapsible());
    // Issue 30: the cards are whole first (no scroll bar), then the tables keep their share; at
    // 1000×650 the timeline's minimum leaves them a little under 40 %.
    QTRY_VERIFY2(window.tabs()->height() >= window.splitter()->height() * 35 / 100
                     && !window.hostsView()->verticalScrollBar()->isVisible(),
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
    QTRY_VERIFY(cards->visualRect(shown.cards.hosts.index(1)).isValid());
    QTRY_VERIFY2(cards->viewport()->width() - cards->visualRect(shown.cards.hosts.index(1)).right() < HostCardDelegate::CardWidth,
                 qPrintable(u"cards end at %1 of %2"_s.arg(cards->visualRect(shown.cards.hosts.index(1)).right()).arg(cards->viewport()->width())));
    QCOMPARE(cards->visualRect(shown.cards.hosts.index(0)).top(), cards->visualRect(shown.cards.hosts.index(1)).top());
}

QTEST_MAIN(TstStatesWindow)
#include "tst_stateswindow.moc"
