#include "demobox.h"

#include "demoboxpower.h"
#include "fakellamaserver.h"

#include <QJsonArray>
#include <QTimer>

namespace switchyard::fake {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

DemoBox::DemoBox(QString host, bool driven, std::chrono::milliseconds startDelay, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_driven(driven)
    , m_startDelay(startDelay)
{
}

void DemoBox::addEngine(const QString &name, FakeLlamaServer *server)
{
    server->setParent(this);
    m_engines.append({name, server, 0});
}

void DemoBox::setPower(DemoBoxPower *power)
{
    m_power = power;
    connect(power, &DemoBoxPower::wentToSleep, this, [this] {
        for (const Engine &e : std::as_const(m_engines))
            e.server->close();
        m_running.clear();
        send(u"gpus"_s, {{u"gpus"_s, QJsonArray()}});   // its agent sleeps with it: no stale GPU row
        reportPower();
    });
    connect(power, &DemoBoxPower::wokeUp, this, &DemoBox::reportPower);
    connect(power, &DemoBoxPower::wakePacketReceived, this, &DemoBox::reportPower);
}

void DemoBox::setGpuMemory(int usedMiB, int totalMiB)
{
    m_gpuUsedMiB = usedMiB;
    m_gpuTotalMiB = totalMiB;
}

bool DemoBox::listen(QString *error)
{
    for (Engine &e : m_engines) {
        if (!e.server->listen(QHostAddress::LocalHost, 0)) {
            *error = u"simulated host %1 cannot listen on loopback: %2"_s.arg(m_host, e.server->errorString());
            return false;
        }
        e.port = e.server->port();
    }
    for (qsizetype i = 1; i < m_engines.size(); ++i)
        m_engines.at(i).server->close();   // one engine runs on a box at a time
    if (!m_engines.isEmpty())
        m_running = m_engines.first().name;
    if (m_power && !m_power->listen()) {
        *error = u"simulated host %1 cannot listen on loopback UDP"_s.arg(m_host);
        return false;
    }
    return true;
}

QJsonObject DemoBox::describe() const
{
    QJsonArray engines;
    for (const Engine &e : m_engines) {
        const FakeOptions &options = e.server->options();
        QJsonObject engine{{u"name"_s, e.name},
                           {u"url"_s, u"http://127.0.0.1:%1"_s.arg(e.port)},
                           {u"models"_s, QJsonArray::fromStringList(options.models)}};
        // A single-model server's command line, as a real box's config gives it: the relay reads
        // its context size there before the engine has ever run.
        if (options.models.size() == 1) {
            const QString model = options.models.first();
            engine.insert(u"argv"_s, QJsonArray{u"llama-server"_s, u"--model"_s, model + u".gguf"_s, u"--ctx-size"_s,
                                                QString::number(options.modelContext.value(model, options.contextSize))});
        }
        engines.append(engine);
    }
    QJsonObject box{{u"host"_s, m_host}, {u"driven"_s, m_driven}, {u"engines"_s, engines}, {u"running"_s, m_running}};
    if (m_power) {
        box.insert(u"power"_s, QJsonObject{{u"port"_s, m_power->port()},
                                           {u"mac"_s, QString::fromLatin1(m_power->mac().toHex())},
                                           {u"suspend_word"_s, QString::fromLatin1(DemoBoxPower::SuspendWord)}});
    }
    return box;
}

const DemoBox::Engine *DemoBox::engine(const QString &name) const
{
    for (const Engine &e : m_engines) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

bool DemoBox::isAwake() const
{
    return !m_power || m_power->isAwake();
}

void DemoBox::send(const QString &kind, QJsonObject fields)
{
    fields.insert(u"host"_s, m_host);
    fields.insert(u"event"_s, kind);
    emit event(fields);
}

void DemoBox::startEngine(const QString &name)
{
    if (!isAwake()) {
        QTimer::singleShot(0ms, this, [this, name] {
            send(u"start_failed"_s, {{u"engine"_s, name}, {u"reason"_s, u"asleep"_s}});
        });
        return;
    }
    for (const Engine &e : std::as_const(m_engines)) {
        if (e.name != name && e.server->isListening())
            e.server->close();
    }
    m_running.clear();
    reportGpu();   // the old engine's memory is free while the new one starts
    QTimer::singleShot(m_startDelay, this, [this, name] {
        const Engine *e = engine(name);
        if (!e) {
            send(u"start_failed"_s, {{u"engine"_s, name}, {u"reason"_s, u"no_engine"_s}});
            return;
        }
        if (!isAwake()) {
            send(u"start_failed"_s, {{u"engine"_s, name}, {u"reason"_s, u"asleep"_s}});
            return;
        }
        if (!e->server->isListening() && !e->server->listen(QHostAddress::LocalHost, e->port)) {
            send(u"start_failed"_s, {{u"engine"_s, name}, {u"reason"_s, u"port_taken"_s}});
            return;
        }
        m_running = name;
        send(u"started"_s, {{u"engine"_s, name}});
        reportGpu();
    });
}

void DemoBox::stopEngine(const QString &name)
{
    if (const Engine *e = engine(name))
        e->server->close();
    if (m_running == name)
        m_running.clear();
    QTimer::singleShot(0ms, this, [this, name] {
        send(u"stopped"_s, {{u"engine"_s, name}});
        reportGpu();
    });
}

void DemoBox::probe()
{
    QTimer::singleShot(0ms, this, [this] {
        if (!isAwake()) {
            send(u"unreachable"_s, {{u"reason"_s, u"asleep"_s}});
            return;
        }
        reportGpu();
        send(u"status"_s, {{u"running"_s, m_running}});
    });
}

void DemoBox::reportGpu()
{
    if (!isAwake())
        return;   // its agent sleeps with it
    const bool running = !m_running.isEmpty();
    const QJsonObject gpu{{u"index"_s, 0},
                          {u"vendor"_s, u"nvidia"_s},
                          {u"memory_used_mib"_s, running ? m_gpuUsedMiB : 412},
                          {u"memory_total_mib"_s, m_gpuTotalMiB},
                          {u"utilization_percent"_s, running ? 31 : 0},
                          {u"temperature_c"_s, running ? 58 : 36}};
    send(u"gpus"_s, {{u"gpus"_s, QJsonArray{gpu}}});
}

void DemoBox::reportPower()
{
    send(u"power"_s, {{u"awake"_s, m_power->isAwake()},
                      {u"booting"_s, m_power->isBooting()},
                      {u"wake_packets"_s, m_power->wakePackets()}});
}

} // namespace switchyard::fake
