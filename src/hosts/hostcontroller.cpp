#include "hosts/hostcontroller.h"

#include "catalog/catalog.h"
#include "common/clock.h"
#include "engines/agentstream.h"
#include "engines/enginedriver.h"
#include "hosts/hostpower.h"
#include "hosts/hostslogging.h"
#include "hosts/promptcachekeeper.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
QString engineIn(const Catalog *catalog, const QString &host)
{
    const Catalog::HostState *s = catalog ? catalog->host(host) : nullptr;
    return s ? s->engine : QString();
}
} // namespace

HostController::HostController(QString host, std::unique_ptr<EngineDriver> driver, Catalog *catalog,
                               const Clock *clock, const SchedulingConfig &scheduling, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_driver(std::move(driver))
    , m_catalog(catalog)
    , m_clock(clock ? clock : &systemClock())
    , m_machine(m_host, m_driver->canSwitch(), m_driver->canSwitch() ? QString() : engineIn(catalog, m_host),
                scheduling)
    , m_catalogAlive(catalog)
{
    m_driver->setParent(nullptr);
    m_leaseTimer.setSingleShot(true);
    connect(&m_leaseTimer, &QTimer::timeout, this, &HostController::releaseLease);
    m_wakeTimer.setSingleShot(true);
    connect(&m_wakeTimer, &QTimer::timeout, this, &HostController::wakeUp);

    connect(m_driver.get(), &EngineDriver::engineStarted, this, [this](const QString &engine) {
        HistoryEvent up;
        up.kind = HistoryEvent::Kind::SwitchEnd;
        up.host = m_host;
        up.engine = engine;
        up.model = m_switchAlias;
        up.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock->steadyNow() - m_switchStarted);
        publish(up);
        setCatalogEngine(engine);
        if (m_promptCaches)
            m_promptCaches->engineStarted(engine);
        carryOut(m_machine.engineStarted(engine, now()));
    });
    connect(m_driver.get(), &EngineDriver::engineStartFailed, this, [this](const QString &engine, const EngineFailure &failure) {
        carryOut(m_machine.engineStartFailed(engine, failure, now()));
    });
    connect(m_driver.get(), &EngineDriver::engineStopped, this, [this](const QString &engine) {
        carryOut(m_machine.engineStopped(engine, now()));
    });
    connect(m_driver.get(), &EngineDriver::statusKnown, this, [this](const QString &running) {
        if (!running.isEmpty() && running != engineIn(m_catalogAlive, m_host))
            setCatalogEngine(running);
        // While waking, any answer means the box is up again. A static driver's answer says
        // nothing about a box that sleeps: HostPower asks its engine instead.
        if (canSwitch() || !canWake())
            carryOut(m_machine.state() == HostStateMachine::State::Waking ? m_machine.woke(running, now())
                                                                           : m_machine.probed(running, now()));
        emit probed(running);
    });
    connect(m_driver.get(), &EngineDriver::unreachable, this, [this](const EngineFailure &) {
        carryOut(m_machine.unreachable(now()));
    });
    connect(m_driver.get(), &EngineDriver::boxSeen, this, &HostController::onBoxSeen);
    // An agent of protocol 1: this relay switches the box itself again, idle stops included.
    connect(m_driver.get(), &EngineDriver::protocolMismatch, this, [this] {
        setPowerPolicy(m_powerPolicy);
        m_box = {};
        emit stateChanged();
    });
}

HostController::~HostController()
{
    // Tickets still held (by waiters' callbacks among others) must not call back into a host
    // that is half gone.
    m_destroying = true;
    delete std::exchange(m_promptCaches, nullptr);   // its saves and restores call back no more
    m_tickets.clear();
}

HostStateMachine::TimePoint HostController::now() const
{
    return m_clock->steadyNow();
}

HostStateMachine::Wait HostController::waitFor() const
{
    HostStateMachine::Wait wait = m_machine.waitFor();
    if (wait.phase == HostStateMachine::Wait::Phase::Batching) {
        if (const auto deadline = m_machine.holdDeadline())
            wait.holdLeft = std::max(std::chrono::ceil<std::chrono::milliseconds>(*deadline - now()),
                                     std::chrono::milliseconds(0));
    }
    return wait;
}

