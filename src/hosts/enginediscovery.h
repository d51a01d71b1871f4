#pragma once

#include "hosts/hostrefusal.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

namespace switchyard {

class Catalog;
class HostController;

// Finds out what a host's router engines serve when the relay has never seen them run (a fresh
// install: router engines have no "models" list in the config). Each such engine is switched to
// through the host's controller, so it queues and drains like any switch, until the catalog has
// read its list (which the catalog then remembers); at the end the engine that ran before runs
// again. When none ran, the last one asked stays up: a router without a loaded model holds no
// GPU memory, and the first request then needs no start.
class EngineDiscovery final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineDiscovery)

public:
    EngineDiscovery(HostController *host, Catalog *catalog, QObject *parent = nullptr);

    // Engines of the host that are routers and whose models are not known.
    QStringList unknownEngines() const;
    // Once the controller knows what runs; does nothing when every engine is known.
    void start(const QString &runningEngine);
    bool isRunning() const { return m_running; }

    static constexpr std::chrono::seconds ListTimeout{15};

Q_SIGNALS:
    void finished();

private:
    void next();
    void switchedTo(const QString &engine, const std::optional<HostRefusal> &refused);
    void listed(const QString &host);
    void done();

    QPointer<HostController> m_host;
    Catalog *m_catalog;
    QStringList m_queue;
    QString m_asking;         // the engine whose list is awaited
    QString m_runBefore;
    bool m_running = false;
    QTimer m_listTimeout;
};

} // namespace switchyard
