#pragma once

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "catalog/modelevents.h"
#include "config/configloader.h"
#include "fakellamaserver.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace switchyard::test {

// A fake llama.cpp router on loopback and a relay in front of it, as host "h1".
struct RelayFixture
{
    std::unique_ptr<fake::FakeLlamaServer> fake;
    std::unique_ptr<RelayService> relay;

    bool start(fake::FakeOptions options, const std::function<void(Config &)> &adjust = {})
    {
        fake = std::make_unique<fake::FakeLlamaServer>(options);
        if (!fake->listen())
            return false;
        ConfigResult result = ConfigLoader::fromFlags(QStringLiteral("127.0.0.1:0"),
                                                      {QStringLiteral("h1=") + fake->baseUrl().toString()});
        if (!result.ok())
            return false;
        Config config = *result.config;
        if (adjust)
            adjust(config);
        relay = std::make_unique<RelayService>(config);
        QString error;
        if (!relay->start(&error))
            return false;
        // Settled: the list read, the event feed connected, and the read that follows its
        // connection applied. A test that then stops the fake meets the relay in a known state.
        const QString h1 = QStringLiteral("h1");
        return QTest::qWaitFor([this, h1] {
            return relay->catalog()->host(h1)->reachable && relay->modelEvents()->isConnected(h1)
                && !relay->catalog()->isRefreshing(h1);
        }, 5000);
    }

    quint16 port() const { return relay->endpoint().port(); }

    // What the fake received on one path, in arrival order.
    QList<fake::ReceivedRequest> receivedOn(QByteArrayView path) const
    {
        QList<fake::ReceivedRequest> out;
        for (const fake::ReceivedRequest &r : fake->received()) {
            if (r.path == path)
                out.append(r);
        }
        return out;
    }
};

} // namespace switchyard::test