HostController::NextSwitch HostController::nextSwitch() const
{
    NextSwitch next;
    if (m_machine.waitFor().phase != HostStateMachine::Wait::Phase::Batching)
        return next;
    next.engine = m_machine.nextEngine(now());
    for (const HeldRequest &r : waitingList()) {
        if (r.info.engine == next.engine)
            ++next.waiting;
    }
    // While nothing runs the machine's next tick is the switch (the dwell's end, or maxWait).
    if (m_machine.runningRequests() == 0) {
        if (const auto due = m_machine.nextWakeUp())
            next.in = std::max(std::chrono::ceil<std::chrono::milliseconds>(*due - now()), std::chrono::milliseconds(0));
    }
    return next;
}

void HostController::wakeUp()
{
    carryOut(m_machine.tick(now()));
}

bool HostController::canSwitch() const
{
    return m_driver->canSwitch();
}

void HostController::start()
{
    m_driver->probe();
    if (m_power && m_power->canWake() && m_power->isStatic())
        m_power->ask();   // a static driver always says its engine runs: ask the engine
}

void HostController::engineUnreachable()
{
    if (canSwitch() && m_machine.state() == HostStateMachine::State::Serving)
        m_driver->probe();
    else if (m_power && m_power->canWake() && m_power->isStatic() && !m_power->isAsking())
        m_power->ask();
}

void HostController::setPower(const HostConfig &config, UpstreamPool *pool)
{
    delete m_power;
    m_power = new HostPower(config, m_driver.get(), pool, this);
    connect(m_power, &HostPower::historyEvent, this, &HostController::publish);
    connect(m_power, &HostPower::answered, this, [this](const QString &running) {
        if (m_machine.state() == HostStateMachine::State::Waking && m_catalogAlive)
            m_catalog->refreshHost(m_host);   // its models read loaded again
        carryOut(m_machine.woke(running, now()));
    });
    connect(m_power, &HostPower::silent, this, [this] {
        if (m_machine.state() != HostStateMachine::State::Waking)
            carryOut(m_machine.unreachable(now()));
    });
    setPowerPolicy(HostPower::policy(config));
}

void HostController::setPowerPolicy(const HostStateMachine::Power &power)
{
    m_powerPolicy = power;
    HostStateMachine::Power effective = power;
    if (sharedBox()) {
        // Stopping a shared box's engine for idleness would cut other relays' streams: its agent
        // decides that (it knows everyone's requests). Waking it is still this relay's to do.
        effective.idleStopAfter.clear();
        effective.sleeps = false;
    }
    m_machine.setPower(effective);
    carryOut({});   // arms the idle timer of an engine already running
}

// The host's models read "asleep" while it sleeps or wakes, "unloaded" after an idle stop:
// never "loaded" from a snapshot taken while it ran.
void HostController::showPowerInCatalog()
{
    QString status;
    switch (state()) {   // a shared box's as its agent tells it
    case HostStateMachine::State::Asleep:
    case HostStateMachine::State::Waking: status = u"asleep"_s; break;
    case HostStateMachine::State::Idle: status = u"unloaded"_s; break;
    default: break;
    }
    // Only a change reaches the catalog, which may be gone already while requests end on shutdown.
    if (status == m_shownPower || !m_catalogAlive)
        return;
    m_shownPower = status;
    m_catalog->setPowerStatus(m_host, status);
}

HostTicket HostController::newTicket()
{
    const RequestId id = m_nextId++;
    m_tickets.insert(id, LiveTicket{false, {}, m_clock->steadyNow(), {}, {}, 0});
    return HostTicket(this, id);
}

void HostController::request(const HostTicket &ticket, const RequestInfo &info, AdmitFn admit, RefuseFn refuse)
{
    enqueue(ticket, info, std::move(admit), std::move(refuse), false);
}

void HostController::enqueue(const HostTicket &ticket, const RequestInfo &info, AdmitFn admit, RefuseFn refuse,
                             bool command)
{
    const auto it = m_tickets.find(ticket.id());
    if (!ticket.isHeld() || ticket.m_host != this || it == m_tickets.end() || it->requested)
        return;   // released already (the client left first), or asked twice
    it->requested = true;
    it->info = info;
    it->since = m_clock->steadyNow();
    it->admit = std::move(admit);
    it->refuse = std::move(refuse);
    const RequestId id = ticket.id();
    // A static host that reads down and could be woken: asleep, so this request wakes it.
    it->command = command;
    if (sharedBox()) {
        holdOnSharedBox(id);
        return;
    }
    it->inMachine = true;
    if (m_power && m_power->isStatic() && m_machine.power().canWake && m_catalogAlive) {
        const Catalog::HostState *s = m_catalog->host(m_host);
        if (s && !s->reachable && m_machine.state() == HostStateMachine::State::Serving)
            carryOut(m_machine.unreachable(now()));
    }
    carryOut(command ? m_machine.commandArrived(id, info.engine, info.alias, now())
                     : m_machine.requestArrived(id, info.engine, info.alias, now(), info.sideCall));
}

