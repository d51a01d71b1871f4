#pragma once

#include "config/config.h"
#include "engines/enginedriver.h"

namespace switchyard {

// A host whose engine is always up and managed elsewhere: the relay only forwards to it.
// Its (first) engine counts as running; nothing is ever started, stopped or switched.
class StaticDriver final : public EngineDriver
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StaticDriver)

public:
    explicit StaticDriver(const HostConfig &host, QObject *parent = nullptr);

    void startEngine(const QString &engine) override;
    void stopEngine(const QString &engine) override;
    void probe() override;
    QString runningEngine() const override { return m_engine; }
    bool canSwitch() const override { return false; }

private:
    EngineFailure staticHost() const;   // why another engine cannot start here

    QString m_host;
    QString m_engine;
};

} // namespace switchyard
