#include "demo/demofleet.h"

#include "config/config.h"
#include "demo/demoboxpower.h"
#include "demo/demoenginedriver.h"
#include "fakellamaserver.h"

#include <QCoreApplication>

#include <algorithm>

namespace switchyard::fake {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// A locally administered address ("SY" 30 60): no real card has it.
const QByteArray SleeperMac = QByteArray::fromHex("025359306001");

} // namespace

DemoFleet::DemoFleet(QObject *parent)
    : DemoFleet(Timing{}, parent)
{
}

DemoFleet::DemoFleet(Timing timing, QObject *parent)
    : QObject(parent)
    , m_timing(timing)
{
    FakeOptions big;
    big.models = {u"flint-40b"_s, u"flint-40b-256k"_s};
    big.modelContext = {{u"flint-40b"_s, 131072}, {u"flint-40b-256k"_s, 262144}};
    big.loadDelay = 2500ms;
    big.tokensPerSecond = 45;
    big.maxModels = 1;
    big.loaded = {u"flint-40b"_s};
    big.maxReplyTokens = 200;   // clients ask for up to 32000; a demo answer should end in seconds
    m_boxes.append({u"3090"_s, new FakeLlamaServer(big, this)});

    // A fork build on the same box: faster on the model it was made for, up with it loaded.
    FakeOptions fork;
    fork.models = {u"qwen38-27b-128k"_s};
    fork.modelContext = {{u"qwen38-27b-128k"_s, 131072}};
    fork.loaded = fork.models;
    fork.tokensPerSecond = 60;
    fork.maxReplyTokens = 200;
    m_fork = new FakeLlamaServer(fork, this);

    FakeOptions small;
    small.models = {u"laguna-xs-q8"_s, u"strata-8b"_s};
    small.modelContext = {{u"laguna-xs-q8"_s, 32768}, {u"strata-8b"_s, 65536}};
    small.loadDelay = 4000ms;
    small.tokensPerSecond = 25;
    small.maxModels = 2;
    small.maxReplyTokens = 200;
    m_boxes.append({u"a9"_s, new FakeLlamaServer(small, this)});

    // A 12 GiB box that sleeps when idle; strata-8b here too, so it is replicated with the a9's.
    FakeOptions sleeper;
    sleeper.models = {u"ember-14b"_s, u"strata-8b"_s};
    sleeper.modelContext = {{u"ember-14b"_s, 32768}, {u"strata-8b"_s, 65536}};
    sleeper.loaded = sleeper.models;
    sleeper.loadDelay = 3000ms;
    sleeper.tokensPerSecond = 35;
    sleeper.maxModels = 2;
    sleeper.maxReplyTokens = 200;
    m_boxes.append({QString(SleeperHost), new FakeLlamaServer(sleeper, this)});
    m_sleeperPower = new DemoBoxPower(SleeperMac, m_timing.boot, this);
}

FakeLlamaServer *DemoFleet::box(QLatin1StringView name) const
{
    for (const Box &b : m_boxes) {
        if (b.name == name)
            return b.server;
    }
    return nullptr;
}

DemoFleet::~DemoFleet() = default;

bool DemoFleet::start(QString *error)
{
    for (const Box &box : std::as_const(m_boxes)) {
        if (!box.server->listen(QHostAddress::LocalHost, 0)) {
            *error = QCoreApplication::translate("DemoFleet", "simulated host %1 cannot listen on loopback").arg(box.name);
            return false;
        }
    }
    // Reserve the fork's port, then close it: one engine runs on a host at a time.
    if (!m_fork->listen(QHostAddress::LocalHost, 0)) {
        *error = QCoreApplication::translate("DemoFleet", "simulated host %1 cannot listen on loopback").arg(u"3090"_s);
        return false;
    }
    m_forkPort = m_fork->port();
    m_mainlinePort = m_boxes.first().server->port();
    m_fork->close();
    m_sleeperPort = box(SleeperHost)->port();
    if (!m_sleeperPower->listen()) {
        *error = QCoreApplication::translate("DemoFleet", "simulated host %1 cannot listen on loopback").arg(SleeperHost);
        return false;
    }
    return true;
}

