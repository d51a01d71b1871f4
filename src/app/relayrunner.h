#pragma once

#include "app/relayservice.h"
#include "config/config.h"
#include "journal/requestrecord.h"
#include "store/historyevent.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>

namespace switchyard {

class Clock;
class ConsoleJournal;
class HistoryStore;

// Runs the relay for the desktop, and swaps it for a new one when the config changes, without
// cutting a stream: the old service stops accepting, the new one takes the port, and the old
// one lives on (and records into the same store) until its last response has gone out.
// RelayService takes its Config at construction, so a reload is a new service; the caller
// validates the new config first, so nothing is ever applied half-way.
//
// It also tells the history when a relay runs here: RelayStarted when one starts (not at a
// reload, which is the same run), RelayStopped when it retires or the runner ends cleanly, so
// the timeline can show the time between as not observed.
class RelayRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RelayRunner)

public:
    // journal and history may be null; both, and the clock, must outlive the runner.
    RelayRunner(ConsoleJournal *journal, HistoryStore *history, const Clock *clock = nullptr,
                QObject *parent = nullptr);
    ~RelayRunner() override;

    static constexpr std::chrono::milliseconds DefaultShutdownGrace{std::chrono::seconds(30)};

    // Makes each service's engine drivers from its config: RelayService::standardDrivers for
    // the real thing (static, local, agent, command, as the config names them). Without one,
    // hosts are served as they are and never switched.
    using DriverFactoryMaker = std::function<RelayService::DriverFactory(const Config &config)>;
    void setDriverFactory(DriverFactoryMaker maker) { m_drivers = std::move(maker); }
    // Where each engine's model list is kept across restarts (engines.json in the data folder).
    void setEngineMemoryFile(const QString &path) { m_engineMemoryFile = path; }

    bool start(const Config &config, QString *error);
    // Starts a service for config in place of the running one. On failure the old one goes on
    // serving (it listens again) and *error says why.
    bool replace(const Config &config, QString *error);
    // Runs no relay any more: the running service stops accepting and goes once its responses
    // are out (as replace() retires the old one; its engines stop with it); serviceChanged(null).
    // For settings that now watch a relay elsewhere. start() or replace() runs one again.
    void retire();
    void stopAccepting();
    // Stop accepting; let running requests finish for up to `grace` (on every service, the
    // retiring ones too); then emit stopped().
    void shutdown(std::chrono::milliseconds grace = DefaultShutdownGrace);

    RelayService *service() const { return m_service; }
    // Old services still finishing their responses after a replace().
    int retiringCount() const { return int(m_retiring.size()); }
    int requestsInFlight() const;

Q_SIGNALS:
    void serviceChanged(switchyard::RelayService *service);
    // From every service, the current one and the retiring ones alike.
    void requestStarted(const switchyard::RequestRecord &record);
    void requestFinished(const switchyard::RequestRecord &record);
    void stopped();

private:
    RelayService *makeService(const Config &config);
    void recordRun(HistoryEvent::Kind kind);
    void reapRetired();

    ConsoleJournal *m_journal;
    HistoryStore *m_history;
    const Clock *m_clock;
    DriverFactoryMaker m_drivers;
    QString m_engineMemoryFile;
    int m_stopping = 0;
    RelayService *m_service = nullptr;
    QList<QPointer<RelayService>> m_retiring;
    QTimer m_reaper;
};

} // namespace switchyard
