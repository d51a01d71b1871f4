// The desktop around the window: single instance, autostart, settings, config reload, the tray
// (offscreen, and under an Xvfb of the test's own with and without trayer) and the export dialog.
#include "guifleet.h"

#include "tray/autostart.h"
#include "app/catalogeventrecorder.h"
#include "hosts/hostcontroller.h"
#include "testenginedriver.h"
#include "app/configreloader.h"
#include "desktop/desktopapp.h"
#include "shared/clientconfigexporter.h"
#include "dialogs/exportdialog.h"
#include "models/hosttablemodel.h"
#include "dialogs/switchenginedialog.h"
#include "window/hostcarddelegate.h"
#include "window/hostsview.h"
#include "models/inflightcounter.h"
#include "journal/journalformat.h"
#include "window/mainwindow.h"
#include "models/modelfilterproxy.h"
#include "window/modelsview.h"
#include "models/modeltablemodel.h"
#include "window/noticebar.h"
#include "app/appsettings.h"
#include "window/relayclient.h"
#include "timeline/requestdensity.h"
#include "window/requestdetailspane.h"
#include "models/requestlogfilterproxy.h"
#include "window/requestlogview.h"
#include "dialogs/settingsdialog.h"
#include "tray/singleinstance.h"
#include "app/startupconfig.h"
#include "config/configwriter.h"
#include "shared/statuspalette.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"
#include "timeline/timelinescale.h"
#include "timeline/timelineview.h"
#include "timeline/timelinewidget.h"
#include "demo/trafficgenerator.h"
#include "tray/traycontroller.h"
#include "tray/traystate.h"
#include "app/relayrunner.h"
#include "shared/uiresources.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QPixmap>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTableView>
#include <QTimeZone>
#include <QTest>

#include <QScopeGuard>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <thread>

#include "guitesthelpers.h"
#include "processlaunch.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace guitest;

namespace {

// A child under Xvfb (see trayChildMain): SWITCHYARD_GUI_TRAY_CHILD=expect-tray|expect-no-tray.
int trayChildMain(int argc, char *argv[], const QByteArray &mode)
{
    QApplication app(argc, argv);
    initUiResources();
    const bool wantTray = mode == "expect-tray";
    // A tray that starts with us may take a moment to claim its selection.
    if (wantTray && !QTest::qWaitFor([] { return TrayController::isAvailable(); }, 8000)) {
        fprintf(stderr, "child: no system tray appeared\n");
        return 3;
    }
    HostTableModel hosts;
    InFlightCounter inFlight;
    TrayController tray(&hosts, &inFlight);
    if (wantTray) {
        if (!tray.show() || !QTest::qWaitFor([&] { return tray.isVisible(); }, 3000)) {
            fprintf(stderr, "child: tray icon did not show\n");
            return 4;
        }
        if (tray.icon()->icon().isNull()) {
            fprintf(stderr, "child: tray icon has no image\n");
            return 5;
        }
        fprintf(stdout, "child: tray icon shown\n");
        return 0;
    }
    if (TrayController::isAvailable()) {
        fprintf(stderr, "child: a tray is available under bare Xvfb\n");
        return 6;
    }
    // No tray: --tray falls back to a window that says so.
    GuiFleet fleet;
    if (!fleet.start())
        return 7;
    DesktopApp::Options options;
    options.trayOnly = true;
    options.trayWait = 300ms;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    desktop.start();
    if (!QTest::qWaitFor([&] { return desktop.window()->isVisible(); }, 3000)) {
        fprintf(stderr, "child: no window without a tray\n");
        return 8;
    }
    if (desktop.window()->notice()->text() != DesktopApp::noTrayMessage())
        return 9;
    fprintf(stdout, "child: window shown, tray unavailable\n");
    return 0;
}

} // namespace

class TstGuiDesktop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void singleInstanceAnswers();
    void secondLaunchActivatesFirst();
    void autostartWritesAndRemoves();
    void settingsDialogValidatesBeforeSaving();
    void configReloadAppliesOnlyValidConfigs();
    void defaultConfigFileIsRead();
    void trayUnavailableFallsBackToWindow();
    void trayMenuListsHosts();
    void exportDialogPreviewsCopiesSavesAndMerges();
    void trayUnderXvfbWithoutTray();
    void trayUnderXvfbWithTrayer();
};