void DemoFleet::addEnginesTo(Config &config) const
{
    for (HostConfig &host : config.hosts) {
        if (host.name == SleeperHost && host.engines.size() == 1) {
            host.driver = u"demo"_s;
            host.engines.first().name = u"main"_s;
            // Listed: a reload while the box sleeps still knows what it serves.
            host.engines.first().models = {u"ember-14b"_s, u"strata-8b"_s};
            host.idleStopAfter = m_timing.idleStop;
            // Run by the relay after the idle stop, as `ssh box systemctl suspend` would be: it
            // tells the simulated box, on loopback, to sleep.
            host.sleepCommand = {u"bash"_s, u"-c"_s,
                                 u"echo suspend >/dev/udp/127.0.0.1/%1"_s.arg(m_sleeperPower->port())};
            // The magic packet goes to 127.0.0.1 only, never to a LAN's broadcast address.
            host.wake.mac = m_sleeperPower->mac();
            host.wake.broadcast = QHostAddress(QHostAddress::LocalHost);
            host.wake.port = m_sleeperPower->port();
            host.wake.timeout = std::chrono::seconds(60);
            continue;
        }
        if (host.name != "3090"_L1 || host.engines.size() != 1)
            continue;
        host.driver = u"demo"_s;   // what the host card shows: simulated engines
        host.engines.first().name = u"mainline"_s;
        EngineConfig fork;
        fork.name = u"fork"_s;
        fork.url = QUrl(u"http://127.0.0.1:%1"_s.arg(m_forkPort));
        fork.models = {u"qwen38-27b-128k"_s};
        host.engines.append(fork);
    }
    const QString alias(ReplicatedAlias);
    const QStringList replicas{u"a9-"_s + alias, QString(SleeperHost) + u'-' + alias};
    const bool known = std::any_of(config.aliases.cbegin(), config.aliases.cend(),
                                   [&alias](const AliasRule &rule) { return rule.pattern == alias; });
    if (!known)
        config.aliases.append(AliasRule{alias, replicas.first(), replicas});
}

RelayService::DriverFactory DemoFleet::drivers(const Config &config) const
{
    const RelayService::DriverFactory standard = RelayService::standardDrivers(config);
    FakeLlamaServer *mainline = m_boxes.first().server;
    const QHash<QString, FakeLlamaServer *> engines{{u"mainline"_s, mainline}, {u"fork"_s, m_fork}};
    const QHash<QString, quint16> ports{{u"mainline"_s, m_mainlinePort}, {u"fork"_s, m_forkPort}};
    // After a config reload, whichever engine listens is the one running.
    const QString running = m_fork->isListening() ? u"fork"_s : u"mainline"_s;
    FakeLlamaServer *sleeper = box(SleeperHost);
    const QString sleeperRunning = sleeper->isListening() ? u"main"_s : QString();
    const Timing timing = m_timing;
    DemoBoxPower *power = m_sleeperPower;
    const quint16 sleeperPort = m_sleeperPort;
    return [=](const HostConfig &host) -> std::unique_ptr<EngineDriver> {
        if (host.name == "3090"_L1 && host.engines.size() == 2)
            return std::make_unique<DemoEngineDriver>(engines, ports, running, timing.engineStart);
        if (host.name == SleeperHost && host.driver == "demo"_L1) {
            auto driver = std::make_unique<DemoEngineDriver>(QHash<QString, FakeLlamaServer *>{{u"main"_s, sleeper}},
                                                             QHash<QString, quint16>{{u"main"_s, sleeperPort}},
                                                             sleeperRunning, timing.engineStart);
            driver->setPower(power);
            driver->setGpuMemory(9874, 12288);
            return driver;
        }
        return standard(host);
    };
}

QStringList DemoFleet::upstreamFlags() const
{
    QStringList flags;
    for (const Box &box : m_boxes)
        flags.append(box.name + u'=' + box.server->baseUrl().toString());
    return flags;
}

} // namespace switchyard::fake
