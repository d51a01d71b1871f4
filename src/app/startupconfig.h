#pragma once

#include "app/commandline.h"
#include "config/config.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace switchyard {

class AppSettings;

// Which Config the relay runs with: command-line flags first, then the desktop's settings
// (when given; headless mode passes none), then the config file, then the defaults. The same
// rules serve the first start and every reload.
class StartupConfig final
{
    Q_DECLARE_TR_FUNCTIONS(StartupConfig)

public:
    static constexpr auto DefaultListen = "127.0.0.1:18766";

    // demoUpstreams: the demo fleet's "--upstream NAME=URL" values when options.demo.
    static ConfigResult resolve(const AppOptions &options, const AppSettings *settings,
                                const QStringList &demoUpstreams = {});
    // The config file the relay reads (to watch it), empty when none: --config, else the file the
    // settings name, else the default file (ConfigWriter::defaultPath) when it exists.
    static QString configPath(const AppOptions &options, const AppSettings *settings);
    // The listen port the relay asks for, for the single-instance name: the config's, or when
    // the config did not load, the one the flags, the settings or the default name.
    static quint16 listenPort(const ConfigResult &result, const AppOptions &options, const AppSettings *settings);

    // The command line names a relay of its own to run (--config, --upstream, --listen, --demo):
    // the settings' "watch the relay at URL" does not apply to this launch.
    static bool commandLineNamesRelay(const AppOptions &options);
    // The relay to watch instead of running one here: the settings' "watch the relay at URL"
    // (none in headless mode, which reads no settings), unless the command line names a relay.
    // Empty: run the relay here.
    static QUrl watchedRelay(const AppOptions &options, const AppSettings *settings);

    StartupConfig() = delete;
};

} // namespace switchyard