void TstGuiDesktop::initTestCase()
{
    initUiResources();
    QStandardPaths::setTestModeEnabled(true);
}

// ---- single instance, autostart, settings, reload ------------------------------------------

void TstGuiDesktop::singleInstanceAnswers()
{
    const QString name = u"switchyard-test-%1"_s.arg(QCoreApplication::applicationPid());
    SingleInstance first(name);
    QString error;
    QVERIFY2(first.listen(&error), qPrintable(error));
    QSignalSpy activated(&first, &SingleInstance::activationRequested);
    // The second instance blocks while it asks, as a starting process does: another thread.
    bool answered = false;
    std::thread second([&] { answered = SingleInstance::activateRunning(name, 3000ms); });
    QTRY_COMPARE(activated.count(), 1);
    second.join();
    QVERIFY(answered);
    // Nobody on another name.
    QVERIFY(!SingleInstance::activateRunning(name + u"-other"_s, 200ms));
    // Port 0 shares nothing; a real port does, per user.
    qunsetenv("SWITCHYARD_INSTANCE_NAME");
    QVERIFY(SingleInstance::serverNameFor(0).isEmpty());
    QVERIFY(SingleInstance::serverNameFor(18766).endsWith(u"-18766"_s));
}

void TstGuiDesktop::secondLaunchActivatesFirst()
{
    // The first instance: the real desktop app, window hidden (tray mode, no tray offscreen
    // would show it: use a plain instance and hide its window).
    GuiFleet fleet;
    QVERIFY(fleet.start());
    DesktopApp::Options options;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    const QString name = u"switchyard-test-second-%1"_s.arg(QCoreApplication::applicationPid());
    QString error;
    QVERIFY2(desktop.listenForActivation(name, &error), qPrintable(error));
    QVERIFY(!desktop.window()->isVisible());
    QSignalSpy activated(&desktop, &DesktopApp::activated);

    // The second: the real executable, as a user would start it again.
    QTemporaryDir data;
    QProcess second;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"SWITCHYARD_INSTANCE_NAME"_s, name);
    env.insert(u"SWITCHYARD_SETTINGS_FILE"_s, data.filePath(u"settings.ini"_s));
    second.setProcessEnvironment(env);
    second.start(binDir() + u"/switchyard"_s,
                 {u"--tray"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--data-dir"_s, data.path()});
    QVERIFY2(second.waitForStarted(), qPrintable(second.errorString()));
    const bool settled = QTest::qWaitFor([&] { return activated.count() > 0 || second.state() == QProcess::NotRunning; }, 10000);
    Q_UNUSED(settled)   // either way, what follows says what happened
    if (activated.isEmpty()) {
        second.kill();
        second.waitForFinished();
        QFAIL(qPrintable(u"not activated; the second launch said: "_s + QString::fromUtf8(second.readAllStandardError())
                         + QString::fromUtf8(second.readAllStandardOutput())));
    }
    QVERIFY(desktop.window()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(second.state() == QProcess::NotRunning, 10000);
    QCOMPARE(second.exitCode(), 0);
    const QString said = QString::fromUtf8(second.readAllStandardError());
    QVERIFY2(said.contains(u"already running"_s), qPrintable(said));
    // It started no relay of its own: no journal line about listening.
    QVERIFY(!QString::fromUtf8(second.readAllStandardOutput()).contains(u"listening on"_s));
}

void TstGuiDesktop::autostartWritesAndRemoves()
{
    QTemporaryDir dir;
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    Autostart autostart(u"switchyard"_s);
    QCOMPARE(autostart.filePath(), dir.filePath(u"autostart/switchyard.desktop"_s));
    QVERIFY(!autostart.isEnabled());
    QString error;
    QVERIFY2(autostart.setEnabled(true, &error), qPrintable(error));
    QVERIFY(autostart.isEnabled());
    QFile file(autostart.filePath());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString entry = QString::fromUtf8(file.readAll());
    QVERIFY(entry.startsWith(u"[Desktop Entry]\n"_s));
    QVERIFY(entry.contains(u"\nExec=switchyard --tray\n"_s));
    QVERIFY(entry.contains(u"\nType=Application\n"_s));
    file.close();
    QVERIFY(autostart.setEnabled(true, &error));   // again: still one file
    QVERIFY(autostart.setEnabled(false, &error));
    QVERIFY(!autostart.isEnabled());
    QVERIFY(!QFile::exists(autostart.filePath()));
    QVERIFY(autostart.setEnabled(false, &error));   // already off

    // A path with a space is quoted as the spec says.
    Autostart spaced(u"/opt/my apps/switchyard"_s);
    QVERIFY(spaced.desktopEntry().contains(u"Exec=\"/opt/my apps/switchyard\" --tray"_s));
    qunsetenv("SWITCHYARD_AUTOSTART_DIR");
}

void TstGuiDesktop::settingsDialogValidatesBeforeSaving()
{
    QTemporaryDir dir;
    qputenv("SWITCHYARD_AUTOSTART_DIR", dir.filePath(u"autostart"_s).toLocal8Bit());
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    Autostart autostart(u"switchyard"_s);
    SettingsDialog dialog(&settings, &autostart, {});
    QSignalSpy applied(&dialog, &SettingsDialog::applied);

    dialog.listenField()->setText(u"not an address"_s);
    QVERIFY(!dialog.save());
    QCOMPARE(applied.count(), 0);
    QVERIFY(settings.listen().isEmpty());

    const QString broken = dir.filePath(u"broken.json"_s);
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"listen": "127.0.0.1:18766", "hosts": {"bad-name": {"engines": {}}}})");
    f.close();
    dialog.listenField()->setText(u"127.0.0.1:18999"_s);
    dialog.configField()->setText(broken);
    const QStringList problems = dialog.validate();
    QVERIFY(!problems.isEmpty());
    QVERIFY2(problems.join(u'\n').contains(u"broken.json"_s), qPrintable(problems.join(u'\n')));
    QVERIFY(!dialog.save());
    QVERIFY(settings.configPath().isEmpty());

    dialog.configField()->clear();
    dialog.early200Field()->setValue(7);
    dialog.autostartField()->setChecked(true);
    QVERIFY(dialog.save());
    QCOMPARE(applied.count(), 1);
    QCOMPARE(settings.listen(), u"127.0.0.1:18999"_s);
    QCOMPARE(settings.early200After(), std::optional<std::chrono::seconds>(7s));
    QVERIFY(!settings.commentEvery());
    QVERIFY(autostart.isEnabled());
    dialog.autostartField()->setChecked(false);
    QVERIFY(dialog.save());
    QVERIFY(!autostart.isEnabled());
    qunsetenv("SWITCHYARD_AUTOSTART_DIR");
}

