// The switchyard executable: decides between window, tray and headless at run time (a flag,
// not an #ifdef), then runs the same relay in each.
#include "app/commandline.h"
#include "app/consolejournal.h"
#include "app/idlememorytrimmer.h"
#include "app/relayservice.h"
#include "app/subcommands.h"
#include "app/unixsignals.h"
#include "app/appsettings.h"
#include "app/catalogeventrecorder.h"
#include "config/checkconfig.h"
#include "app/configreloader.h"
#include "demo/demofleet.h"
#include "desktop/desktopapp.h"
#include "app/relayrunner.h"
#include "demo/screenshotrunner.h"
#include "dialogs/settingsdialog.h"
#include "tray/autostart.h"
#include "tray/singleinstance.h"
#include "app/startupconfig.h"
#include "store/clock.h"
#include "store/historystore.h"
#include "shared/uiresources.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QPushButton>
#include <QTextStream>
#include <QTranslator>

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

void printErrors(QTextStream &err, const ConfigResult &result)
{
    for (const ConfigError &e : result.errors)
        err << "switchyard: " << e.toString() << Qt::endl;
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

int runRelay(const AppOptions &options, bool gui, const QString &screenshotsDir)
{
    QTextStream err(stderr);

    // The window and the tray read the desktop's settings; headless mode only its flags.
    std::unique_ptr<AppSettings> settings = gui ? AppSettings::openDefault() : nullptr;

    // A second launch of the desktop relay raises the first one's window before it starts
    // anything or reads a config: its own might not load, and it would not be used anyway.
    const QString instanceName = instanceNameFor(options, settings.get());
    if (handOverToRunning(instanceName, options, err))
        return 0;

    ConsoleJournal journal;
    UnixSignals unixSignals;

    std::unique_ptr<fake::DemoFleet> demo;
    QStringList demoUpstreams;
    if (options.demo) {
        demo = std::make_unique<fake::DemoFleet>();
        QString error;
        if (!demo->start(&error)) {
            err << QCoreApplication::translate("main", "switchyard: cannot start the demo fleet: %1").arg(error) << Qt::endl;
            return 1;
        }
        demoUpstreams = demo->upstreamFlags();
    }
    ConfigResult result = StartupConfig::resolve(options, settings.get(), demoUpstreams);
    if (!result.ok()) {
        printErrors(err, result);
        if (!gui || !screenshotsDir.isEmpty())
            return 1;
        result = resolveWithSettingsFix(options, settings.get(), demoUpstreams);
        if (!result.ok())
            return 1;
    }
    Config config = *result.config;
    if (demo)
        demo->addEnginesTo(config);

    QString dataDir = options.dataDir;
    if (dataDir.isEmpty() && settings)
        dataDir = settings->dataDir();
    if (dataDir.isEmpty())
        dataDir = QFileInfo(HistoryStore::defaultPath()).absolutePath();
    if (!QDir().mkpath(dataDir)) {
        err << QCoreApplication::translate("main", "switchyard: cannot create the data folder %1").arg(dataDir) << Qt::endl;
        return 1;
    }
    SystemClock clock;
    HistoryStore history(QDir(dataDir).filePath(QStringLiteral("history.sqlite")), clock);
    if (!history.isOpen()) {
        err << QCoreApplication::translate("main", "switchyard: cannot open the history store: %1").arg(history.errorString()) << Qt::endl;
        return 1;
    }

    RelayRunner runner(&journal, &history);
    if (demo)
        runner.setDriverFactory([&demo](const Config &c) { return demo->drivers(c); });
    else
        runner.setDriverFactory(&RelayService::standardDrivers);
    runner.setEngineMemoryFile(QDir(dataDir).filePath(QStringLiteral("engines.json")));
    CatalogEventRecorder recorder(&history, clock);
    QObject::connect(&runner, &RelayRunner::serviceChanged, &recorder, &CatalogEventRecorder::setService);
    QString error;
    if (!runner.start(config, &error)) {
        err << "switchyard: " << error << Qt::endl;
        if (gui && screenshotsDir.isEmpty())
            QMessageBox::critical(nullptr, QCoreApplication::translate("main", "Switchyard"), error);
        return 1;
    }
    RelayService &service = *runner.service();
    IdleMemoryTrimmer trimmer;
    trimmer.watch(service.relay());
    QObject::connect(&runner, &RelayRunner::serviceChanged, &trimmer,
                     [&trimmer](RelayService *s) { trimmer.watch(s ? s->relay() : nullptr); });
    journal.line(QCoreApplication::translate("main", "switchyard %1 listening on %2 (%3 hosts)")
                     .arg(QStringLiteral(SWITCHYARD_VERSION), service.endpoint().toString())
                     .arg(config.hosts.size()));
    if (options.demo) {
        journal.line(QCoreApplication::translate("main", "demo fleet: point clients at %1/v1 (models: curl %1/v1/models)")
                         .arg(service.endpoint().toString()));
    }

    // A changed config file, or SIGHUP (`systemctl --user reload`), reloads the config: a valid
    // one replaces the running relay, a broken one is reported and changes nothing.
    ConfigReloader reloader(options, settings.get(), &runner, &journal);
    if (demo)
        reloader.setDemo(demoUpstreams, [&demo](Config &c) { demo->addEnginesTo(c); });
    QObject::connect(&unixSignals, &UnixSignals::reloadRequested, &reloader, [&reloader] { reloader.reload(); });

    std::unique_ptr<DesktopApp> desktop;
    std::unique_ptr<ScreenshotRunner> screenshots;
    const std::unique_ptr<SingleInstance> windowless = gui ? nullptr : listenWindowless(instanceName, &journal, err);
    if (gui) {
        initUiResources();
        QApplication::setWindowIcon(QIcon(u":/icons/switchyard.svg"_s));
        DesktopApp::Options desktopOptions;
        desktopOptions.trayOnly = options.tray && screenshotsDir.isEmpty();
        desktopOptions.overrides = overridesOf(options);
        bool waitOk = false;
        const int waitMs = qEnvironmentVariableIntValue("SWITCHYARD_TRAY_WAIT_MS", &waitOk);
        if (waitOk)
            desktopOptions.trayWait = std::chrono::milliseconds(waitMs);
        desktop = std::make_unique<DesktopApp>(clock, &runner, &history, settings.get(), &reloader, desktopOptions);
        // Named again: the settings dialog may have changed the listen address since.
        if (!desktop->listenForActivation(instanceNameFor(options, settings.get()), &error))
            err << QCoreApplication::translate("main", "switchyard: a second launch will not find this one: %1").arg(error) << Qt::endl;
        QObject::connect(desktop.get(), &DesktopApp::activated, &journal, [&journal] {
            journal.line(QCoreApplication::translate("main", "a second launch brought the window up"));
        });
        if (screenshotsDir.isEmpty()) {
            desktop->start();
        } else {
            screenshots = std::make_unique<ScreenshotRunner>(desktop.get(), service.endpoint(), screenshotsDir);
            screenshots->start();
        }
    }

    // SIGTERM (systemd, logout): stop accepting, let running streams finish, then exit.
    QObject::connect(&runner, &RelayRunner::stopped, &runner, [] { QCoreApplication::quit(); });
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &runner, [&runner] { runner.shutdown(); });
    return QCoreApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // Debug output is for developers (QT_LOGGING_RULES turns it on); the journal is the product's log.
    QLoggingCategory::setFilterRules(QStringLiteral("switchyard.*.debug=false"));
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    QString screenshotsError;
    const QString screenshotsDir = takeScreenshotsOption(arguments, &screenshotsError);
    const AppOptions options = CommandLine::parse(arguments);

    // --screenshots renders the window offscreen: a GUI without a display.
    const bool gui = options.command == AppOptions::Command::Run && !options.headless
                     && (hasDisplay() || !screenshotsDir.isEmpty());
    // Without a window nothing needs glib's main loop, and Qt's own unix dispatcher costs less
    // per socket event: no glib source bookkeeping around each notifier change, and half the
    // wake-up syscalls (docs/PERFORMANCE.md). Set before the application and its threads make
    // their dispatchers; child processes inherit it, which only tells another Qt program the same.
    if (!gui && !qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    // With TZ unset, glibc stat()s /etc/localtime at every local-time conversion (four per
    // request: arrival, journal, history). Naming the file makes it read the zone once; a
    // service then takes a new system time zone at its next restart, as most daemons do.
    if (!gui && !qEnvironmentVariableIsSet("TZ") && QFileInfo::exists(QStringLiteral("/etc/localtime")))
        qputenv("TZ", ":/etc/localtime");
    std::unique_ptr<QCoreApplication> app = gui ? std::make_unique<QApplication>(argc, argv)
                                                : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard"));
    // The user's language; English otherwise (switchyard_en holds only the plural forms).
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("switchyard"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || translator.load(QStringLiteral(":/i18n/switchyard_en")))
        QCoreApplication::installTranslator(&translator);
    // Qt's own strings (dialog buttons), when the system has them.
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator);
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
    if (!screenshotsError.isEmpty()) {
        err << "switchyard: " << screenshotsError << Qt::endl;
        return 2;
    }
    if (!options.error.isEmpty()) {
        err << "switchyard: " << options.error << Qt::endl;
        return 2;
    }
    switch (options.command) {
    case AppOptions::Command::Help:
        out << CommandLine::helpText();
        return 0;
    case AppOptions::Command::Version:
        out << "switchyard " << SWITCHYARD_VERSION << Qt::endl;
        return 0;
    case AppOptions::Command::CheckConfigHelp:
        out << CommandLine::checkConfigHelpText();
        return 0;
    case AppOptions::Command::CheckConfig:
        return runCheckConfig(options.checkConfigPath, out, err);
    case AppOptions::Command::Subcommand:
        return runSubcommand(options.subcommand, options.subcommandArguments, out, err);
    case AppOptions::Command::Run:
        break;
    }
    if (!screenshotsDir.isEmpty() && !options.demo) {
        err << "switchyard: " << QCoreApplication::translate("main", "--screenshots runs with --demo") << Qt::endl;
        return 2;
    }
    return runRelay(options, gui, screenshotsDir);
}
