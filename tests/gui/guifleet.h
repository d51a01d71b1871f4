#pragma once

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "config/configloader.h"
#include "fakellamaserver.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "store/historystore.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace switchyard::test {

// A clock the test sets.
class FixedClock final : public Clock
{
public:
    explicit FixedClock(QDateTime now = QDateTime::currentDateTime()) : m_now(std::move(now)) {}
    QDateTime now() const override { return m_now; }
    void set(const QDateTime &now) { m_now = now; }
    void advance(std::chrono::milliseconds d) { m_now = m_now.addMSecs(d.count()); }

private:
    QDateTime m_now;
};

// Two fake llama.cpp routers (h1, h2) on loopback, a history store in a temporary folder, and
// the desktop's RelayRunner in front of them: what the window runs on.
struct GuiFleet
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<fake::FakeLlamaServer> h1;
    std::unique_ptr<fake::FakeLlamaServer> h2;
    std::unique_ptr<HistoryStore> store;
    std::unique_ptr<RelayRunner> runner;

    static fake::FakeOptions defaultH1()
    {
        fake::FakeOptions o;
        o.models = {QStringLiteral("m1"), QStringLiteral("m2")};
        o.loaded = {QStringLiteral("m1")};
        o.modelContext = {{QStringLiteral("m1"), 32768}};
        o.loadDelay = std::chrono::milliseconds(100);
        return o;
    }
    static fake::FakeOptions defaultH2()
    {
        fake::FakeOptions o;
        o.models = {QStringLiteral("m3")};
        o.loadDelay = std::chrono::milliseconds(100);
        return o;
    }

    Config config() const
    {
        ConfigResult result = ConfigLoader::fromFlags(QStringLiteral("127.0.0.1:0"),
                                                      {QStringLiteral("h1=") + h1->baseUrl().toString(),
                                                       QStringLiteral("h2=") + h2->baseUrl().toString()});
        return *result.config;
    }

    bool start(fake::FakeOptions o1 = defaultH1(), fake::FakeOptions o2 = defaultH2())
    {
        h1 = std::make_unique<fake::FakeLlamaServer>(o1);
        h2 = std::make_unique<fake::FakeLlamaServer>(o2);
        if (!dir.isValid() || !h1->listen() || !h2->listen())
            return false;
        store = std::make_unique<HistoryStore>(dir.filePath(QStringLiteral("history.sqlite")), clock);
        if (!store->isOpen())
            return false;
        runner = std::make_unique<RelayRunner>(nullptr, store.get());
        QString error;
        if (!runner->start(config(), &error))
            return false;
        return QTest::qWaitFor([this] {
            const Catalog *c = runner->service()->catalog();
            return c->host(QStringLiteral("h1"))->reachable && c->host(QStringLiteral("h2"))->reachable;
        }, 5000);
    }

    RelayService *service() const { return runner->service(); }
    QUrl endpoint() const { return runner->service()->endpoint(); }
};

} // namespace switchyard::test