// Issue 30: a config at the default path (where the README's install puts it) is read when no
// setting names another file; it was ignored and the welcome appeared as if unconfigured.
void TstGuiDesktop::defaultConfigFileIsRead()
{
    const QString standard = ConfigWriter::defaultPath();   // under QStandardPaths' test folders
    QFile::remove(standard);
    QTemporaryDir dir;
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    QVERIFY(settings.configPath().isEmpty());
    AppOptions options;
    QCOMPARE(StartupConfig::configPath(options, &settings), QString());   // none yet: the welcome
    QVERIFY(!StartupConfig::resolve(options, &settings).ok());

    QVERIFY(QDir().mkpath(QFileInfo(standard).absolutePath()));
    QFile f(standard);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"listen": "127.0.0.1:0", "hosts": {"gpu": {"driver": "static", "engines": {"main": {"url": "http://127.0.0.1:9"}}}}})");
    f.close();
    QCOMPARE(StartupConfig::configPath(options, &settings), standard);
    const ConfigResult result = StartupConfig::resolve(options, &settings);
    QVERIFY2(result.ok(), qPrintable(result.errors.value(0).toString()));
    QCOMPARE(result.config->hosts.first().name, u"gpu"_s);
    // A file the settings name, --config and --upstream still come first.
    options.upstreams = {u"box=http://127.0.0.1:9"_s};
    QCOMPARE(StartupConfig::configPath(options, &settings), QString());
    QFile::remove(standard);
}

