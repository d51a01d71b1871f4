#pragma once

#include "hosts/hoststatemachine.h"
#include "store/historyevent.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>

namespace switchyard {

class Catalog;
class EngineDriver;

// One host: carries out its HostStateMachine's decisions through the host's EngineDriver, tells
// the catalog which engine runs, and reports switches and leases as history events (which are
// also the journal's event lines).
class HostController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostController)

public:
    using RequestId = HostStateMachine::RequestId;
    using AdmitFn = std::function<void()>;
    using RefuseFn = std::function<void(int status, const QString &message)>;
    using GrantedFn = std::function<void()>;
    using SwitchDoneFn = std::function<void(int status, const QString &reason)>;

    HostController(QString host, std::unique_ptr<EngineDriver> driver, Catalog *catalog, QObject *parent = nullptr);
    ~HostController() override;

    void start();   // probe what runs

    // A request for `engine`: admit() once it may go upstream, or refuse() with 423/424.
    // Call finished() when it is over, whatever happened (also for a client that left).
    RequestId request(const QString &engine, const QString &alias, AdmitFn admit, RefuseFn refuse);
    void finished(RequestId id);

    // Switch on command (the window, the admin API): queued like a request for `engine` on behalf
    // of `requestedBy`, so running streams drain first and arrival order holds. done(true) once
    // the engine is up (at once if it already runs): done(200, {}); if it cannot be, done() with the
    // status a client would get (400 no such engine, 409 a static host, 423 leased, 424 failed).
    void switchEngine(const QString &engine, const QString &requestedBy, SwitchDoneFn done);

    // Granted once running requests have drained and the engine is stopped.
    void takeLease(const QString &owner, std::chrono::seconds ttl, GrantedFn granted);
    void releaseLease();

    QString host() const { return m_host; }
    bool canSwitch() const;
    QStringList engines() const;   // in config order
    HostStateMachine::State state() const { return m_machine.state(); }
    QString stateName() const { return HostStateMachine::stateName(m_machine.state()); }
    QString currentEngine() const { return m_machine.currentEngine(); }
    QString targetEngine() const { return m_machine.targetEngine(); }
    QString leaseOwner() const { return m_machine.leaseOwner(); }
    QDateTime leaseUntil() const { return m_machine.leaseUntil(); }
    QString lastError() const { return m_machine.lastError(); }
    int runningRequests() const { return m_machine.runningRequests(); }
    int waitingRequests() const { return m_machine.waitingRequests(); }
    QString waitingFor() const { return m_machine.waitingFor(); }

Q_SIGNALS:
    void stateChanged();
    void historyEvent(const switchyard::HistoryEvent &event);

private:
    void carryOut(const HostStateMachine::Actions &actions);
    void record(HistoryEvent::Kind kind, const QString &engine, const QString &model, const QString &detail,
                std::optional<std::chrono::milliseconds> duration = std::nullopt);

    QString m_host;
    std::unique_ptr<EngineDriver> m_driver;
    Catalog *m_catalog;
    HostStateMachine m_machine;
    RequestId m_nextId = 1;
    struct Waiter
    {
        AdmitFn admit;
        RefuseFn refuse;
    };
    QHash<RequestId, Waiter> m_waiters;
    GrantedFn m_leaseGranted;
    QTimer m_leaseTimer;
    std::chrono::steady_clock::time_point m_switchStarted;
    std::chrono::steady_clock::time_point m_leaseStarted;
    QString m_switchAlias;
};

} // namespace switchyard
