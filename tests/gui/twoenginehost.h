#pragma once

#include "testenginedriver.h"

#include "app/catalogeventrecorder.h"
#include "app/relayrunner.h"
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "hosts/hostcontroller.h"
#include "store/historystore.h"

#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace switchyard::test {

// One host, h1, with two engines the relay starts and stops itself (the hosts tests' driver,
// testenginedriver.h): a (alpha) and b (beta) on fake routers, one of them running and the other
// not listening. A history store in a temporary folder and the desktop's RelayRunner in front;
// with recordEvents the catalog's events go into the store as the desktop records them. What the
// window tests that switch, lease or reload a host run on. Set the public fields, then start().
struct TwoEngineHost
{
    fake::FakeOptions optionsA = engineOptions(QStringLiteral("alpha"));
    fake::FakeOptions optionsB = engineOptions(QStringLiteral("beta"));
    QString running = QStringLiteral("a");
    std::optional<SchedulingConfig::Policy> policy;       // the config's default when unset
    bool recordEvents = false;
    std::function<void(Config &)> adjustConfig;           // before the relay starts
    std::function<void(TestEngineDriver &)> adjustDriver; // each driver the relay makes
    std::chrono::milliseconds wait{10000};

    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<fake::FakeLlamaServer> engineA;
    std::unique_ptr<fake::FakeLlamaServer> engineB;
    Config config;   // as started
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayRunner> runner;
    std::unique_ptr<CatalogEventRecorder> recorder;

    static fake::FakeOptions engineOptions(const QString &model)
    {
        fake::FakeOptions o;
        o.models = {model};
        return o;
    }

    // Empty when h1 serves with the running engine, else what went wrong.
    QString start()
    {
        const bool aRuns = running == QLatin1String("a");
        (aRuns ? optionsA : optionsB).loaded = (aRuns ? optionsA : optionsB).models;
        engineA = std::make_unique<fake::FakeLlamaServer>(optionsA);
        engineB = std::make_unique<fake::FakeLlamaServer>(optionsB);
        if (!engineA->listen() || !engineB->listen())
            return QStringLiteral("no loopback port");
        const QHash<QString, quint16> ports{{QStringLiteral("a"), engineA->port()}, {QStringLiteral("b"), engineB->port()}};
        (aRuns ? engineB : engineA)->close();   // one engine runs on the host
        const auto url = [&ports](const QString &engine) {
            return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(ports.value(engine)));
        };
        ConfigResult result = ConfigLoader::fromFlags(QStringLiteral("127.0.0.1:0"),
                                                      {QStringLiteral("h1=") + url(QStringLiteral("a")).toString()});
        if (!result.ok())
            return QStringLiteral("config from flags refused");
        config = *result.config;
        config.hosts.first().engines.first().name = QStringLiteral("a");
        EngineConfig b;
        b.name = QStringLiteral("b");
        b.url = url(QStringLiteral("b"));
        b.models = optionsB.models;
        config.hosts.first().engines.append(b);
        if (policy)
            config.hosts.first().scheduling.policy = *policy;
        if (adjustConfig)
            adjustConfig(config);
        const QHash<QString, fake::FakeLlamaServer *> engines{{QStringLiteral("a"), engineA.get()},
                                                              {QStringLiteral("b"), engineB.get()}};
        store = std::make_unique<HistoryStore>(dir.filePath(QStringLiteral("h.sqlite")), clock);
        runner = std::make_unique<RelayRunner>(nullptr, store.get());
        runner->setDriverFactory([engines, ports, first = running, tweak = adjustDriver](const Config &) -> RelayService::DriverFactory {
            return [engines, ports, first, tweak](const HostConfig &) {
                auto driver = std::make_unique<TestEngineDriver>(engines, ports, first);
                if (tweak)
                    tweak(*driver);
                return driver;
            };
        });
        if (recordEvents) {
            recorder = std::make_unique<CatalogEventRecorder>(store.get(), clock);
            QObject::connect(runner.get(), &RelayRunner::serviceChanged, recorder.get(), &CatalogEventRecorder::setService);
        }
        QString error;
        if (!runner->start(config, &error))
            return error;
        const bool serving = QTest::qWaitFor([this] {
            return controller()->state() == HostStateMachine::State::Serving
                && runner->service()->catalog()->host(QStringLiteral("h1"))->reachable;
        }, int(wait.count()));
        return serving ? QString() : QStringLiteral("h1 never served");
    }

    HostController *controller() const { return runner->service()->hostController(QStringLiteral("h1")); }

    bool takeLease(const QString &owner)
    {
        bool granted = false;
        controller()->takeLease(owner, std::chrono::minutes(10),
                                [&granted](const std::optional<HostRefusal> &refused) { granted = !refused; });
        return QTest::qWaitFor([&granted] { return granted; }, int(wait.count()));
    }
};

} // namespace switchyard::test