void TstGuiDesktop::configReloadAppliesOnlyValidConfigs()
{
    fake::FakeLlamaServer one(GuiFleet::defaultH1());
    fake::FakeLlamaServer two(GuiFleet::defaultH2());
    QVERIFY(one.listen() && two.listen());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"switchyard.json"_s);
    auto write = [&](const QByteArray &text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    };
    const QByteArray hostOne = R"("one": {"driver": "static", "engines": {"main": {"url": ")"
                               + one.baseUrl().toString().toUtf8() + R"("}}})";
    const QByteArray hostTwo = R"("two": {"driver": "static", "engines": {"main": {"url": ")"
                               + two.baseUrl().toString().toUtf8() + R"("}}})";
    write(R"({"listen": "127.0.0.1:0", "hosts": {)" + hostOne + "}}");

    AppOptions options;
    options.configPath = path;
    SystemClock clock;
    HistoryStore store(dir.filePath(u"h.sqlite"_s), clock);
    RelayRunner runner(nullptr, &store);
    AppSettings settings(std::make_unique<QSettings>(dir.filePath(u"s.ini"_s), QSettings::IniFormat));
    settings.setEarly200After(3s);
    ConfigReloader reloader(options, &settings, &runner, nullptr);
    const ConfigResult first = StartupConfig::resolve(options, &settings);
    QVERIFY(first.ok());
    QCOMPARE(first.config->waiting.early200After, std::chrono::milliseconds(3s));   // the setting wins
    QString error;
    QVERIFY(runner.start(*first.config, &error));
    RelayService *before = runner.service();
    QCOMPARE(reloader.watchedFile(), QFileInfo(path).absoluteFilePath());

    // A broken file changes nothing, and says why.
    QSignalSpy failed(&reloader, &ConfigReloader::reloadFailed);
    QSignalSpy reloaded(&reloader, &ConfigReloader::reloaded);
    QSignalSpy changed(&runner, &RelayRunner::serviceChanged);
    write(R"({"listen": "127.0.0.1:0", "hosts": {"one": {"driver": "static", "engines": {"main": {"url": "ftp://x"}}}}})");
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
    QVERIFY(failed.first().first().toStringList().join(u'\n').contains(u"hosts.one"_s));
    QCOMPARE(runner.service(), before);
    QCOMPARE(changed.count(), 0);

    // A good one replaces the running relay, with the second host.
    write(R"({"listen": "127.0.0.1:0", "hosts": {)" + hostOne + "," + hostTwo + "}}");
    QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 5000);
    QCOMPARE(changed.count(), 1);
    QVERIFY(runner.service() != before);
    QCOMPARE(runner.service()->catalog()->hostNames(), (QStringList{u"one"_s, u"two"_s}));
    QCOMPARE(runner.service()->config().waiting.early200After, std::chrono::milliseconds(3s));
    // The old one retires once it has nothing left to answer.
    QTRY_COMPARE_WITH_TIMEOUT(runner.retiringCount(), 0, 5000);
}

// ---- tray -----------------------------------------------------------------------------------

void TstGuiDesktop::trayUnavailableFallsBackToWindow()
{
    QVERIFY(!TrayController::isAvailable());   // offscreen has no tray
    GuiFleet fleet;
    QVERIFY(fleet.start());
    DesktopApp::Options options;
    options.trayOnly = true;
    options.trayWait = 0ms;
    DesktopApp desktop(fleet.clock, fleet.runner.get(), fleet.store.get(), nullptr, nullptr, options);
    desktop.start();
    QVERIFY(desktop.window()->isVisible());
    QVERIFY(!desktop.hasTray());
    QCOMPARE(desktop.window()->notice()->kind(), NoticeBar::Kind::Warning);
    QCOMPARE(desktop.window()->notice()->text(), DesktopApp::noTrayMessage());
    // Closing the window quits through DesktopApp (gracefully), not through Qt's last-window rule.
    QVERIFY(!QApplication::quitOnLastWindowClosed());
}

