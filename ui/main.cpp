// The switchyard executable: decides between window, tray and headless at run time (a flag,
// not an #ifdef), then runs the same RelayService in each.
#include "app/commandline.h"
#include "app/consolejournal.h"
#include "app/relayservice.h"
#include "app/subcommands.h"
#include "app/unixsignals.h"
#include "config/checkconfig.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "store/clock.h"
#include "store/historystore.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLoggingCategory>
#include <QTextStream>
#include <QTranslator>
#include <QLocale>

#include <cstdio>
#include <memory>

using namespace switchyard;

namespace {

bool hasDisplay()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (!platform.isEmpty())
        return platform != "offscreen" && platform != "minimal";
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

int runRelay(const AppOptions &options, bool gui)
{
    QTextStream err(stderr);
    ConsoleJournal journal;
    UnixSignals unixSignals;

    std::unique_ptr<fake::DemoFleet> demo;
    Config config;
    if (options.demo) {
        demo = std::make_unique<fake::DemoFleet>();
        QString error;
        if (!demo->start(&error)) {
            err << QCoreApplication::translate("main", "switchyard: cannot start the demo fleet: %1").arg(error) << Qt::endl;
            return 1;
        }
        ConfigResult result = ConfigLoader::fromFlags(options.listen.isEmpty() ? QStringLiteral("127.0.0.1:18766") : options.listen,
                                                      demo->upstreamFlags());
        if (!result.ok()) {
            for (const ConfigError &e : result.errors)
                err << "switchyard: " << e.toString() << Qt::endl;
            return 1;
        }
        config = *result.config;
    } else {
        ConfigResult result = options.configPath.isEmpty()
            ? ConfigLoader::fromFlags(options.listen.isEmpty() ? QStringLiteral("127.0.0.1:18766") : options.listen,
                                      options.upstreams)
            : ConfigLoader::load(options.configPath);
        if (!result.ok()) {
            for (const ConfigError &e : result.errors)
                err << "switchyard: " << e.toString() << Qt::endl;
            return 1;
        }
        config = *result.config;
        if (!options.configPath.isEmpty() && !options.listen.isEmpty()) {
            QString why;
            if (!ConfigLoader::parseListen(options.listen, &config.listenAddress, &config.listenPort, &why)) {
                err << "switchyard: --listen " << options.listen << ": " << why << Qt::endl;
                return 1;
            }
        }
    }

    const QString dataDir = options.dataDir.isEmpty() ? QFileInfo(HistoryStore::defaultPath()).absolutePath() : options.dataDir;
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

    RelayService service(config);
    service.setJournal(&journal);
    service.setHistory(&history);
    QString error;
    if (!service.start(&error)) {
        err << "switchyard: " << error << Qt::endl;
        return 1;
    }
    journal.line(QCoreApplication::translate("main", "switchyard %1 listening on %2 (%3 hosts)")
                     .arg(QStringLiteral(SWITCHYARD_VERSION), service.endpoint().toString())
                     .arg(config.hosts.size()));
    if (options.demo) {
        journal.line(QCoreApplication::translate("main", "demo fleet: point clients at %1/v1 (models: curl %1/v1/models)")
                         .arg(service.endpoint().toString()));
    }

    std::unique_ptr<QLabel> window;
    if (gui) {
        window = std::make_unique<QLabel>(QCoreApplication::translate("main", "Switchyard is relaying on %1")
                                              .arg(service.endpoint().toString()));
        window->setWindowTitle(QCoreApplication::translate("main", "Switchyard"));
        window->setMargin(24);
        window->show();
    }

    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &service, [&service] {
        service.stopAccepting();
        QCoreApplication::quit();
    });
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
    const AppOptions options = CommandLine::parse(arguments);

    const bool gui = options.command == AppOptions::Command::Run && !options.headless && hasDisplay();
    std::unique_ptr<QCoreApplication> app = gui ? std::make_unique<QApplication>(argc, argv)
                                                : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("switchyard"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
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
    case AppOptions::Command::CheckConfig:
        return runCheckConfig(options.checkConfigPath, out, err);
    case AppOptions::Command::Subcommand:
        return runSubcommand(options.subcommand, options.subcommandArguments, out, err);
    case AppOptions::Command::Run:
        break;
    }
    return runRelay(options, gui);
}
