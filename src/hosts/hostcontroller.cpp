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
    });
}

HostController::~HostController() = default;

bool HostController::canSwitch() const
{
    return m_driver->canSwitch();
}

void HostController::start()
{
    m_driver->probe();
}

HostController::RequestId HostController::request(const QString &engine, const QString &alias, AdmitFn admit, RefuseFn refuse)
{
    const RequestId id = m_nextId++;
    m_waiters.insert(id, {std::move(admit), std::move(refuse)});
    carryOut(m_machine.requestArrived(id, engine, alias));
    return id;
}

void HostController::finished(RequestId id)
{
    m_waiters.remove(id);
    carryOut(m_machine.requestFinished(id));
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
            done(409, tr("host %1 runs one static engine and cannot switch").arg(m_host));
        return;
    }
    if (!engines().contains(engine)) {
        if (done)
            done(400, tr("host %1 has no engine \"%2\" (its engines: %3)").arg(m_host, engine, engines().join(u", "_s)));
        return;
    }
    if (state() == HostStateMachine::State::Serving && currentEngine() == engine && waitingRequests() == 0) {
        if (done)
            done(200, {});
        return;
    }
    const RequestId id = m_nextId;
    QPointer<HostController> self(this);
    // Admitted means the engine is up: the command needs no slot, so it leaves at once. Queued,
    // because admit runs inside carryOut's loop, which must not see its waiter removed.
    request(engine, requestedBy,
            [self, id, done] {
                QMetaObject::invokeMethod(self, [self, id, done] {
                    if (self)
                        self->finished(id);
                    if (done)
                        done(200, {});
                }, Qt::QueuedConnection);
            },
            [done](int status, const QString &reason) {
                if (done)
                    done(status, reason);
            });
}

void HostController::takeLease(const QString &owner, std::chrono::seconds ttl, GrantedFn granted)
{
    m_leaseGranted = std::move(granted);
    m_leaseStarted = std::chrono::steady_clock::now();
    m_leaseTimer.start(ttl);
    const QDateTime until = QDateTime::currentDateTimeUtc().addSecs(ttl.count());
    record(HistoryEvent::Kind::LeaseTaken, currentEngine(), {},
           u"%1 until %2"_s.arg(owner, until.toString(Qt::ISODate)));
    carryOut(m_machine.takeLease(owner, until));
}

void HostController::releaseLease()
{
    if (leaseOwner().isEmpty())
        return;
    m_leaseTimer.stop();
    m_leaseGranted = nullptr;
    record(HistoryEvent::Kind::LeaseReleased, {}, {}, leaseOwner(),
           std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_leaseStarted));
    carryOut(m_machine.releaseLease());
}

void HostController::carryOut(const HostStateMachine::Actions &actions)
{
    for (const HostStateMachine::Action &action : actions) {
        if (auto a = std::get_if<HostStateMachine::Admit>(&action)) {
            const auto it = m_waiters.constFind(a->id);
            if (it != m_waiters.constEnd() && it->admit)
                it->admit();
        } else if (auto r = std::get_if<HostStateMachine::Refuse>(&action)) {
            const Waiter waiter = m_waiters.take(r->id);
            if (waiter.refuse)
                waiter.refuse(r->status, r->message);
        } else if (auto s = std::get_if<HostStateMachine::StartEngine>(&action)) {
            m_switchStarted = std::chrono::steady_clock::now();
            m_switchAlias = s->forAlias;
            record(HistoryEvent::Kind::SwitchStart, s->engine, s->forAlias, {});
            m_driver->startEngine(s->engine);
        } else if (auto stop = std::get_if<HostStateMachine::StopEngine>(&action)) {
            m_driver->stopEngine(stop->engine);
        } else if (std::get_if<HostStateMachine::LeaseGranted>(&action)) {
            if (m_leaseGranted) {
                GrantedFn granted = std::move(m_leaseGranted);
                m_leaseGranted = nullptr;
                granted();
            }
        }
        // Journal actions: the history events above carry the same lines.
    }
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