void TstGuiDesktop::exportDialogPreviewsCopiesSavesAndMerges()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    ExportDialog dialog(fleet.endpoint(), QString(), fleet.service()->catalog()->aliases());
    dialog.exporter()->setProgram(binDir() + u"/switchyard"_s);
    QSignalSpy exported(&dialog, &ExportDialog::exported);

    // opencode first: the preview is the export command's config for this relay.
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    QJsonObject config = QJsonDocument::fromJson(dialog.preview().toUtf8()).object();
    const QJsonObject provider = config.value("provider"_L1).toObject().value("switchyard"_L1).toObject();
    QCOMPARE(provider.value("options"_L1).toObject().value("baseURL"_L1).toString(), fleet.endpoint().toString() + u"/v1"_s);
    QVERIFY(provider.value("models"_L1).toObject().contains("h1-m1"_L1));

    // Copy puts exactly the preview on the clipboard.
    QApplication::clipboard()->clear();
    dialog.copyButton()->click();
    QCOMPARE(QApplication::clipboard()->text(), dialog.preview());

    // Merge into a user's opencode.json: their settings stay, the provider is added; the file
    // changes only on Save, and then whole.
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.json"_s);
    const QByteArray mine = R"({"theme": "tokyonight", "provider": {"other": {"name": "mine"}}})";
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(mine);
    }
    dialog.mergeInto(file);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 2, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    config = QJsonDocument::fromJson(dialog.preview().toUtf8()).object();
    QCOMPARE(config.value("theme"_L1).toString(), u"tokyonight"_s);
    QVERIFY(config.value("provider"_L1).toObject().contains("other"_L1));
    QVERIFY(config.value("provider"_L1).toObject().contains("switchyard"_L1));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), mine);   // not written yet
    }
    QVERIFY(dialog.save(file));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), dialog.preview());
    }

    // Claude Code as shell exports, with the chosen model.
    dialog.setClient(u"claude-code"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 3, 20000);
    QVERIFY(dialog.preview().contains("ANTHROPIC_BASE_URL"_L1));
    QVERIFY2(!dialog.preview().contains("export "_L1), qPrintable(dialog.preview()));   // JSON by default
    // Codex: its config.toml, on the Responses API.
    dialog.setClient(u"codex"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 4, 20000);
    QVERIFY2(dialog.preview().contains("wire_api = \"responses\""_L1), qPrintable(dialog.preview()));
    QVERIFY2(!dialog.preview().contains("model_catalog_json"_L1), qPrintable(dialog.preview()));
    // With its model catalog, asked for: written next to the config.toml merged into, and named.
    const QString codexConfig = dir.filePath(u"config.toml"_s);
    {
        QFile f(codexConfig);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("approval_policy = \"never\"\n");
    }
    dialog.mergeInto(codexConfig);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 5, 20000);
    QVERIFY(dialog.codexCatalogBox()->isEnabled());
    QCOMPARE(dialog.codexCatalogFile(), dir.filePath(u"switchyard-models.json"_s));
    QVERIFY(!QFile::exists(dialog.codexCatalogFile()));   // not before it is asked for
    dialog.codexCatalogBox()->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 6, 20000);
    QVERIFY2(exported.last().at(0).toBool(), qPrintable(dialog.preview()));
    QVERIFY2(dialog.preview().contains(u"model_catalog_json = \""_s + dialog.codexCatalogFile() + u'"'), qPrintable(dialog.preview()));
    QVERIFY2(dialog.preview().contains("approval_policy = \"never\""_L1), qPrintable(dialog.preview()));
    {
        QFile f(dialog.codexCatalogFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray entries = QJsonDocument::fromJson(f.readAll()).object().value("models"_L1).toArray();
        QVERIFY(!entries.isEmpty());
        QVERIFY(fleet.service()->catalog()->aliases().contains(entries.first().toObject().value("slug"_L1).toString()));
    }
    dialog.codexCatalogBox()->setChecked(false);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 7, 20000);
    // A broken export says why, and offers nothing to copy or save.
    dialog.exporter()->setProgram(dir.filePath(u"no-such-switchyard"_s));
    dialog.setClient(u"pi"_s);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 8, 20000);
    QVERIFY(!dialog.codexCatalogBox()->isEnabled());
    QVERIFY(!exported.last().at(0).toBool());
    QVERIFY(!dialog.copyButton()->isEnabled());
}

