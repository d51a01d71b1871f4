#include "app/relayrun.h"

#include "app/appsettings.h"
#include "app/catalogeventrecorder.h"
#include "app/configreloader.h"
#include "app/consolejournal.h"
#include "app/idlememorytrimmer.h"
#include "app/relayfrontend.h"
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "app/startupconfig.h"
#include "common/clock.h"
#include "common/unixsignals.h"
#include "store/historystore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <optional>

namespace switchyard {

namespace {

void printErrors(QTextStream &err, const ConfigResult &result)
{
    for (const ConfigError &e : result.errors)
        err << "switchyard: " << e.toString() << Qt::endl;
}

} // namespace

int runRelay(const AppOptions &launchOptions, AppSettings *settings, RelayFrontend &frontend)
{
    AppOptions options = launchOptions;   // the first run's welcome may choose the demo
    QTextStream err(stderr);

    // A second launch of the desktop relay raises the first one's window before it starts
    // anything or reads a config: its own might not load, and it would not be used anyway.
    if (frontend.handOverToRunning(err))
        return 0;

    SystemClock clock;   // the one clock of the relay, its journal and its history
    ConsoleJournal journal(stdout, &clock);
    UnixSignals unixSignals;
    // SIGTERM and SIGINT (systemd, logout, Ctrl-C) end the process in every state. Before the
    // relay runs, a front end may be asking the user something in a dialog of its own event loop:
    // exit() ends every running loop, so the dialog returns and the run ends. Once the relay runs
    // it stops gracefully (see below).
    RelayRunner *running = nullptr;
    bool terminated = false;
    QObject::connect(&unixSignals, &UnixSignals::terminationRequested, &unixSignals, [&running, &terminated](int) {
        if (running) {
            running->shutdown();
            return;
        }
        terminated = true;
        QCoreApplication::exit(0);
    });

    QStringList demoUpstreams;
    const auto startDemo = [&frontend, &demoUpstreams, &err] {
        QString error;
        if (frontend.startDemo(&demoUpstreams, &error))
            return true;
        err << QCoreApplication::translate("main", "switchyard: cannot start the demo fleet: %1").arg(error) << Qt::endl;
        return false;
    };
    // The desktop's settings may watch a relay elsewhere instead: then nothing starts here (no
    // config is read, no port is taken, no engine runs) until they say "run the relay here".
    const QUrl watched = StartupConfig::watchedRelay(options, settings);
    std::optional<Config> config;
    if (watched.isEmpty()) {
        if (options.demo && !startDemo())
            return 1;
        ConfigResult result = StartupConfig::resolve(options, settings, demoUpstreams);
        if (!result.ok()) {
            if (!frontend.welcomesFirstRun())
                printErrors(err, result);
            result = frontend.fixConfig(result);
            if (terminated)
                return 0;
            if (!result.ok() && frontend.demoChosen()) {
                options.demo = true;
                if (!startDemo())
                    return 1;
                result = StartupConfig::resolve(options, settings, demoUpstreams);
            }
            if (!result.ok())
                return 1;
        }
        config = *result.config;
        if (options.demo)
            frontend.addDemoEngines(*config);
    }
    const bool demo = options.demo;

    QString dataDir = options.dataDir;
    if (dataDir.isEmpty() && settings)
        dataDir = settings->dataDir();
    if (dataDir.isEmpty())
        dataDir = QFileInfo(HistoryStore::defaultPath()).absolutePath();
    if (!QDir().mkpath(dataDir)) {
        err << QCoreApplication::translate("main", "switchyard: cannot create the data folder %1").arg(dataDir) << Qt::endl;
        return 1;
    }
    HistoryStore history(QDir(dataDir).filePath(QStringLiteral("history.sqlite")), clock);
    if (!history.isOpen()) {
        err << QCoreApplication::translate("main", "switchyard: cannot open the history store: %1").arg(history.errorString()) << Qt::endl;
        return 1;
    }

    RelayRunner runner(&journal, &history, &clock);
    if (demo)
        runner.setDriverFactory([&frontend](const Config &c) { return frontend.demoDrivers(c); });
    else
        runner.setDriverFactory(&RelayService::standardDrivers);
    runner.setEngineMemoryFile(QDir(dataDir).filePath(QStringLiteral("engines.json")));
    CatalogEventRecorder recorder(&history, clock);
    QObject::connect(&runner, &RelayRunner::serviceChanged, &recorder, &CatalogEventRecorder::setService);
    QString error;
    if (config && !runner.start(*config, &error)) {
        err << "switchyard: " << error << Qt::endl;
        frontend.startFailed(error);
        return 1;
    }
    running = &runner;
    IdleMemoryTrimmer trimmer;
    trimmer.watch(runner.service() ? runner.service()->relay() : nullptr);
    QObject::connect(&runner, &RelayRunner::serviceChanged, &trimmer,
                     [&trimmer](RelayService *s) { trimmer.watch(s ? s->relay() : nullptr); });
    if (config) {
        journal.line(QCoreApplication::translate("main", "switchyard %1 listening on %2 (%n host(s))", nullptr,
                                                 int(config->hosts.size()))
                         .arg(QStringLiteral(SWITCHYARD_VERSION), runner.service()->endpoint().toString()));
    } else {
        journal.line(QCoreApplication::translate("main", "switchyard %1 watching the relay at %2 (none runs here)")
                         .arg(QStringLiteral(SWITCHYARD_VERSION), watched.toString()));
    }
    if (demo) {
        journal.line(QCoreApplication::translate("main", "demo fleet: point clients at %1/v1 (models: curl %1/v1/models)")
                         .arg(runner.service()->endpoint().toString()));
    }

    // A changed config file, or SIGHUP (`systemctl --user reload`), reloads the config: a valid
    // one replaces the running relay, a broken one is reported and changes nothing. While the
    // settings watch a relay elsewhere it starts none.
    ConfigReloader reloader(options, settings, &runner, &journal);
    if (demo)
        reloader.setDemo(demoUpstreams, [&frontend](Config &c) { frontend.addDemoEngines(c); });
    QObject::connect(&unixSignals, &UnixSignals::reloadRequested, &reloader, [&reloader] { reloader.reload(); });

    frontend.relayStarted(RunningRelay{clock, &runner, &history, &reloader, &journal});

    // SIGTERM (systemd, logout): stop accepting, let running streams finish, then exit. exit(),
    // not quit(): quit() asks the windows first (one that hides to the tray would refuse it), and
    // a modal dialog's event loop must end too.
    QObject::connect(&runner, &RelayRunner::stopped, &runner, [] { QCoreApplication::exit(0); });
    const int code = terminated ? 0 : QCoreApplication::exec();
    frontend.relayEnded();
    return code;
}

} // namespace switchyard
