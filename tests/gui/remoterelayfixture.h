#pragma once

// The relay "elsewhere" for the remote-watching tests: two fake routers (r1, r2), a relay with
// an admin token in front of them and a history store of its own, all on loopback.
#include "app/relayservice.h"
#include "common/clock.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "guifleet.h"
#include "store/historystore.h"

#include <QTemporaryDir>

#include <functional>
#include <memory>

namespace switchyard::test {

inline const QString RemoteToken = QStringLiteral("watch-t0ken-for-tests");

struct RemoteRelay
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<fake::FakeLlamaServer> r1;
    std::unique_ptr<fake::FakeLlamaServer> r2;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayService> relay;
    Config config;   // as started, tweak applied

    // tweak: changes to the relay's config before it starts (client keys, ...).
    bool start(fake::FakeOptions o2 = GuiFleet::defaultH2(), const std::function<void(Config &)> &tweak = {})
    {
        r1 = std::make_unique<fake::FakeLlamaServer>(GuiFleet::defaultH1());
        r2 = std::make_unique<fake::FakeLlamaServer>(o2);
        if (!dir.isValid() || !r1->listen() || !r2->listen())
            return false;
        ConfigResult result = ConfigLoader::fromFlags(QStringLiteral("127.0.0.1:0"),
                                                      {QStringLiteral("r1=") + r1->baseUrl().toString(),
                                                       QStringLiteral("r2=") + r2->baseUrl().toString()});
        if (!result.ok())
            return false;
        config = *result.config;
        config.access.adminToken = RemoteToken;
        if (tweak)
            tweak(config);
        store = std::make_unique<HistoryStore>(dir.filePath(QStringLiteral("remote.sqlite")), clock);
        return store->isOpen() && startRelay();
    }

    // The relay stopped and started again with the same config (give it a fixed listenPort in
    // start()'s tweak to find it on the same port), on `history` when given (a new database),
    // else on the one it had.
    bool restart(const QString &history = {})
    {
        relay.reset();
        if (!history.isEmpty()) {
            store = std::make_unique<HistoryStore>(dir.filePath(history), clock);
            if (!store->isOpen())
                return false;
        }
        return startRelay();
    }

private:
    bool startRelay()
    {
        relay = std::make_unique<RelayService>(config, RelayService::standardDrivers(config));
        relay->setHistory(store.get());
        QString error;
        return relay->start(&error);
    }
};

} // namespace switchyard::test
