#pragma once

#include "app/catalogeventrecorder.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "demo/demofleet.h"
#include "store/historystore.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

// The build tree's switchyard-demo-fleet, set by tests/gui/CMakeLists.txt.
#ifndef SWITCHYARD_DEMO_FLEET_HELPER
#error "SWITCHYARD_DEMO_FLEET_HELPER names the switchyard-demo-fleet the test runs"
#endif

namespace switchyard::test {

// The demo as `switchyard --demo` runs it: the simulated boxes in their helper process
// (switchyard-demo-fleet), its config from the fleet's flags and engines, its drivers, the history
// recorded, ready for a window or models in front of it.
struct DemoRun
{
    std::unique_ptr<DemoFleet> fleet;
    SystemClock clock;
    QTemporaryDir dir;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayRunner> runner;
    std::unique_ptr<CatalogEventRecorder> recorder;
    Config config;

    bool start(DemoFleet::Timing timing, QString *error)
    {
        using namespace Qt::StringLiterals;
        fleet = std::make_unique<DemoFleet>(QStringLiteral(SWITCHYARD_DEMO_FLEET_HELPER), timing);
        if (!fleet->start(error))
            return false;
        const ConfigResult flags = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, fleet->upstreamFlags());
        if (!flags.ok()) {
            *error = flags.errors.value(0).toString();
            return false;
        }
        config = *flags.config;
        fleet->addEnginesTo(config);
        store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
        runner = std::make_unique<RelayRunner>(nullptr, store.get());
        DemoFleet *f = fleet.get();
        runner->setDriverFactory([f](const Config &c) { return f->drivers(c); });
        recorder = std::make_unique<CatalogEventRecorder>(store.get(), clock);
        QObject::connect(runner.get(), &RelayRunner::serviceChanged, recorder.get(), &CatalogEventRecorder::setService);
        return runner->start(config, error);
    }
    ~DemoRun()
    {
        runner.reset();   // its controllers and drivers go before the fleet they drive
        recorder.reset();
    }
};

} // namespace switchyard::test
