#include "hosts/hostcontroller.h"

#include "catalog/catalog.h"
#include "engines/enginedriver.h"

#include <QPointer>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
QString engineIn(const Catalog *catalog, const QString &host)
{
    const Catalog::HostState *s = catalog->host(host);
    return s ? s->engine : QString();
}
} // namespace

HostController::HostController(QString host, std::unique_ptr<EngineDriver> driver, Catalog *catalog, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_driver(std::move(driver))
    , m_catalog(catalog)
    , m_machine(m_host, m_driver->canSwitch(), m_driver->canSwitch() ? QString() : engineIn(catalog, m_host))
{
    m_driver->setParent(nullptr);
    m_leaseTimer.setSingleShot(true);
    connect(&m_leaseTimer, &QTimer::timeout, this, &HostController::releaseLease);

    connect(m_driver.get(), &EngineDriver::engineStarted, this, [this](const QString &engine) {
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_switchStarted);
        record(HistoryEvent::Kind::SwitchEnd, engine, m_switchAlias, {}, took);
        m_catalog->setCurrentEngine(m_host, engine);
        carryOut(m_machine.engineStarted(engine));
    });
    connect(m_driver.get(), &EngineDriver::engineStartFailed, this, [this](const QString &engine, const QString &reason) {
        record(HistoryEvent::Kind::SwitchFailed, engine, m_switchAlias, reason);
        carryOut(m_machine.engineStartFailed(engine, reason));
    });
    connect(m_driver.get(), &EngineDriver::engineStopped, this, [this](const QString &engine) {
        carryOut(m_machine.engineStopped(engine));
    });
    connect(m_driver.get(), &EngineDriver::statusKnown, this, [this](const QString &running) {
        if (!running.isEmpty() && running != engineIn(m_catalog, m_host))
            m_catalog->setCurrentEngine(m_host, running);
        carryOut(m_machine.probed(running));
        emit probed(running);
    });
}

HostController::~HostController()
{
    // Tickets still held (by waiters' callbacks among others) must not call back into a host
    // that is half gone.
    m_destroying = true;
    m_tickets.clear();
}

bool HostController::canSwitch() const
{
    return m_driver->canSwitch();
}

void HostController::start()
{
    m_driver->probe();
}

void HostController::engineUnreachable()
{
    if (canSwitch() && m_machine.state() == HostStateMachine::State::Serving)
        m_driver->probe();
}

HostTicket HostController::newTicket()
{
    const RequestId id = m_nextId++;
    m_tickets.insert(id, LiveTicket{false, {}, std::chrono::steady_clock::now(), {}, {}});
    return HostTicket(this, id);
}

void HostController::request(const HostTicket &ticket, const RequestInfo &info, AdmitFn admit, RefuseFn refuse)
{
    const auto it = m_tickets.find(ticket.id());
    if (!ticket.isHeld() || ticket.m_host != this || it == m_tickets.end() || it->requested)
        return;   // released already (the client left first), or asked twice
    it->requested = true;
    it->info = info;
    it->since = std::chrono::steady_clock::now();
    it->admit = std::move(admit);
    it->refuse = std::move(refuse);
    carryOut(m_machine.requestArrived(ticket.id(), info.engine, info.alias));
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
    const bool requested = gone.requested;
    if (requested)
        carryOut(m_machine.requestFinished(id));
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
    return held(m_machine.runningIds());
}

QList<HostController::HeldRequest> HostController::waitingList() const
{
    return held(m_machine.waitingIds());
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
    return {};
}

QStringList HostController::engines() const
{
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
        if (done)
            done(409, u"host %1 runs one static engine and cannot switch"_s.arg(m_host));   // to API clients: English
        return;
    }
    if (!engines().contains(engine)) {
        if (done)
            done(400, u"host %1 has no engine \"%2\" (its engines: %3)"_s.arg(m_host, engine, engines().join(u", "_s)));
        return;
    }
    if (state() == HostStateMachine::State::Serving && currentEngine() == engine && waitingRequests() == 0) {
        if (done)
            done(200, {});
        return;
    }
    // Queued like a request: admitted means the engine is up, and the command needs no slot, so
    // it gives its place back at once.
    auto ticket = std::make_shared<HostTicket>(newTicket());
    request(*ticket, {engine, requestedBy, {}, requestedBy},
            [ticket, done] {
                ticket->release();
                if (done)
                    done(200, {});
            },
            [ticket, done](int status, const QString &reason) {
                ticket->release();
                if (done)
                    done(status, reason);
            });
}

void HostController::takeLease(const QString &owner, std::chrono::seconds ttl, LeaseFn done)
{
    if (!leaseOwner().isEmpty() && leaseOwner() != owner)
        answerLeaseWaiters(409, u"the lease of host %1 was taken by %2 before it was granted"_s.arg(m_host, owner));
    if (done)
        m_leaseWaiters.append(std::move(done));
    m_leaseStarted = std::chrono::steady_clock::now();
    m_leaseTimer.start(ttl);
    const QDateTime until = QDateTime::currentDateTimeUtc().addSecs(ttl.count());
    record(HistoryEvent::Kind::LeaseTaken, currentEngine(), {},
           u"%1 until %2"_s.arg(owner, until.toString(Qt::ISODate)));
    carryOut(m_machine.takeLease(owner, until));
}

void HostController::answerLeaseWaiters(int status, const QString &reason)
{
    const QList<LeaseFn> waiters = std::exchange(m_leaseWaiters, {});
    for (const LeaseFn &done : waiters)
        done(status, reason);
}

void HostController::releaseLease()
{
    if (leaseOwner().isEmpty())
        return;
    m_leaseTimer.stop();
    answerLeaseWaiters(409, u"the lease of host %1 was released before it was granted"_s.arg(m_host));
    record(HistoryEvent::Kind::LeaseReleased, {}, {}, leaseOwner(),
           std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_leaseStarted));
    carryOut(m_machine.releaseLease());
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
                admit();
        } else if (auto r = std::get_if<HostStateMachine::Refuse>(&action)) {
            const auto it = m_tickets.find(r->id);
            if (it == m_tickets.end())
                continue;
            const RefuseFn refuse = std::exchange(it->refuse, nullptr);
            it->admit = nullptr;
            if (refuse)
                refuse(r->status, r->message);
        } else if (auto s = std::get_if<HostStateMachine::StartEngine>(&action)) {
            m_switchStarted = std::chrono::steady_clock::now();
            m_switchAlias = s->forAlias;
            record(HistoryEvent::Kind::SwitchStart, s->engine, s->forAlias, {});
            m_driver->startEngine(s->engine);
        } else if (auto stop = std::get_if<HostStateMachine::StopEngine>(&action)) {
            m_driver->stopEngine(stop->engine);
        } else if (std::get_if<HostStateMachine::LeaseGranted>(&action)) {
            answerLeaseWaiters(200, {});
        }
        // Journal actions: the history events above carry the same lines.
    }
    Q_ASSERT_X(bookkeepingError().isEmpty(), "HostController", qPrintable(bookkeepingError()));
    emit stateChanged();
}

void HostController::record(HistoryEvent::Kind kind, const QString &engine, const QString &model, const QString &detail,
                            std::optional<std::chrono::milliseconds> duration)
{
    HistoryEvent e;
    e.at = QDateTime::currentDateTime();
    e.kind = kind;
    e.host = m_host;
    e.engine = engine;
    e.model = model;
    e.detail = detail;
    e.duration = duration;
    emit historyEvent(e);
}

} // namespace switchyard
