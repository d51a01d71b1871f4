#pragma once

#include "hosts/hostrefusal.h"
#include "hosts/hoststatemachine.h"
#include "hosts/hostticket.h"
#include "hosts/promptcacheusage.h"
#include "store/historyevent.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace switchyard {

class AgentStream;
class Catalog;
class Clock;
class EngineDriver;
class HostPower;
class PromptCacheKeeper;
class UpstreamPool;

// One host: carries out its HostStateMachine's decisions through the host's EngineDriver, tells
// the catalog which engine runs, and reports switches and leases as history events (which are
// also the journal's event lines). Refusals reach the callbacks as facts (HostRefusal): whoever
// answers words them.
class HostController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HostController)

public:
    using RequestId = HostStateMachine::RequestId;
    using AdmitFn = std::function<void()>;
    using RefuseFn = std::function<void(const HostRefusal &why)>;
    // Empty when granted (done), else why not.
    using LeaseFn = std::function<void(const std::optional<HostRefusal> &refused)>;
    using SwitchDoneFn = std::function<void(const std::optional<HostRefusal> &refused)>;

    struct RequestInfo
    {
        QString engine;
        QString alias;
        QString clientAddress;   // who asks, for the admin API
        QString userAgent;
        QString modelKey;        // the model's name on the engine (prompt caches); empty = none
        bool sideCall = false;   // a title or small-model call: waits less for a switch
    };
    // A request the host holds, running or waiting, as the admin API and the window list it.
    struct HeldRequest
    {
        RequestId id;
        RequestInfo info;
        std::chrono::steady_clock::time_point since;
    };

    // Without a catalog (the agent's own box) nobody is told which engine runs.
    HostController(QString host, std::unique_ptr<EngineDriver> driver, Catalog *catalog, const Clock *clock = nullptr,
                   const SchedulingConfig &scheduling = {}, QObject *parent = nullptr);
    ~HostController() override;

    void start();   // probe what runs
    // A request met the engine unreachable: ask the driver what runs, so that a dead engine is
    // started again by the next request (static hosts: nothing to do).
    void engineUnreachable();

    // A request's place on this host. Take the ticket first and keep it where the request's end
    // will release it; then request(): admit() once it may go upstream (possibly before request()
    // returns), or refuse() with 423/424. The place is given back when the ticket is released or
    // destroyed, whatever happened, also from inside admit() or for a client that left waiting.
    HostTicket newTicket();
    void request(const HostTicket &ticket, const RequestInfo &info, AdmitFn admit, RefuseFn refuse);

    // Switch on command (the window, the admin API): queued like a request for `engine` on behalf
    // of `requestedBy`, so running streams drain first; under the batch policy it does not wait
    // for the running engine's dwell or maxWait. done(std::nullopt) once
    // the engine is up (at once if it already runs); if it cannot be, done() with why (its status()
    // is what a client would get: 400 no such engine, 409 a static host, 423 leased, 424 failed).
    void switchEngine(const QString &engine, const QString &requestedBy, SwitchDoneFn done);

    // done(std::nullopt) once running requests have drained and the engine is stopped; done(why, a
    // 409) when the lease is released, or taken by another owner, before it was granted. Called
    // exactly once.
    void takeLease(const QString &owner, std::chrono::seconds ttl, LeaseFn done);
    void releaseLease();

    // Prompt caches across a switch (issue 19): saved before an engine stops, restored before a
    // request goes upstream. Owned by the host from then on; nullptr = none kept.
    void setPromptCacheKeeper(PromptCacheKeeper *keeper);
    // Wake-on-LAN, idle stop and sleep (docs/HOSTS.md, "Wake and idle stop"), from the host's
    // config; before start(). Without it, the host never stops for idleness and is never woken.
    void setPower(const HostConfig &config, UpstreamPool *pool);
    // The policy alone, without its I/O: the machine decides, but no packet is sent and no
    // command runs (the randomized tests).
    void setPowerPolicy(const HostStateMachine::Power &power);
    bool canWake() const { return m_machine.power().canWake; }
    const HostStateMachine::Power &power() const { return m_machine.power(); }
    PromptCacheKeeper *promptCacheKeeper() const { return m_promptCaches; }
    // What the host's saved prompt caches take: its keeper's, or a shared box's agent's (none when
    // that agent keeps none, or has not said).
    std::optional<PromptCacheUsage> promptCacheUsage() const;
    // Prompt tokens restored from a saved cache just before this ticket's request was admitted.
    qint64 restoredTokens(const HostTicket &ticket) const;

    QString host() const { return m_host; }
    bool canSwitch() const;
    QStringList engines() const;   // in config order
    // On a shared box (its agent arbitrates, EngineDriver::sharedBox()) these are the agent's view.
    HostStateMachine::State state() const;
    QString stateName() const { return HostStateMachine::stateName(state()); }
    QString currentEngine() const;
    QString targetEngine() const;
    QString leaseOwner() const;
    QDateTime leaseUntil() const;
    const std::optional<EngineFailure> &lastFailure() const { return m_machine.lastFailure(); }
    int runningRequests() const;
    int waitingRequests() const;
    // Shared box: its agent decides switches and leases for every relay in front of it.
    bool sharedBox() const;
    // The box as its agent last described it (/agent/events "box"); empty when not shared.
    const QJsonObject &box() const { return m_box; }
    // The protocol its agent speaks (0: no agent, or not said yet); one other than
    // BoxProtocol::Version is worth telling the user (docs/HOSTS.md, "Versions").
    int agentProtocol() const;
    // Whom this relay is on a shared box (the agent lists waiters and holders by it).
    void setRelayName(const QString &name) { m_relayName = name; }
    HostStateMachine::Wait waitFor() const;
    const SchedulingConfig &scheduling() const { return m_machine.scheduling(); }
    // When the machine wants its next tick (its timer is armed for it), and the tick itself: a
    // test without an event loop calls it once its clock has passed that time.
    std::optional<HostStateMachine::TimePoint> nextWakeUp() const { return m_machine.nextWakeUp(); }
    void wakeUp();
    QList<HeldRequest> runningList() const;
    // Under the batch policy a request for another engine waits while the running one serves on
    // (HostStateMachine::Wait::Phase::Batching): the engine the host switches to next, how many
    // requests wait for it, and how soon the switch is due; `in` is empty while requests run
    // (the switch comes after them and the dwell, or at maxWait). An empty engine: none waits.
    struct NextSwitch
    {
        QString engine;
        int waiting = 0;
        std::optional<std::chrono::milliseconds> in;
    };
    NextSwitch nextSwitch() const;
    QList<HeldRequest> waitingList() const;
    // Empty when the books balance: every request the machine counts holds a live ticket, and
    // every live ticket is known to the machine once it was requested. Checked after every step
    // in debug builds and by the randomized tests.
    QString bookkeepingError() const;

