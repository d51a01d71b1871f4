// The switchyard executable: decides between window, tray and headless at run time (a flag,
// not an #ifdef), then runs the same relay in each (app/relayrun.h).
#include "app/appsettings.h"
#include "app/commandline.h"
#include "app/consolejournal.h"
#include "app/launch.h"
#include "app/relayfrontend.h"
#include "app/relayrun.h"
#include "app/relayrunner.h"
#include "app/startupconfig.h"
#include "demo/demofleet.h"
#include "demo/screenshotrunner.h"
#include "desktop/desktopapp.h"
#include "config/configwriter.h"
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

#include <memory>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty())
        return platform != "offscreen" && platform != "minimal";
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// The hidden --screenshots DIR option is the desktop's own; the core's parser never sees it.
QString takeScreenshotsOption(QStringList &arguments, QString *error)
{
    const qsizetype i = arguments.indexOf(u"--screenshots"_s);
    if (i < 0)
        return {};
    if (i + 1 >= arguments.size()) {
        *error = QCoreApplication::translate("main", "--screenshots needs a folder");
        return {};
    }
    const QString dir = arguments.at(i + 1);
    arguments.remove(i, 2);
    return dir;
}

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
bool handOverToRunning(const QString &instanceName, const AppOptions &options, QTextStream &err)
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

// The desktop's part of a run: window, tray or screenshots when there is a display, the demo
// fleet, and the single-instance hand-over.
class DesktopFrontend final : public RelayFrontend
{
public:
    DesktopFrontend(const AppOptions &options, bool gui, const QString &screenshotsDir, AppSettings *settings)
        : m_options(options), m_gui(gui), m_screenshotsDir(screenshotsDir), m_settings(settings)
    {
    }

    bool handOverToRunning(QTextStream &err) override
    {
        m_instanceName = instanceNameFor(m_options, m_settings);
        return ::handOverToRunning(m_instanceName, m_options, err);
    }

    bool startDemo(QStringList *upstreams, QString *error) override
    {
        m_demo = std::make_unique<fake::DemoFleet>();
        if (!m_demo->start(error))
            return false;
        m_demoUpstreams = m_demo->upstreamFlags();
        *upstreams = m_demoUpstreams;
        return true;
    }

    void addDemoEngines(Config &config) override { m_demo->addEnginesTo(config); }
    RelayService::DriverFactory demoDrivers(const Config &config) override { return m_demo->drivers(config); }

    ConfigResult fixConfig(const ConfigResult &failed) override
    {
        if (!m_gui || !m_screenshotsDir.isEmpty())
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

    bool welcomesFirstRun() const override
    {
        return m_gui && m_screenshotsDir.isEmpty() && isFirstRun(m_options, m_settings);
    }

    bool demoChosen() const override { return m_demoChosen; }

    void startFailed(const QString &error) override
    {
        if (m_gui && m_screenshotsDir.isEmpty())
            QMessageBox::critical(nullptr, QCoreApplication::translate("main", "Switchyard"), error);
    }

    void relayStarted(const RunningRelay &relay) override
    {
        QTextStream err(stderr);
        if (!m_gui) {
            m_windowless = listenWindowless(m_instanceName, relay.journal, err);
            return;
        }
        initUiResources();
        QApplication::setWindowIcon(QIcon(u":/icons/switchyard.svg"_s));
        DesktopApp::Options desktopOptions;
        desktopOptions.trayOnly = m_options.tray && m_screenshotsDir.isEmpty();
        desktopOptions.overrides = overridesOf(m_options);
        if (m_demoChosen)
            desktopOptions.overrides.append(u"--demo"_s);
        desktopOptions.relayFromCommandLine = StartupConfig::commandLineNamesRelay(m_options) || m_demoChosen;
        bool waitOk = false;
        const int waitMs = qEnvironmentVariableIntValue("SWITCHYARD_TRAY_WAIT_MS", &waitOk);
        if (waitOk)
            desktopOptions.trayWait = std::chrono::milliseconds(waitMs);
        m_desktop = std::make_unique<DesktopApp>(relay.clock, relay.runner, relay.history, m_settings,
                                                 relay.reloader, desktopOptions);
        // Named again: the settings dialog may have changed the listen address since.
        QString error;
        if (!m_desktop->listenForActivation(instanceNameFor(m_options, m_settings), &error))
            err << QCoreApplication::translate("main", "switchyard: a second launch will not find this one: %1").arg(error) << Qt::endl;
        ConsoleJournal *journal = relay.journal;
        QObject::connect(m_desktop.get(), &DesktopApp::activated, journal, [journal] {
            journal->line(QCoreApplication::translate("main", "a second launch brought the window up"));
        });
        if (m_screenshotsDir.isEmpty()) {
            m_desktop->start();
        } else {
            m_screenshots = std::make_unique<ScreenshotRunner>(m_desktop.get(), relay.runner->service()->endpoint(),
                                                               m_screenshotsDir);
            m_screenshots->start();
        }
    }

    void relayEnded() override
    {
        m_screenshots.reset();
        m_desktop.reset();
        m_windowless.reset();
    }

private:
    const AppOptions &m_options;
    const bool m_gui;
    const QString m_screenshotsDir;
    AppSettings *m_settings;
    QString m_instanceName;
    std::unique_ptr<fake::DemoFleet> m_demo;
    QStringList m_demoUpstreams;
    bool m_demoChosen = false;
    std::unique_ptr<SingleInstance> m_windowless;
    std::unique_ptr<DesktopApp> m_desktop;
    std::unique_ptr<ScreenshotRunner> m_screenshots;
};

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    QString screenshotsError;
    const QString screenshotsDir = takeScreenshotsOption(arguments, &screenshotsError);
    const AppOptions options = CommandLine::parse(arguments);

    // --screenshots renders the window offscreen: a GUI without a display.
    const bool gui = options.command == AppOptions::Command::Run && !options.headless
                     && (hasDisplay() || !screenshotsDir.isEmpty());
    Launch::prepareProcess(gui);
    std::unique_ptr<QCoreApplication> app = gui ? std::make_unique<QApplication>(argc, argv)
                                                : std::make_unique<QCoreApplication>(argc, argv);
    Launch::setUpApplication(app.get());

    QTextStream out(stdout);
    QTextStream err(stderr);
    if (!screenshotsError.isEmpty()) {
        err << "switchyard: " << screenshotsError << Qt::endl;
        return 2;
    }
    if (const std::optional<int> code = Launch::runCommand(options, out, err))
        return *code;
    if (!screenshotsDir.isEmpty() && !options.demo) {
        err << "switchyard: " << QCoreApplication::translate("main", "--screenshots runs with --demo") << Qt::endl;
        return 2;
    }
    // The window and the tray read the desktop's settings; headless mode only its flags.
    const std::unique_ptr<AppSettings> settings = gui ? AppSettings::openDefault() : nullptr;
    DesktopFrontend frontend(options, gui, screenshotsDir, settings.get());
    return runRelay(options, settings.get(), frontend);
}
