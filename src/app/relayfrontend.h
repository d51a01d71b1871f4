#pragma once

#include "app/relayservice.h"
#include "config/config.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace switchyard {

class AppSettings;
class Clock;
class ConfigReloader;
class ConsoleJournal;
class HistoryStore;
class RelayRunner;

// What runRelay() has running once the relay listens, for a front end to show.
struct RunningRelay
{
    const Clock &clock;
    RelayRunner *runner;
    HistoryStore *history;
    ConfigReloader *reloader;
    ConsoleJournal *journal;
};

// What the executable adds to a run of the relay: the window and tray, the demo fleet and the
// single-instance hand-over live in ui/, above the core, so runRelay() asks through this at each
// point where they change what happens. Headless mode has one too (for --demo).
class RelayFrontend
{
public:
    virtual ~RelayFrontend() = default;

    // Before anything starts: true when a running instance took this launch over.
    virtual bool handOverToRunning(QTextStream &err) = 0;
    // --demo: starts the fleet; its "--upstream NAME=URL" values go to *upstreams.
    virtual bool startDemo(QStringList *upstreams, QString *error) = 0;
    virtual void addDemoEngines(Config &config) = 0;
    virtual RelayService::DriverFactory demoDrivers(const Config &config) = 0;
    // A config that did not load, its errors already printed (unless welcomesFirstRun()): the
    // one to run with instead.
    virtual ConfigResult fixConfig(const ConfigResult &failed) = 0;
    // True when fixConfig() will show the first run's welcome: there is no config yet, which is
    // no error to print (headless prints it and exits 1).
    virtual bool welcomesFirstRun() const { return false; }
    // After fixConfig() gave no config: the user chose the demo fleet instead (the first run's
    // welcome), so the run goes on as with --demo.
    virtual bool demoChosen() const { return false; }
    // The relay did not start; the error is already printed.
    virtual void startFailed(const QString &error) = 0;
    // The relay runs: show it, or answer second launches without a window. While the desktop's
    // settings watch a relay elsewhere, none runs here (relay.runner has no service yet).
    virtual void relayStarted(const RunningRelay &relay) = 0;
    // The event loop is done: what relayStarted() made goes before the relay it shows.
    virtual void relayEnded() = 0;
};

} // namespace switchyard