void HostController::release(RequestId id)
{
    if (m_destroying)
        return;
    const auto it = m_tickets.find(id);
    if (it == m_tickets.end())
        return;
    // Its callbacks go after the books are settled: whatever they hold is released outside the hash.
    const LiveTicket gone = std::move(*it);
    m_tickets.erase(it);
    countHold(gone, -1);
    if (gone.hold) {
        // Closing the connection gives the place at the agent back.
        gone.hold->disconnect(this);
        gone.hold->abort();
        gone.hold->deleteLater();
        emit stateChanged();
    }
    if (gone.inMachine)
        carryOut(m_machine.requestFinished(id, now()));
}

QList<HostController::HeldRequest> HostController::held(const QList<RequestId> &ids) const
{
    QList<HeldRequest> out;
    for (RequestId id : ids) {
        const auto it = m_tickets.constFind(id);
        if (it != m_tickets.constEnd())
            out.append({id, it->info, it->since});
    }
    return out;
}

QList<HostController::HeldRequest> HostController::runningList() const
{
    QList<HeldRequest> out = held(m_machine.runningIds());
    for (auto it = m_tickets.cbegin(); it != m_tickets.cend(); ++it) {
        if (it->hold && it->admitted)
            out.append({it.key(), it->info, it->since});
    }
    return out;
}

QList<HostController::HeldRequest> HostController::waitingList() const
{
    QList<HeldRequest> out = held(m_machine.waitingIds());
    for (auto it = m_tickets.cbegin(); it != m_tickets.cend(); ++it) {
        if (it->hold && !it->admitted)
            out.append({it.key(), it->info, it->since});
    }
    return out;
}

int HostController::runningRequests() const
{
    return m_machine.runningRequests() + m_agentAdmitted;
}

int HostController::waitingRequests() const
{
    return m_machine.waitingRequests() + m_agentWaiting;
}

void HostController::countHold(const LiveTicket &ticket, int delta)
{
    if (ticket.hold)
        (ticket.admitted ? m_agentAdmitted : m_agentWaiting) += delta;
}

QString HostController::bookkeepingError() const
{
    const QList<RequestId> running = m_machine.runningIds();
    const QList<RequestId> waiting = m_machine.waitingIds();
    for (RequestId id : running + waiting) {
        if (!m_tickets.value(id).requested)
            return u"host %1 counts request %2, which holds no ticket"_s.arg(m_host).arg(id);
    }
    for (RequestId id : waiting) {
        if (!m_tickets.value(id).admit)
            return u"host %1 keeps request %2 waiting with no one to admit it"_s.arg(m_host).arg(id);
    }
    int agentWaiting = 0;
    int agentAdmitted = 0;
    for (auto it = m_tickets.cbegin(); it != m_tickets.cend(); ++it) {
        if (it->hold)
            ++(it->admitted ? agentAdmitted : agentWaiting);
        if (it->inMachine && it->hold)
            return u"host %1 counts request %2 both here and at its agent"_s.arg(m_host).arg(it.key());
        if (it->hold && !it->admitted && !it->admit)
            return u"host %1 keeps request %2 waiting at its agent with no one to admit it"_s.arg(m_host).arg(it.key());
    }
    if (agentWaiting != m_agentWaiting || agentAdmitted != m_agentAdmitted)
        return u"host %1 counts %2 waiting and %3 admitted at its agent, its tickets say %4 and %5"_s.arg(m_host)
            .arg(m_agentWaiting).arg(m_agentAdmitted).arg(agentWaiting).arg(agentAdmitted);
    return {};
}

QStringList HostController::engines() const
{
    if (!m_catalogAlive)
        return m_driver->engineNames();   // the agent's own box: its driver knows them
    QStringList names;
    if (const Catalog::HostState *s = m_catalog->host(m_host)) {
        for (const Catalog::EngineModels &e : s->engines)
            names << e.name;
    }
    return names;
}