Q_SIGNALS:
    void stateChanged();
    void probed(const QString &runningEngine);   // the driver said what runs (after start())
    void historyEvent(const switchyard::HistoryEvent &event);

private:
    friend class HostTicket;
    void release(RequestId id);
    void enqueue(const HostTicket &ticket, const RequestInfo &info, AdmitFn admit, RefuseFn refuse, bool command);
    HostStateMachine::TimePoint now() const;
    QList<HeldRequest> held(const QList<RequestId> &ids) const;
    void carryOut(const HostStateMachine::Actions &actions);
    void publish(HistoryEvent event);
    HostRefusal refusal(HostRefusal::Reason reason) const;
    // The prompt-cache hooks: each runs `then` at once when no keeper is set.
    void beforeEngineStops(const QString &running, const QString &next, std::function<void()> then);
    void beforeForward(RequestId id, AdmitFn admit);
    // Shared box: the request's place is held at the agent (BoxProtocol) instead of the machine.
    void holdOnSharedBox(RequestId id);
    void onHoldEvent(RequestId id, const QByteArray &name, const QByteArray &data);
    void onHoldEnded(RequestId id, int status, const QByteArray &body, const QString &failure);
    void dropHold(RequestId id);
    void onBoxSeen(const QJsonObject &box);
    void takeSharedLease(const QString &owner, std::chrono::seconds ttl);
    void setCatalogEngine(const QString &engine);

    QString m_host;
    std::unique_ptr<EngineDriver> m_driver;
    Catalog *m_catalog;
    const Clock *m_clock;
    HostStateMachine m_machine;
    RequestId m_nextId = 1;
    // Every ticket not released yet; admit and refuse are set while its request waits.
    struct LiveTicket
    {
        bool requested = false;
        RequestInfo info;
        std::chrono::steady_clock::time_point since;
        AdmitFn admit;
        RefuseFn refuse;
        qint64 restoredTokens = 0;
        bool command = false;
        bool inMachine = false;   // counted by m_machine (every request that is not on a shared box)
        // Shared box: the hold at the agent (nullptr: the request is the machine's) and whether
        // the agent has admitted it.
        AgentStream *hold = nullptr;
        bool admitted = false;
    };
    QHash<RequestId, LiveTicket> m_tickets;
    // The tickets held at a shared box's agent, waiting and admitted there: counted as holds come
    // and go, so that runningRequests() and waitingRequests() (asked per request by the replica
    // router and per scrape by the metrics) do not walk every ticket.
    int m_agentWaiting = 0;
    int m_agentAdmitted = 0;
    void countHold(const LiveTicket &ticket, int delta);
    bool m_destroying = false;
    QList<LeaseFn> m_leaseWaiters;   // asked for the lease, not granted yet
    void answerLeaseWaiters(const std::optional<HostRefusal> &refused);
    QTimer m_leaseTimer;
    QTimer m_wakeTimer;   // armed for the machine's nextWakeUp()
    std::chrono::steady_clock::time_point m_switchStarted;
    std::chrono::steady_clock::time_point m_leaseStarted;
    QString m_switchAlias;
    QString m_wakeFor;        // the model of the request that sent the last wake packet
    PromptCacheKeeper *m_promptCaches = nullptr;
    HostPower *m_power = nullptr;
    void showPowerInCatalog();
    QString m_shownPower;            // what the catalog was last told
    QPointer<Catalog> m_catalogAlive;
    HostStateMachine::Power m_powerPolicy;   // as configured; a shared box's agent decides idle stops
    QString m_relayName;
    QJsonObject m_box;
    bool m_sharedLeaseGranted = false;
};

} // namespace switchyard