void TstGuiDesktop::trayMenuListsHosts()
{
    GuiFleet fleet;
    QVERIFY(fleet.start());
    HostTableModel hosts;
    InFlightCounter inFlight;
    hosts.setInFlightCounter(&inFlight);
    TrayController tray(&hosts, &inFlight);
    hosts.setService(fleet.service());
    tray.setEndpoint(fleet.endpoint());
    QStringList texts;
    for (QAction *a : tray.menu()->actions())
        texts.append(a->text());
    const QString all = texts.join(u'\n');
    QVERIFY2(all.contains(u"h1 — main, up"_s), qPrintable(all));
    QVERIFY(all.contains(u"h2 — main, up"_s));
    QVERIFY(tray.toolTip().contains(fleet.endpoint().toString()));
    QCOMPARE(tray.state(), TrayState::Kind::Idle);
    RequestRecord r = record(u"h1"_s, u"h1-m1"_s, 0, QDateTime::currentDateTime());
    r.startedSteady = std::chrono::steady_clock::now();
    inFlight.started(r);
    QCOMPARE(tray.state(), TrayState::Kind::Busy);
    inFlight.finished(r);
    QCOMPARE(tray.state(), TrayState::Kind::Idle);
    hosts.setActivity(u"h2"_s, HostActivity::Switching);
    QCOMPARE(tray.state(), TrayState::Kind::Switching);
    QSignalSpy open(&tray, &TrayController::openWindowRequested);
    tray.openAction()->trigger();
    QCOMPARE(open.count(), 1);
}

void TstGuiDesktop::trayUnderXvfbWithoutTray()
{
    if (QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty())
        QSKIP("Xvfb is not installed (apt-get install xvfb)");
    QProcess xvfb;
    QString display;
    QVERIFY(startXvfb(xvfb, &display));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);
    env.insert(u"SWITCHYARD_GUI_TRAY_CHILD"_s, u"expect-no-tray"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    const bool done = child.waitForFinished(30000);
    const QString output = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
    stopProcess(child);
    stopProcess(xvfb);
    QVERIFY2(done, qPrintable(output));
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
}

void TstGuiDesktop::trayUnderXvfbWithTrayer()
{
    if (QStandardPaths::findExecutable(u"Xvfb"_s).isEmpty())
        QSKIP("Xvfb is not installed (apt-get install xvfb)");
    if (QStandardPaths::findExecutable(u"trayer"_s).isEmpty())
        QSKIP("trayer is not installed (apt-get install trayer): no system tray to test against");
    QProcess xvfb;
    QString display;
    QVERIFY(startXvfb(xvfb, &display));
    QProcess trayer;
    QProcessEnvironment trayEnv = QProcessEnvironment::systemEnvironment();
    trayEnv.insert(u"DISPLAY"_s, display);
    trayer.setProcessEnvironment(trayEnv);
    trayer.start(u"trayer"_s, {u"--edge"_s, u"top"_s, u"--align"_s, u"right"_s, u"--widthtype"_s, u"pixel"_s,
                               u"--width"_s, u"200"_s, u"--height"_s, u"24"_s});
    QVERIFY(trayer.waitForStarted(5000));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
    env.insert(u"DISPLAY"_s, display);
    env.insert(u"SWITCHYARD_GUI_TRAY_CHILD"_s, u"expect-tray"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    const bool done = child.waitForFinished(30000);
    const QString output = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
    stopProcess(child);
    stopProcess(trayer);
    stopProcess(xvfb);
    QVERIFY2(done, qPrintable(output));
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(output));
    QVERIFY(output.contains(u"tray icon shown"_s));
}

int main(int argc, char *argv[])
{
    const QByteArray child = qgetenv("SWITCHYARD_GUI_TRAY_CHILD");
    if (!child.isEmpty())
        return trayChildMain(argc, argv, child);
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TstGuiDesktop test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guidesktop.moc"