void HostController::switchEngine(const QString &engine, const QString &requestedBy, SwitchDoneFn done)
{
    if (!canSwitch()) {
        if (done) {
            done(refusal(HostRefusal::Reason::StaticHost));
        }
        return;
    }
    if (!engines().contains(engine)) {
        if (done) {
            HostRefusal why = refusal(HostRefusal::Reason::NoSuchEngine);
            why.engine = engine;
            why.engines = engines();
            done(why);
        }
        return;
    }
    if (!sharedBox() && state() == HostStateMachine::State::Serving && currentEngine() == engine
        && waitingRequests() == 0) {
        if (done)
            done(std::nullopt);
        return;
    }
    // Queued like a request: admitted means the engine is up, and the command needs no slot, so
    // it gives its place back at once.
    auto ticket = std::make_shared<HostTicket>(newTicket());
    enqueue(*ticket, {engine, requestedBy, {}, requestedBy, {}},
            [ticket, done] {
                ticket->release();
                if (done)
                    done(std::nullopt);
            },
            [ticket, done](const HostRefusal &why) {
                ticket->release();
                if (done)
                    done(why);
            },
            true);
}

void HostController::takeLease(const QString &owner, std::chrono::seconds ttl, LeaseFn done)
{
    if (sharedBox()) {
        if (done)
            m_leaseWaiters.append(std::move(done));
        takeSharedLease(owner, ttl);
        return;
    }
    if (!leaseOwner().isEmpty() && leaseOwner() != owner) {
        HostRefusal why = refusal(HostRefusal::Reason::LeaseTakenOver);
        why.owner = owner;
        answerLeaseWaiters(why);
    }
    if (done)
        m_leaseWaiters.append(std::move(done));
    m_leaseStarted = m_clock->steadyNow();
    m_leaseTimer.start(ttl);
    const QDateTime until = m_clock->now().toUTC().addSecs(ttl.count());
    carryOut(m_machine.takeLease(owner, until, now()));
}

void HostController::answerLeaseWaiters(const std::optional<HostRefusal> &refused)
{
    const QList<LeaseFn> waiters = std::exchange(m_leaseWaiters, {});
    for (const LeaseFn &done : waiters)
        done(refused);
}

void HostController::releaseLease()
{
    if (sharedBox()) {
        answerLeaseWaiters(refusal(HostRefusal::Reason::LeaseReleased));
        if (std::exchange(m_sharedLeaseGranted, false) || !leaseOwner().isEmpty())
            m_driver->releaseBoxLease();
        return;
    }
    if (leaseOwner().isEmpty())
        return;
    m_leaseTimer.stop();
    answerLeaseWaiters(refusal(HostRefusal::Reason::LeaseReleased));
    carryOut(m_machine.releaseLease(now()));
}

