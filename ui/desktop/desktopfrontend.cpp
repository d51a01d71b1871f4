#include "desktop/desktopfrontend.h"

#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/consolejournal.h"
#include "app/relayrunner.h"
#include "app/startupconfig.h"
#include "config/configwriter.h"
#include "demo/demofleet.h"
#include "demo/demofleetprocess.h"
#include "desktop/desktopapp.h"
#include "dialogs/settingsdialog.h"
#include "dialogs/welcomedialog.h"
#include "shared/uiresources.h"
#include "tray/autostart.h"
#include "tray/singleinstance.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTextStream>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// Command-line flags that win over the desktop's settings, for the settings dialog to mention.
QStringList overridesOf(const AppOptions &options)
{
    QStringList out;
    if (!options.configPath.isEmpty())
        out.append(u"--config"_s);
    if (!options.listen.isEmpty())
        out.append(u"--listen"_s);
    if (!options.upstreams.isEmpty())
        out.append(u"--upstream"_s);
    if (!options.dataDir.isEmpty())
        out.append(u"--data-dir"_s);
    if (options.demo)
        out.append(u"--demo"_s);
    return out;
}

// The window and tray read the settings; with a config they cannot load, say what is wrong
// and let the user fix it in the settings dialog instead of exiting with no way in.
ConfigResult resolveWithSettingsFix(const AppOptions &options, AppSettings *settings, const QStringList &demo)
{
    ConfigResult result = StartupConfig::resolve(options, settings, demo);
    while (!result.ok()) {
        QStringList lines;
        for (const ConfigError &e : result.errors)
            lines.append(e.toString());
        QMessageBox box(QMessageBox::Critical, QCoreApplication::translate("main", "Switchyard"),
                        QCoreApplication::translate("main", "The relay cannot start with this config."),
                        QMessageBox::Close);
        box.setInformativeText(lines.join(u'\n'));
        QPushButton *fix = box.addButton(QCoreApplication::translate("main", "Open Settings…"), QMessageBox::AcceptRole);
        box.exec();
        if (box.clickedButton() != fix)
            return result;
        Autostart autostart;
        SettingsDialog dialog(settings, &autostart, overridesOf(options));
        if (dialog.exec() != QDialog::Accepted)
            return result;
        result = StartupConfig::resolve(options, settings, demo);
    }
    return result;
}

// A first run: nothing on the command line says where hosts come from, and the settings name
// no config file that exists. Then the window welcomes instead of showing a config error.
bool isFirstRun(const AppOptions &options, const AppSettings *settings)
{
    if (options.demo || !options.configPath.isEmpty() || !options.upstreams.isEmpty() || !settings)
        return false;
    // The file the settings name, else the default one when it exists (issue 30).
    const QString path = StartupConfig::configPath(options, settings);
    return path.isEmpty() || !QFileInfo::exists(path);
}

// Where the first run writes its config: the file the settings name, else the default one.
QString firstRunConfigPath(const AppSettings *settings)
{
    const QString path = settings->configPath().trimmed();
    return path.isEmpty() ? ConfigWriter::defaultPath() : path;
}

// The single-instance name of a desktop launch, from what it knows before reading any config:
// --listen, the settings' listen address, or the default port. Both the running instance and a
// second launch name it this way, so a config that does not load (or differs) cannot part them.
QString instanceNameFor(const AppOptions &options, const AppSettings *settings)
{
    if (options.headless)
        return {};
    return SingleInstance::serverNameFor(StartupConfig::listenPort(ConfigResult(), options, settings));
}

// Flags of this launch that the running instance does not take on: it keeps its own config.
QStringList flagsNotHandedOver(const AppOptions &options)
{
    QStringList flags = overridesOf(options);
    flags.removeAll(u"--listen"_s);   // it chose the instance
    return flags;
}

// A second desktop launch asks the running one to show its window and is done; true when one
// answered.
bool askRunningToTakeOver(const QString &instanceName, const AppOptions &options, QTextStream &err)
{
    const SingleInstance::Answer answer = SingleInstance::askRunning(instanceName);
    if (answer == SingleInstance::Answer::None)
        return false;
    if (answer == SingleInstance::Answer::WindowShown)
        err << QCoreApplication::translate("main", "switchyard: already running; brought its window up") << Qt::endl;
    else
        err << QCoreApplication::translate("main", "switchyard: already running, without a window (it has no display)") << Qt::endl;
    const QStringList ignored = flagsNotHandedOver(options);
    if (!ignored.isEmpty()) {
        err << QCoreApplication::translate("main", "switchyard: the running instance keeps its own config; %1 not applied "
                                                   "(quit it first to start with them)")
                   .arg(ignored.join(u", "_s))
            << Qt::endl;
    }
    return true;
}

