#pragma once

// Host h1 behind a real RelayService, with two engines that are in-process fake routers driven
// by TestEngineDriver: "a" (a router serving alpha, running first) and "b" (serving beta, with
// a "models" list: not a router).
#include "testenginedriver.h"

#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "config/configloader.h"
#include "hosts/hostcontroller.h"
#include "store/historyevent.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <functional>
#include <memory>

namespace switchyard::test {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

// A chat completion for model: one user turn, at most maxTokens, streamed or not.
inline QByteArray chatBody(const QByteArray &model, int maxTokens, bool stream)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)"
        + QByteArray::number(maxTokens) + (stream ? R"(,"stream":true})" : "}");
}

struct SwitchingFixture
{
    std::unique_ptr<fake::FakeLlamaServer> engineA;
    std::unique_ptr<fake::FakeLlamaServer> engineB;
    std::unique_ptr<RelayService> relay;
    TestEngineDriver *driver = nullptr;
    QList<HistoryEvent> events;
    QList<qint64> eventTimesMs;
    QElapsedTimer clock;

    // Runs on the two engines' options before they start (speeds, delays).
    std::function<void(fake::FakeOptions &a, fake::FakeOptions &b)> tune;
    // h1's scheduling: strict arrival order unless a test says otherwise. The tests written for it
    // assert when a switch begins (at once when the running requests are done); the batch
    // policy's own tests set it.
    SchedulingConfig scheduling = arrivalOrder();
    // The engine running when the relay starts ("a" or "b"), as a restarted relay finds it.
    QString startOn = u"a"_s;

    static SchedulingConfig arrivalOrder()
    {
        SchedulingConfig s;
        s.policy = SchedulingConfig::Policy::Arrival;
        return s;
    }
    // Runs on the relay's config before the relay starts (prompt caches, ...).
    std::function<void(Config &config)> configure;

    bool start(const std::function<void(TestEngineDriver &)> &adjust = {})
    {
        clock.start();
        fake::FakeOptions a;
        a.models = {u"alpha"_s};
        a.loaded = {u"alpha"_s};
        a.tokensPerSecond = 40;
        fake::FakeOptions b;
        b.models = {u"beta"_s};
        b.loadDelay = 600ms;
        b.tokensPerSecond = 200;
        if (tune)
            tune(a, b);
        engineA = std::make_unique<fake::FakeLlamaServer>(a);
        engineB = std::make_unique<fake::FakeLlamaServer>(b);
        if (!engineA->listen() || !engineB->listen())
            return false;
        const quint16 portA = engineA->port();
        const quint16 portB = engineB->port();
        (startOn == u"b" ? engineA : engineB)->close();   // only one engine runs on a host

        ConfigResult result = ConfigLoader::fromFlags(u"127.0.0.1:0"_s, {u"h1=http://127.0.0.1:%1"_s.arg(portA)});
        if (!result.ok())
            return false;
        Config config = *result.config;
        HostConfig &host = config.hosts.first();
        host.scheduling = scheduling;
        host.engines.first().name = u"a"_s;
        EngineConfig eb;
        eb.name = u"b"_s;
        eb.url = QUrl(u"http://127.0.0.1:%1"_s.arg(portB));
        eb.models = {u"beta"_s};
        host.engines.append(eb);
        if (configure)
            configure(config);
        QHash<QString, fake::FakeLlamaServer *> engines{{u"a"_s, engineA.get()}, {u"b"_s, engineB.get()}};
        QHash<QString, quint16> ports{{u"a"_s, portA}, {u"b"_s, portB}};
        relay = std::make_unique<RelayService>(config, [&, engines, ports](const HostConfig &) {
            auto d = std::make_unique<TestEngineDriver>(engines, ports, startOn);
            driver = d.get();
            if (adjust)
                adjust(*d);
            return d;
        });
        QObject::connect(relay->hostController(u"h1"_s), &HostController::historyEvent, relay.get(),
                         [this](const HistoryEvent &e) { events.append(e); eventTimesMs.append(clock.elapsed()); });
        QString error;
        if (!relay->start(&error))
            return false;
        return QTest::qWaitFor([this] {
            return relay->catalog()->host(u"h1"_s)->reachable
                && relay->hostController(u"h1"_s)->state() == HostStateMachine::State::Serving;
        }, 5000);
    }

    quint16 port() const { return relay->endpoint().port(); }

    QString statusOf(const QByteArray &modelsJson, const QString &alias) const
    {
        const QJsonArray data = QJsonDocument::fromJson(modelsJson).object().value("data"_L1).toArray();
        for (const QJsonValue &v : data) {
            if (v.toObject().value("id"_L1).toString() == alias)
                return v.toObject().value("status"_L1).toObject().value("value"_L1).toString();
        }
        return u"absent"_s;
    }
};


} // namespace switchyard::test