void HostController::carryOut(const HostStateMachine::Actions &actions)
{
    for (const HostStateMachine::Action &action : actions) {
        if (auto a = std::get_if<HostStateMachine::Admit>(&action)) {
            // Taken out first: admit() may end the request at once, which releases its ticket.
            const auto it = m_tickets.find(a->id);
            if (it == m_tickets.end())
                continue;
            const AdmitFn admit = std::exchange(it->admit, nullptr);
            it->refuse = nullptr;
            if (admit)
                beforeForward(a->id, admit);
        } else if (auto r = std::get_if<HostStateMachine::Refuse>(&action)) {
            const auto it = m_tickets.find(r->id);
            if (it == m_tickets.end())
                continue;
            const RefuseFn refuse = std::exchange(it->refuse, nullptr);
            it->admit = nullptr;
            if (refuse)
                refuse(r->why);
        } else if (auto s = std::get_if<HostStateMachine::StartEngine>(&action)) {
            m_switchStarted = m_clock->steadyNow();
            m_switchAlias = s->forAlias;
            beforeEngineStops(m_driver->runningEngine(), s->engine, [this, engine = s->engine] { m_driver->startEngine(engine); });
        } else if (auto stop = std::get_if<HostStateMachine::StopEngine>(&action)) {
            beforeEngineStops(stop->engine, {}, [this, engine = stop->engine] { m_driver->stopEngine(engine); });
        } else if (std::get_if<HostStateMachine::SendWake>(&action)) {
            // What woke it: the timeline names the request's model on the wake's events.
            const QList<HeldRequest> waiting = waitingList();
            m_wakeFor = waiting.isEmpty() ? QString() : waiting.first().info.alias;
            if (m_power)
                m_power->wake();
        } else if (std::get_if<HostStateMachine::RunSleepCommand>(&action)) {
            if (m_power)
                m_power->sleep();
        } else if (std::get_if<HostStateMachine::LeaseGranted>(&action)) {
            answerLeaseWaiters(std::nullopt);
        } else if (auto j = std::get_if<HostStateMachine::Journal>(&action)) {
            if (!j->event) {
                qCInfo(lcHosts).noquote() << j->text;
                continue;
            }
            HistoryEvent e = *j->event;
            if (e.kind == HistoryEvent::Kind::LeaseReleased)
                e.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock->steadyNow() - m_leaseStarted);
            publish(e);
        }
    }
    Q_ASSERT_X(bookkeepingError().isEmpty(), "HostController", qPrintable(bookkeepingError()));
    if (m_power && m_power->isAsking() && m_machine.state() != HostStateMachine::State::Waking)
        m_power->stopAsking();
    showPowerInCatalog();
    if (const auto due = m_machine.nextWakeUp()) {
        const auto in = std::chrono::ceil<std::chrono::milliseconds>(*due - now());
        m_wakeTimer.start(std::max(in, std::chrono::milliseconds(0)));
    } else {
        m_wakeTimer.stop();
    }
    emit stateChanged();
}

// ---- prompt caches (issue 19) ---------------------------------------------------------------

void HostController::setPromptCacheKeeper(PromptCacheKeeper *keeper)
{
    m_promptCaches = keeper;
    if (!keeper)
        return;
    keeper->setParent(this);
    connect(keeper, &PromptCacheKeeper::historyEvent, this, &HostController::historyEvent);
}

std::optional<PromptCacheUsage> HostController::promptCacheUsage() const
{
    if (sharedBox()) {   // the agent's, once it has said (this relay's keeper keeps nothing here)
        const QJsonValue caches = m_box.value("prompt_caches"_L1);
        if (!caches.isObject())
            return std::nullopt;
        const QJsonObject o = caches.toObject();
        return PromptCacheUsage{o.value("saved"_L1).toInt(), qint64(o.value("bytes"_L1).toDouble()),
                                qint64(o.value("max_bytes"_L1).toDouble())};
    }
    if (!m_promptCaches)
        return std::nullopt;
    return m_promptCaches->usage();
}

qint64 HostController::restoredTokens(const HostTicket &ticket) const
{
    return m_tickets.value(ticket.id()).restoredTokens;
}

void HostController::beforeEngineStops(const QString &running, const QString &next, std::function<void()> then)
{
    // A shared box's prompt caches are its agent's, which stops its engines (issue 33).
    if (!m_promptCaches || sharedBox() || running.isEmpty() || running == next) {
        then();
        return;
    }
    m_promptCaches->saveBeforeStop(running, std::move(then));
}

void HostController::beforeForward(RequestId id, AdmitFn admit)
{
    const LiveTicket ticket = m_tickets.value(id);
    if (!m_promptCaches || sharedBox() || ticket.info.modelKey.isEmpty()) {
        admit();
        return;
    }
    m_promptCaches->restoreBeforeForward(ticket.info.engine, ticket.info.modelKey,
                                         [this, id, admit](const PromptCacheKeeper::Restored &restored) {
        const auto it = m_tickets.find(id);
        if (it == m_tickets.end())
            return;   // the client left meanwhile: its place is given back already
        it->restoredTokens = restored.tokens;
        admit();
    });
}

void HostController::publish(HistoryEvent event)
{
    event.at = m_clock->now();
    const bool wake = event.kind == HistoryEvent::Kind::WakeSent || event.kind == HistoryEvent::Kind::Woke
        || event.kind == HistoryEvent::Kind::WakeTimedOut;
    if (wake && event.model.isEmpty())
        event.model = m_wakeFor;
    emit historyEvent(event);
}

HostRefusal HostController::refusal(HostRefusal::Reason reason) const
{
    HostRefusal why;
    why.reason = reason;
    why.host = m_host;
    return why;
}

void HostController::setCatalogEngine(const QString &engine)
{
    if (m_catalogAlive)
        m_catalog->setCurrentEngine(m_host, engine);
}

