#include "app/launch.h"

#include "cli/subcommands.h"
#include "config/checkconfig.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QTranslator>

namespace switchyard::Launch {

void prepareProcess(bool gui)
{
    // Debug output is for developers (QT_LOGGING_RULES turns it on); the journal is the product's log.
    QLoggingCategory::setFilterRules(QStringLiteral("switchyard.*.debug=false"));
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
}

void setUpApplication(QCoreApplication *app)
{
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setOrganizationName(QStringLiteral("switchyard"));
    // The user's language; English otherwise (switchyard_en holds only the plural forms).
    auto *translator = new QTranslator(app);
    if (translator->load(QLocale(), QStringLiteral("switchyard"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || translator->load(QStringLiteral(":/i18n/switchyard_en")))
        QCoreApplication::installTranslator(translator);
    // Qt's own strings (dialog buttons), when the system has them.
    auto *qtTranslator = new QTranslator(app);
    if (qtTranslator->load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qtTranslator);
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
}

std::optional<int> runCommand(const AppOptions &options, QTextStream &out, QTextStream &err)
{
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
    return std::nullopt;
}

} // namespace switchyard::Launch