// A relay started without --headless and without a display still answers second launches, so
// they say it runs instead of failing on its port or on a config they did not need.
std::unique_ptr<SingleInstance> listenWindowless(const QString &instanceName, ConsoleJournal *journal, QTextStream &err)
{
    if (instanceName.isEmpty())
        return nullptr;
    auto instance = std::make_unique<SingleInstance>(instanceName);
    instance->setWindowless(true);
    QObject::connect(instance.get(), &SingleInstance::activationRequested, journal, [journal] {
        journal->line(QCoreApplication::translate("main", "a second launch found this relay; it has no window to show (no display)"));
    });
    QString error;
    if (!instance->listen(&error))
        err << QCoreApplication::translate("main", "switchyard: a second launch will not find this one: %1").arg(error) << Qt::endl;
    return instance;
}

} // namespace

DesktopFrontend::DesktopFrontend(const AppOptions &options, bool gui, AppSettings *settings, Script script)
    : m_options(options)
    , m_gui(gui)
    , m_script(std::move(script))
    , m_settings(settings)
{
}

DesktopFrontend::~DesktopFrontend() = default;

bool DesktopFrontend::handOverToRunning(QTextStream &err)
{
    m_instanceName = instanceNameFor(m_options, m_settings);
    return askRunningToTakeOver(m_instanceName, m_options, err);
}

bool DesktopFrontend::startDemo(QStringList *upstreams, QString *error)
{
    QStringList lookedAt;
    const QString helper = DemoFleetProcess::findHelper(&lookedAt);
    if (helper.isEmpty()) {
        *error = QCoreApplication::translate("main", "its simulated hosts run in %1, which is in none of these places: %2")
                     .arg(DemoFleetProcess::HelperName, lookedAt.join(u", "_s));
        return false;
    }
    m_demo = std::make_unique<DemoFleet>(helper, DemoFleet::Timing{});
    if (!m_demo->start(error))
        return false;
    m_demoUpstreams = m_demo->upstreamFlags();
    *upstreams = m_demoUpstreams;
    return true;
}

void DesktopFrontend::addDemoEngines(Config &config)
{
    m_demo->addEnginesTo(config);
}

RelayService::DriverFactory DesktopFrontend::demoDrivers(const Config &config)
{
    return m_demo->drivers(config);
}

ConfigResult DesktopFrontend::fixConfig(const ConfigResult &failed)
{
    if (!interactive())
        return failed;
    if (welcomesFirstRun()) {
        initUiResources();
        QApplication::setWindowIcon(QIcon(u":/icons/switchyard.svg"_s));
        WelcomeDialog welcome(firstRunConfigPath(m_settings));
        welcome.exec();
        if (welcome.choice() == WelcomeDialog::Choice::Demo) {
            m_demoChosen = true;
            return failed;
        }
        if (welcome.choice() != WelcomeDialog::Choice::HostAdded)
            return failed;
        m_settings->setConfigPath(welcome.configPath());
        m_settings->sync();
        const ConfigResult added = StartupConfig::resolve(m_options, m_settings, {});
        if (added.ok())
            return added;
    }
    return resolveWithSettingsFix(m_options, m_settings, m_demoUpstreams);
}

bool DesktopFrontend::welcomesFirstRun() const
{
    return interactive() && isFirstRun(m_options, m_settings);
}

void DesktopFrontend::startFailed(const QString &error)
{
    if (interactive())
        QMessageBox::critical(nullptr, QCoreApplication::translate("main", "Switchyard"), error);
}

void DesktopFrontend::relayStarted(const RunningRelay &relay)
{
    QTextStream err(stderr);
    if (!m_gui) {
        m_windowless = listenWindowless(m_instanceName, relay.journal, err);
        return;
    }
    initUiResources();
    QApplication::setWindowIcon(QIcon(u":/icons/switchyard.svg"_s));
    DesktopApp::Options desktopOptions;
    desktopOptions.trayOnly = m_options.tray && !m_script;
    desktopOptions.overrides = overridesOf(m_options);
    if (m_demoChosen)
        desktopOptions.overrides.append(u"--demo"_s);
    desktopOptions.relayFromCommandLine = StartupConfig::commandLineNamesRelay(m_options) || m_demoChosen;
    bool waitOk = false;
    const int waitMs = qEnvironmentVariableIntValue("SWITCHYARD_TRAY_WAIT_MS", &waitOk);
    if (waitOk)
        desktopOptions.trayWait = std::chrono::milliseconds(waitMs);
    m_desktop = std::make_unique<DesktopApp>(relay.clock, relay.runner, relay.history, m_settings, relay.reloader,
                                             desktopOptions);
    // Named again: the settings dialog may have changed the listen address since.
    QString error;
    if (!m_desktop->listenForActivation(instanceNameFor(m_options, m_settings), &error))
        err << QCoreApplication::translate("main", "switchyard: a second launch will not find this one: %1").arg(error) << Qt::endl;
    ConsoleJournal *journal = relay.journal;
    QObject::connect(m_desktop.get(), &DesktopApp::activated, journal, [journal] {
        journal->line(QCoreApplication::translate("main", "a second launch brought the window up"));
    });
    if (m_script)
        m_scripted = m_script(m_desktop.get(), relay.runner->service()->endpoint());
    else
        m_desktop->start();
}

void DesktopFrontend::relayEnded()
{
    m_scripted.reset();
    m_desktop.reset();
    m_windowless.reset();
}

} // namespace switchyard