// ---- a shared box: its agent decides (issue 33, docs/HOSTS.md "A team: many relays, one box") ---

bool HostController::sharedBox() const
{
    return m_driver->sharedBox();
}

int HostController::agentProtocol() const
{
    return m_driver->agentProtocol();
}

HostStateMachine::State HostController::state() const
{
    if (sharedBox() && !m_box.isEmpty()) {
        if (const auto s = HostStateMachine::stateFromName(m_box.value("state"_L1).toString()))
            return *s;
    }
    return m_machine.state();
}

QString HostController::currentEngine() const
{
    return sharedBox() && !m_box.isEmpty() ? m_box.value("engine"_L1).toString() : m_machine.currentEngine();
}

QString HostController::targetEngine() const
{
    return sharedBox() && !m_box.isEmpty() ? m_box.value("target"_L1).toString() : m_machine.targetEngine();
}

QString HostController::leaseOwner() const
{
    if (sharedBox() && !m_box.isEmpty())
        return m_box.value("lease"_L1).toObject().value("owner"_L1).toString();
    return m_machine.leaseOwner();
}

QDateTime HostController::leaseUntil() const
{
    if (sharedBox() && !m_box.isEmpty()) {
        const QString until = m_box.value("lease"_L1).toObject().value("until"_L1).toString();
        return until.isEmpty() ? QDateTime() : QDateTime::fromString(until, Qt::ISODateWithMs);
    }
    return m_machine.leaseUntil();
}

void HostController::holdOnSharedBox(RequestId id)
{
    const auto it = m_tickets.find(id);
    if (it == m_tickets.end())
        return;
    BoxAsk ask;
    ask.engine = it->info.engine;
    ask.relay = m_relayName;
    ask.model = it->info.alias;
    ask.modelKey = it->info.modelKey;
    ask.app = it->info.userAgent;
    ask.command = it->command;
    ask.sideCall = it->info.sideCall;
    AgentStream *hold = m_driver->holdOnBox(ask, this);
    countHold(*it, -1);
    it->hold = hold;
    it->admitted = false;
    countHold(*it, +1);
    connect(hold, &AgentStream::event, this, [this, id](const QByteArray &name, const QByteArray &data) {
        onHoldEvent(id, name, data);
    });
    connect(hold, &AgentStream::ended, this, [this, id](int status, const QByteArray &body, const QString &failure) {
        onHoldEnded(id, status, body, failure);
    });
    emit stateChanged();
}

void HostController::onHoldEvent(RequestId id, const QByteArray &name, const QByteArray &data)
{
    const auto it = m_tickets.find(id);
    if (it == m_tickets.end())
        return;
    const QJsonObject facts = QJsonDocument::fromJson(data).object();
    if (name == BoxProtocol::Admit && !it->admitted) {
        countHold(*it, -1);
        it->admitted = true;
        countHold(*it, +1);
        const QString engine = facts.value("engine"_L1).toString(it->info.engine);
        if (engine != engineIn(m_catalogAlive, m_host))
            setCatalogEngine(engine);
        const AdmitFn admit = std::exchange(it->admit, nullptr);
        it->refuse = nullptr;
        emit stateChanged();
        if (admit)
            beforeForward(id, admit);
    } else if (name == BoxProtocol::Refuse) {
        HostRefusal why = HostRefusal::fromJson(facts);
        why.host = m_host;   // the relay's name for the box, not the agent's
        if (why.failure)
            why.failure->host = m_host;
        const RefuseFn refuse = std::exchange(it->refuse, nullptr);
        it->admit = nullptr;
        dropHold(id);
        if (refuse)
            refuse(why);
    }
}

