#include "demo/demofleet.h"

#include "config/config.h"
#include "demo/demoenginedriver.h"
#include "demo/demofleetprocess.h"

#include <QJsonArray>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QStringList helperArguments(const DemoFleet::Timing &timing)
{
    return {u"--boot-ms"_s, QString::number(timing.boot.count()), u"--engine-start-ms"_s,
            QString::number(timing.engineStart.count())};
}

} // namespace

DemoFleet::DemoFleet(const QString &helper, Timing timing, QObject *parent)
    : QObject(parent)
    , m_timing(timing)
    , m_process(new DemoFleetProcess(helper, helperArguments(timing), this))
{
    connect(m_process, &DemoFleetProcess::eventReceived, this, &DemoFleet::follow);
}

DemoFleet::~DemoFleet() = default;

bool DemoFleet::start(QString *error)
{
    QJsonObject description;
    if (!m_process->start(&description, error))
        return false;
    read(description);
    return true;
}

void DemoFleet::read(const QJsonObject &description)
{
    for (const QJsonValue &b : description.value(u"boxes"_s).toArray()) {
        const QJsonObject o = b.toObject();
        Box box;
        box.host = o.value(u"host"_s).toString();
        box.driven = o.value(u"driven"_s).toBool();
        for (const QJsonValue &e : o.value(u"engines"_s).toArray()) {
            const QJsonObject engine = e.toObject();
            QStringList models;
            for (const QJsonValue &m : engine.value(u"models"_s).toArray())
                models.append(m.toString());
            QStringList argv;
            for (const QJsonValue &a : engine.value(u"argv"_s).toArray())
                argv.append(a.toString());
            box.engines.append({engine.value(u"name"_s).toString(), QUrl(engine.value(u"url"_s).toString()), models, argv});
        }
        if (box.driven)
            m_running.insert(box.host, o.value(u"running"_s).toString());
        if (o.contains(u"power"_s)) {
            const QJsonObject power = o.value(u"power"_s).toObject();
            m_power.insert(box.host, Power{quint16(power.value(u"port"_s).toInt()),
                                           QByteArray::fromHex(power.value(u"mac"_s).toString().toLatin1()), true, 0});
        }
        m_boxes.append(box);
    }
}

void DemoFleet::follow(const QJsonObject &event)
{
    const QString host = event.value(u"host"_s).toString();
    const QString kind = event.value(u"event"_s).toString();
    if (kind == "started"_L1 || (kind == "status"_L1)) {
        m_running.insert(host, kind == "started"_L1 ? event.value(u"engine"_s).toString()
                                                    : event.value(u"running"_s).toString());
    } else if (kind == "stopped"_L1 && m_running.value(host) == event.value(u"engine"_s).toString()) {
        m_running.insert(host, QString());
    } else if (kind == "power"_L1 && m_power.contains(host)) {
        Power &power = m_power[host];
        power.awake = event.value(u"awake"_s).toBool();
        power.wakePackets = event.value(u"wake_packets"_s).toInt();
        if (!power.awake)
            m_running.insert(host, QString());
    }
}

const DemoFleet::Box *DemoFleet::box(const QString &host) const
{
    for (const Box &b : m_boxes) {
        if (b.host == host)
            return &b;
    }
    return nullptr;
}

void DemoFleet::addEnginesTo(Config &config) const
{
    for (HostConfig &host : config.hosts) {
        const Box *b = box(host.name);
        if (!b || !b->driven || host.engines.size() != 1 || b->engines.isEmpty())
            continue;
        host.driver = Driver;   // what the host card shows: simulated engines
        host.engines.first().name = b->engines.first().name;
        for (qsizetype i = 1; i < b->engines.size(); ++i) {
            EngineConfig engine;
            engine.name = b->engines.at(i).name;
            engine.url = b->engines.at(i).url;
            engine.models = b->engines.at(i).models;
            engine.argv = b->engines.at(i).argv;
            host.engines.append(engine);
        }
        if (!m_power.contains(host.name))
            continue;
        const Power power = m_power.value(host.name);
        // Listed: a reload while the box sleeps still knows what it serves.
        host.engines.first().models = b->engines.first().models;
        host.idleStopAfter = m_timing.idleStop;
        // Run by the relay after the idle stop, as `ssh box systemctl suspend` would be: it
        // tells the simulated box, on loopback, to sleep.
        host.sleepCommand = {u"bash"_s, u"-c"_s, u"echo suspend >/dev/udp/127.0.0.1/%1"_s.arg(power.port)};
        // The magic packet goes to 127.0.0.1 only, never to a LAN's broadcast address.
        host.wake.mac = power.mac;
        host.wake.broadcast = QHostAddress(QHostAddress::LocalHost);
        host.wake.port = power.port;
        host.wake.timeout = std::chrono::seconds(60);
    }
    const QString alias(ReplicatedAlias);
    const QStringList replicas{u"a9-"_s + alias, QString(SleeperHost) + u'-' + alias};
    const bool known = std::any_of(config.aliases.cbegin(), config.aliases.cend(),
                                   [&alias](const AliasRule &rule) { return rule.pattern == alias; });
    if (!known)
        config.aliases.append(AliasRule{alias, replicas.first(), replicas});
}

bool DemoFleet::isDemo(const Config &config)
{
    return std::any_of(config.hosts.cbegin(), config.hosts.cend(), [](const HostConfig &h) { return h.driver == Driver; });
}

RelayService::DriverFactory DemoFleet::drivers(const Config &config) const
{
    const RelayService::DriverFactory standard = RelayService::standardDrivers(config);
    return [this, standard](const HostConfig &host) -> std::unique_ptr<EngineDriver> {
        const Box *b = box(host.name);
        if (b && b->driven && host.driver == Driver)
            return std::make_unique<DemoEngineDriver>(m_process, host.name, m_running.value(host.name));
        return standard(host);
    };
}

QStringList DemoFleet::upstreamFlags() const
{
    QStringList flags;
    for (const Box &b : m_boxes) {
        if (!b.engines.isEmpty())
            flags.append(b.host + u'=' + b.engines.first().url.toString());
    }
    return flags;
}

} // namespace switchyard
