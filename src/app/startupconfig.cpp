#include "app/startupconfig.h"

#include "app/appsettings.h"
#include "config/configloader.h"
#include "config/configwriter.h"

#include <QFileInfo>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString listenFlag(const AppOptions &options, const AppSettings *settings)
{
    if (!options.listen.isEmpty())
        return options.listen;
    return settings ? settings->listen().trimmed() : QString();
}

ConfigError problem(const QString &message)
{
    ConfigError e;
    e.message = message;
    return e;
}

} // namespace

bool StartupConfig::commandLineNamesRelay(const AppOptions &options)
{
    return options.demo || !options.configPath.isEmpty() || !options.upstreams.isEmpty() || !options.listen.isEmpty();
}

QUrl StartupConfig::watchedRelay(const AppOptions &options, const AppSettings *settings)
{
    if (!settings || options.headless || commandLineNamesRelay(options))
        return {};
    const QUrl url(settings->watchUrl().trimmed());
    return url.isValid() && !url.host().isEmpty() ? url : QUrl();
}

QString StartupConfig::configPath(const AppOptions &options, const AppSettings *settings)
{
    if (options.demo)
        return {};
    if (!options.configPath.isEmpty())
        return options.configPath;
    if (!options.upstreams.isEmpty())
        return {};
    if (settings && !settings->configPath().trimmed().isEmpty())
        return settings->configPath().trimmed();
    // Where the README's install puts it: used when nothing names another file (issue 30).
    const QString standard = ConfigWriter::defaultPath();
    return QFileInfo::exists(standard) ? standard : QString();
}

ConfigResult StartupConfig::resolve(const AppOptions &options, const AppSettings *settings,
                                    const QStringList &demoUpstreams)
{
    const QString listen = listenFlag(options, settings);
    const QString path = configPath(options, settings);
    ConfigResult result;
    if (options.demo) {
        result = ConfigLoader::fromFlags(listen.isEmpty() ? QString::fromLatin1(DefaultListen) : listen, demoUpstreams);
    } else if (path.isEmpty() && options.upstreams.isEmpty()) {
        // Nothing names a box: say how to name one, not which flag was missing.
        result.errors.append(problem(tr("no GPU boxes to serve: no config file is set, there is none at %1, and no "
                                        "--upstream is given. Start with --config FILE (docs/CONFIG.md; `switchyard "
                                        "check-config FILE` checks one), --upstream NAME=URL for one box, or --demo "
                                        "for a simulated fleet").arg(ConfigWriter::defaultPath())));
    } else if (path.isEmpty()) {
        result = ConfigLoader::fromFlags(listen.isEmpty() ? QString::fromLatin1(DefaultListen) : listen, options.upstreams);
    } else {
        result = ConfigLoader::load(path);
        if (result.ok() && !listen.isEmpty()) {
            QString why;
            if (!ConfigLoader::parseListen(listen, &result.config->listenAddress, &result.config->listenPort, &why)) {
                const QString source = options.listen.isEmpty() ? tr("the listen address in the settings")
                                                                : u"--listen"_s;
                result.errors.append(problem(u"%1 %2: %3"_s.arg(source, listen, why)));
            }
        }
    }
    if (result.ok() && settings) {
        if (const auto after = settings->early200After())
            result.config->waiting.early200After = *after;
        if (const auto every = settings->commentEvery())
            result.config->waiting.commentEvery = *every;
    }
    return result;
}

quint16 StartupConfig::listenPort(const ConfigResult &result, const AppOptions &options, const AppSettings *settings)
{
    if (result.config)
        return result.config->listenPort;
    const QString listen = listenFlag(options, settings);
    QHostAddress address;
    quint16 port = 0;
    if (ConfigLoader::parseListen(listen.isEmpty() ? QString::fromLatin1(DefaultListen) : listen, &address, &port))
        return port;
    return 0;
}

} // namespace switchyard