void HostController::onHoldEnded(RequestId id, int status, const QByteArray &body, const QString &failure)
{
    const auto it = m_tickets.find(id);
    if (it == m_tickets.end())
        return;
    const bool admitted = it->admitted;
    dropHold(id);
    if (admitted) {
        // The request runs on; the agent restarted or the network broke, and its engine with it
        // or not: nothing here can cut or save the stream.
        qCInfo(lcHosts).noquote() << u"host %1: the agent let go of request %2: %3"_s.arg(m_host).arg(id).arg(failure);
        return;
    }
    const auto again = m_tickets.find(id);
    if (again == m_tickets.end())
        return;
    if (!sharedBox() || (status == 0 && canWake())) {
        // An agent of protocol 1 (this relay switches as before), or a box that is off and can be
        // woken: the machine takes the request (and wakes the box).
        again->inMachine = true;
        if (status == 0)
            carryOut(m_machine.unreachable(now()));
        carryOut(again->command ? m_machine.commandArrived(id, again->info.engine, again->info.alias, now())
                                : m_machine.requestArrived(id, again->info.engine, again->info.alias, now(), again->info.sideCall));
        return;
    }
    HostRefusal why = refusal(HostRefusal::Reason::SwitchFailed);
    why.engine = again->info.engine;
    QString text = failure;
    if (text.isEmpty()) {
        const QString message = QJsonDocument::fromJson(body).object().value("error"_L1).toObject()
                                    .value("message"_L1).toString();
        text = status == 401 ? u"the agent refused the token (401): check \"token\" in both configs"_s
             : !message.isEmpty() ? message
                                  : u"the agent answered %1"_s.arg(status);
    }
    EngineFailure reported(text);
    reported.host = m_host;
    reported.engine = why.engine;
    why.failure = reported;
    const RefuseFn refuse = std::exchange(again->refuse, nullptr);
    again->admit = nullptr;
    emit stateChanged();
    if (refuse)
        refuse(why);
}

void HostController::dropHold(RequestId id)
{
    const auto it = m_tickets.find(id);
    if (it == m_tickets.end() || !it->hold)
        return;
    countHold(*it, -1);
    AgentStream *hold = std::exchange(it->hold, nullptr);
    hold->disconnect(this);
    hold->abort();
    hold->deleteLater();
    emit stateChanged();
}

void HostController::takeSharedLease(const QString &owner, std::chrono::seconds ttl)
{
    m_leaseStarted = m_clock->steadyNow();
    m_driver->leaseBox(owner, ttl, [this, owner, guard = QPointer<HostController>(this)](
                                       int status, const QJsonObject &refused, const QString &failure) {
        if (!guard)
            return;
        if (status == 200) {
            m_sharedLeaseGranted = true;
            answerLeaseWaiters(std::nullopt);
            return;
        }
        HostRefusal why = refused.isEmpty() ? refusal(HostRefusal::Reason::SwitchFailed) : HostRefusal::fromJson(refused);
        why.host = m_host;
        if (refused.isEmpty())
            why.failure = EngineFailure(failure.isEmpty() ? u"the agent answered %1"_s.arg(status) : failure);
        answerLeaseWaiters(why);
    });
}

// The box as its agent sees it: the timeline gets the switches other relays caused too.
void HostController::onBoxSeen(const QJsonObject &box)
{
    const QJsonObject before = std::exchange(m_box, box);
    const QString state = box.value("state"_L1).toString();
    const QString was = before.value("state"_L1).toString();
    if (state == "switching"_L1 && was != "switching"_L1) {
        m_switchStarted = m_clock->steadyNow();
        HistoryEvent start;
        start.kind = HistoryEvent::Kind::SwitchStart;
        start.host = m_host;
        start.engine = box.value("target"_L1).toString();
        start.detail = box.value("switch_for"_L1).toString();
        publish(start);
    } else if (state == "serving"_L1 && was == "switching"_L1) {
        HistoryEvent up;
        up.kind = HistoryEvent::Kind::SwitchEnd;
        up.host = m_host;
        up.engine = box.value("engine"_L1).toString();
        up.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock->steadyNow() - m_switchStarted);
        publish(up);
    }
    // The agent's idle stop and sleep command, in this relay's timeline and journal too; one it
    // made before this relay first saw the box is left out.
    const QJsonObject power = box.value("power_event"_L1).toObject();
    const auto kind = HistoryEvent::kindFromName(power.value("kind"_L1).toString());
    if (!before.isEmpty() && kind && power != before.value("power_event"_L1).toObject()) {
        HistoryEvent e;
        e.kind = *kind;
        e.host = m_host;
        e.engine = power.value("engine"_L1).toString();
        e.detail = power.value("detail"_L1).toString();
        publish(e);
    }
    const QString engine = box.value("engine"_L1).toString();
    if (!engine.isEmpty() && engine != engineIn(m_catalogAlive, m_host))
        setCatalogEngine(engine);
    showPowerInCatalog();
    emit stateChanged();
}

} // namespace switchyard
