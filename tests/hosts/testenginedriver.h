#pragma once

#include "engines/enginedriver.h"
#include "fakellamaserver.h"

#include <QHash>
#include <QTimer>

#include <chrono>

namespace switchyard::test {

// A driver whose engines are in-process fake routers: starting one closes the others and makes it
// listen on its port again after a start delay; an engine named in failing never comes up.
class TestEngineDriver final : public EngineDriver
{
public:
    TestEngineDriver(QHash<QString, fake::FakeLlamaServer *> engines, QHash<QString, quint16> ports, QString running)
        : m_engines(std::move(engines))
        , m_ports(std::move(ports))
        , m_running(std::move(running))
    {
    }

    std::chrono::milliseconds startDelay{300};
    QStringList failing;
    int starts = 0;

    void startEngine(const QString &engine) override
    {
        ++starts;
        QTimer::singleShot(startDelay, this, [this, engine] {
            for (auto it = m_engines.begin(); it != m_engines.end(); ++it) {
                if (it.key() != engine && it.value()->isListening())
                    it.value()->close();
            }
            m_running.clear();
            if (failing.contains(engine)) {
                emit engineStartFailed(engine, QStringLiteral("exited with code 1: no such model file"));
                return;
            }
            fake::FakeLlamaServer *server = m_engines.value(engine);
            if (!server->isListening())
                server->listen(QHostAddress::LocalHost, m_ports.value(engine));
            m_running = engine;
            emit engineStarted(engine);
        });
    }
    void stopEngine(const QString &engine) override
    {
        QTimer::singleShot(std::chrono::milliseconds(50), this, [this, engine] {
            m_engines.value(engine)->close();
            m_running.clear();
            emit engineStopped(engine);
        });
    }
    void probe() override
    {
        QTimer::singleShot(0, this, [this] { emit statusKnown(m_running); });
    }
    // The running engine dies (its slots with it), as a crash the relay did not ask for.
    void crash()
    {
        const QString engine = std::exchange(m_running, QString());
        m_engines.value(engine)->close();
        emit engineStopped(engine);
    }
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }
    // As an agent that arbitrates would say: its box is told through boxSeen.
    bool shared = false;
    bool sharedBox() const override { return shared; }

private:
    QHash<QString, fake::FakeLlamaServer *> m_engines;
    QHash<QString, quint16> m_ports;
    QString m_running;
};

} // namespace switchyard::test
