// Randomized: thousands of random sequences against a real HostController with a scripted engine
// driver. Requests of every way of ending (answered inside their own admission, streamed and
// answered later, cut while waiting, cut while running, refused), switches on command, leases,
// engine starts that fail, engines that die, probes, and the order in which all of these
// complete, are drawn from one seed. After every step the host's books must balance; after every
// sequence every host reads running 0 and waiting 0, every request got exactly one answer (or was
// cut by its client), and every switch asked for was done or refused, exactly once.
//
// Each sequence draws its scheduling policy too (arrival order, or batch with a drawn dwell and
// bound), and virtual time passes between its steps; the host's wake-up timer fires when the
// clock reaches it. Under batch, no one starves: a request that has waited max_wait is never
// passed over by one that arrives after it, and a host that serves while someone waits has a
// wake-up armed no later than when the oldest waiter reaches max_wait.
//
// Half the sequences save power too (issue 20): engines stopped after a drawn idle limit, a host
// that sleeps and is woken, a driver whose box stops answering probes. An idle stop never happens
// while a request runs or a lease holds, and a wake always ends (woken or timed out).
//
// A failure prints its seed; SWITCHYARD_FUZZ_SEED=N replays that one sequence,
// SWITCHYARD_FUZZ_SECONDS bounds the run (default 8).
#include "catalog/catalog.h"
#include "common/clock.h"
#include "config/config.h"
#include "engines/enginedriver.h"
#include "hosts/hostcontroller.h"
#include "upstream/upstreampool.h"

#include <QElapsedTimer>
#include <QTest>

#include <deque>
#include <functional>
#include <memory>
#include <random>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

// Work that completes "later": the sequence picks which pending task runs next, so every
// interleaving of completions is reachable, and none needs an event loop.
class Tasks
{
public:
    explicit Tasks(std::mt19937_64 &rng) : m_rng(rng) {}
    void later(std::function<void()> task) { m_tasks.push_back(std::move(task)); }
    bool empty() const { return m_tasks.empty(); }
    size_t size() const { return m_tasks.size(); }
    void runOne()
    {
        const size_t i = std::uniform_int_distribution<size_t>(0, m_tasks.size() - 1)(m_rng);
        std::function<void()> task = std::move(m_tasks[i]);
        m_tasks.erase(m_tasks.begin() + qsizetype(i));
        task();
    }

private:
    std::mt19937_64 &m_rng;
    std::deque<std::function<void()>> m_tasks;
};

// Keeps the EngineDriver contract (each call ends in exactly one signal for that engine), with
// outcomes and timing drawn from the sequence's seed.
class ScriptedDriver final : public EngineDriver
{
public:
    ScriptedDriver(Tasks &tasks, std::mt19937_64 &rng) : m_tasks(tasks), m_rng(rng) {}

    QString running;
    bool busy = false;   // a start or stop is under way
    bool offline = false;   // the box does not answer probes (asleep, off)

    void startEngine(const QString &engine) override
    {
        busy = true;
        running.clear();
        const bool fails = chance(0.2);
        auto finish = [this, engine, fails] {
            busy = false;
            if (fails) {
                emit engineStartFailed(engine, u"exited with code 1"_s);
                return;
            }
            running = engine;
            emit engineStarted(engine);
        };
        if (chance(0.2))
            finish();   // a driver may answer before it returns
        else
            m_tasks.later(finish);
    }
    void stopEngine(const QString &engine) override
    {
        busy = true;
        m_tasks.later([this, engine] {
            busy = false;
            if (running == engine)
                running.clear();
            emit engineStopped(engine);
        });
    }
    void probe() override
    {
        m_tasks.later([this] {
            if (offline)
                emit unreachable(u"no route to host"_s);
            else
                emit statusKnown(running);
        });
    }
    QString runningEngine() const override { return running; }
    bool canSwitch() const override { return true; }

    // The engine exits on its own (killed, crashed) while nothing is being started or stopped.
    void crash()
    {
        if (busy || running.isEmpty())
            return;
        const QString engine = running;
        running.clear();
        emit engineStopped(engine);
    }

private:
    bool chance(double p) { return std::bernoulli_distribution(p)(m_rng); }
    Tasks &m_tasks;
    std::mt19937_64 &m_rng;
};

// Virtual time: it passes only when the sequence says so.
class VirtualClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::fromSecsSinceEpoch(2000000000, Qt::UTC).addMSecs(ms()); }
    std::chrono::steady_clock::time_point steadyNow() const override { return m_start + m_passed; }
    void pass(std::chrono::milliseconds d) { m_passed += d; }

private:
    qint64 ms() const { return std::chrono::duration_cast<std::chrono::milliseconds>(m_passed).count(); }
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::time_point() + std::chrono::hours(1);
    std::chrono::steady_clock::duration m_passed{};
};

// How often the power paths were taken across a run: each must be reached, or the sequences
// stopped exercising them.
struct PowerReached
{
    int idleStops = 0;
    int woke = 0;
    int wakeTimeouts = 0;
};
PowerReached reached;

struct Request
{
    enum class Ending { InsideAdmission, Later, CutRunning };
    HostTicket ticket;
    QString engine;
    std::chrono::steady_clock::time_point since;
    bool sideCall = false;   // waits at most sideCallMaxWait
    Ending ending = Ending::Later;
    int answers = 0;
    bool admitted = false;
    bool refused = false;
    bool cut = false;
    bool over = false;
};

struct Command
{
    int done = 0;
    int status = 0;
};

class Sequence
{
public:
    explicit Sequence(quint64 seed)
        : m_rng(seed)
        , m_tasks(m_rng)
    {
        Config config;
        HostConfig host;
        host.name = u"h"_s;
        for (const QString &name : m_engines) {
            EngineConfig e;
            e.name = name;
            e.url = QUrl(u"http://127.0.0.1:9"_s);   // never read: no event loop runs here
            e.models = {name + u"-model"_s};
            host.engines.append(e);
        }
        config.hosts.append(host);
        m_catalog = std::make_unique<Catalog>(config, &m_pool);
        auto driver = std::make_unique<ScriptedDriver>(m_tasks, m_rng);
        m_driver = driver.get();
        if (chance(0.25)) {
            m_scheduling.policy = SchedulingConfig::Policy::Arrival;
        } else {
            m_scheduling.policy = SchedulingConfig::Policy::Batch;
            m_scheduling.dwell = std::chrono::seconds(std::uniform_int_distribution<int>(0, 5)(m_rng));
            m_scheduling.maxWait = std::chrono::seconds(std::uniform_int_distribution<int>(1, 30)(m_rng));
            m_scheduling.sideCallMaxWait = std::chrono::seconds(std::uniform_int_distribution<int>(1, 30)(m_rng));
        }
        m_host = std::make_unique<HostController>(u"h"_s, std::move(driver), m_catalog.get(), &m_clock, m_scheduling);
        if (chance(0.5)) {
            for (const QString &name : m_engines) {
                if (chance(0.7))
                    m_power.idleStopAfter.insert(name, std::chrono::seconds(std::uniform_int_distribution<int>(1, 20)(m_rng)));
            }
            m_power.sleeps = chance(0.5);
            m_power.canWake = chance(0.5);
            m_power.wakeTimeout = std::chrono::seconds(std::uniform_int_distribution<int>(1, 30)(m_rng));
            m_host->setPowerPolicy(m_power);
        }
        QObject::connect(m_host.get(), &HostController::historyEvent, m_host.get(), [this](const HistoryEvent &e) {
            reached.idleStops += e.kind == HistoryEvent::Kind::IdleStop;
            reached.woke += e.kind == HistoryEvent::Kind::Woke;
            reached.wakeTimeouts += e.kind == HistoryEvent::Kind::WakeTimedOut;
            if (e.kind == HistoryEvent::Kind::IdleStop && m_broken.isEmpty()
                && (m_host->runningRequests() > 0 || m_host->waitingRequests() > 0 || !m_host->leaseOwner().isEmpty()))
                m_broken = u"idle stop with %1 running, %2 waiting, lease of '%3'"_s.arg(m_host->runningRequests())
                               .arg(m_host->waitingRequests()).arg(m_host->leaseOwner());
        });
    }

    // Empty when the sequence kept every promise.
    QString run()
    {
        m_host->start();
        const int steps = std::uniform_int_distribution<int>(5, 60)(m_rng);
        for (int step = 0; step < steps; ++step) {
            act();
            if (m_starved.isEmpty())
                fireWakeUp();
            if (QString e = books(); !e.isEmpty())
                return u"step %1: %2"_s.arg(step).arg(e);
            if (QString e = starvation(); !e.isEmpty())
                return u"step %1 (%2): %3"_s.arg(step).arg(policyName(), e);
        }
        // The end: the lease goes, every pending completion runs, in random order.
        m_host->releaseLease();
        int guard = 0;
        while (!m_tasks.empty() || m_host->nextWakeUp()) {
            if (++guard > 100000)
                return u"completions never end (%1 pending)"_s.arg(m_tasks.size());
            if (m_tasks.empty()) {   // only time is left to pass: up to the host's wake-up
                const auto due = *m_host->nextWakeUp();
                if (due > m_clock.steadyNow())
                    m_clock.pass(std::chrono::ceil<std::chrono::milliseconds>(due - m_clock.steadyNow()));
            } else {
                m_tasks.runOne();
            }
            fireWakeUp();
            if (QString e = books(); !e.isEmpty())
                return u"draining: %1"_s.arg(e);
            if (QString e = starvation(); !e.isEmpty())
                return u"draining (%1): %2"_s.arg(policyName(), e);
        }
        return settled();
    }

private:
    bool chance(double p) { return std::bernoulli_distribution(p)(m_rng); }
    QString anyEngine() { return m_engines.at(std::uniform_int_distribution<int>(0, int(m_engines.size()) - 1)(m_rng)); }

    QString policyName() const
    {
        QString power;
        if (!m_power.idleStopAfter.isEmpty() || m_power.canWake)
            power = u"; idle stop of %1 engine(s), sleeps %2, wakes %3 within %4 s"_s.arg(m_power.idleStopAfter.size())
                        .arg(m_power.sleeps).arg(m_power.canWake).arg(m_power.wakeTimeout.count() / 1000);
        if (m_scheduling.policy == SchedulingConfig::Policy::Arrival)
            return u"arrival"_s + power;
        return u"batch, dwell %1 ms, max wait %2 ms, side calls %3 ms"_s.arg(m_scheduling.dwell.count())
                   .arg(m_scheduling.maxWait.count()).arg(m_scheduling.sideCallMaxWait.count())
            + power;
    }

    // The host's wake-up timer, in virtual time: it fires once the clock has reached it.
    void fireWakeUp()
    {
        const auto due = m_host->nextWakeUp();
        if (due && *due <= m_clock.steadyNow())
            m_host->wakeUp();
    }

    std::chrono::steady_clock::time_point deadline(const Request &r) const
    {
        return r.since + m_scheduling.waitLimit(r.sideCall);
    }

    bool overdue(const Request &r) const
    {
        return m_clock.steadyNow() >= deadline(r);
    }

    // Empty while no one starves (batch only: arrival order starves no one by construction).
    QString starvation() const
    {
        if (!m_starved.isEmpty())
            return m_starved;
        if (m_scheduling.policy != SchedulingConfig::Policy::Batch)
            return {};
        const Request *oldest = nullptr;   // the waiter whose limit comes first
        for (const auto &r : m_requests) {
            if (!r->over && !r->admitted && r->since != std::chrono::steady_clock::time_point()
                && (!oldest || deadline(*r) < deadline(*oldest)))
                oldest = r.get();
        }
        if (!oldest || m_host->state() != HostStateMachine::State::Serving)
            return {};
        const auto due = m_host->nextWakeUp();
        if (!due)
            return u"serving on engine %1 while a request for %2 waits, and no wake-up armed"_s
                .arg(m_host->currentEngine(), oldest->engine);
        if (*due > deadline(*oldest))
            return u"wake-up armed after a waiter (%1) reaches its wait limit"_s.arg(oldest->sideCall ? u"side call"_s : u"turn"_s);
        if (*due <= m_clock.steadyNow())
            return u"a wake-up due now was not acted on"_s;
        return {};
    }

    void act()
    {
        const int what = std::uniform_int_distribution<int>(0, 109)(m_rng);
        if (what >= 100) {
            m_clock.pass(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 20000)(m_rng)));
            return;
        }
        if (what < 40)
            newRequest();
        else if (what < 75 && !m_tasks.empty())
            m_tasks.runOne();
        else if (what < 82)
            cutSomeone();
        else if (what < 87)
            command();
        else if (what < 91)
            lease();
        else if (what < 94)
            m_host->releaseLease();
        else if (what < 96)
            m_driver->crash();
        else if (what < 97)
            m_driver->offline = !m_driver->offline;   // the box goes to sleep, or comes back
        else
            m_host->start();   // probe again
    }

    void newRequest()
    {
        auto r = std::make_shared<Request>();
        r->engine = anyEngine();
        r->sideCall = chance(0.3);
        const int ending = std::uniform_int_distribution<int>(0, 2)(m_rng);
        r->ending = Request::Ending(ending);
        r->ticket = m_host->newTicket();
        r->since = m_clock.steadyNow();
        m_requests.append(r);
        if (chance(0.05)) {   // the client left before the host was even asked
            r->cut = true;
            r->ticket.release();
            r->over = true;
        }
        std::weak_ptr<Request> weak = r;
        m_arriving = r.get();
        m_host->request(r->ticket, {r->engine, r->engine + u"-model"_s, u"fuzz"_s, {}, {}, r->sideCall},
                        [this, weak] { admitted(weak.lock()); },
                        [weak](const HostRefusal &) {
                            auto r = weak.lock();
                            ++r->answers;
                            r->refused = true;
                            r->over = true;
                            r->ticket.release();   // as ProxiedRequest::refuse concludes
                        });
        m_arriving = nullptr;
    }

    void admitted(const std::shared_ptr<Request> &r)
    {
        r->admitted = true;
        if (r.get() == m_arriving && m_scheduling.policy == SchedulingConfig::Policy::Batch) {
            // Admitted on its own arrival: it must not pass a request that has waited max_wait.
            for (const auto &other : std::as_const(m_requests)) {
                if (other != r && !other->over && !other->admitted && other->since != std::chrono::steady_clock::time_point()
                    && overdue(*other) && m_starved.isEmpty())
                    m_starved = u"a request for %1 went ahead on arrival of one for %2 that has waited its limit"_s
                        .arg(r->engine, other->engine);
            }
        }
        switch (r->ending) {
        case Request::Ending::InsideAdmission:   // a local answer: over before request() returns
            ++r->answers;
            r->over = true;
            r->ticket.release();
            break;
        case Request::Ending::Later:
            m_tasks.later([r] {
                if (r->over)
                    return;
                ++r->answers;
                r->over = true;
                r->ticket.release();
            });
            break;
        case Request::Ending::CutRunning:
            m_tasks.later([r] {
                if (r->over)
                    return;
                r->cut = true;
                r->over = true;
                r->ticket.release();
            });
            break;
        }
    }

    void cutSomeone()
    {
        for (const auto &r : std::as_const(m_requests)) {
            if (!r->over && !r->admitted && chance(0.5)) {   // a client that leaves while waiting
                r->cut = true;
                r->over = true;
                r->ticket.release();
                return;
            }
        }
    }

    void command()
    {
        auto c = std::make_shared<Command>();
        m_commands.append(c);
        m_host->switchEngine(chance(0.1) ? u"nope"_s : anyEngine(), u"fuzz"_s, [c](const std::optional<HostRefusal> &refused) {
            ++c->done;
            c->status = refused ? refused->status() : 200;
        });
    }

    void lease()
    {
        auto c = std::make_shared<Command>();
        m_leases.append(c);
        m_host->takeLease(chance(0.8) ? u"fuzz"_s : u"other"_s, std::chrono::hours(1), [c](const std::optional<HostRefusal> &refused) {
            ++c->done;
            c->status = refused ? refused->status() : 200;
        });
    }

    QString books() const
    {
        if (!m_broken.isEmpty())
            return m_broken;
        if (QString e = m_host->bookkeepingError(); !e.isEmpty())
            return e;
        int running = 0, waiting = 0;
        for (const auto &r : m_requests) {
            if (r->answers > 1)
                return u"a request got %1 answers"_s.arg(r->answers);
            if (r->over)
                continue;
            if (r->admitted)
                ++running;
            else
                ++waiting;
        }
        for (const auto &c : m_commands) {
            if (c->done > 1)
                return u"a switch command was answered %1 times"_s.arg(c->done);
            if (c->done == 0)
                ++waiting;   // a command queues like a request until its engine is up
        }
        for (const auto &l : m_leases) {
            if (l->done > 1)
                return u"a lease asked for was answered %1 times"_s.arg(l->done);
        }
        if (m_host->runningRequests() != running)
            return u"host counts %1 running, %2 are"_s.arg(m_host->runningRequests()).arg(running);
        if (m_host->waitingRequests() != waiting)
            return u"host counts %1 waiting, %2 are"_s.arg(m_host->waitingRequests()).arg(waiting);
        return {};
    }

    QString settled() const
    {
        if (m_host->runningRequests() || m_host->waitingRequests())
            return u"settled with running %1, waiting %2 (state %3)"_s.arg(m_host->runningRequests())
                .arg(m_host->waitingRequests()).arg(m_host->stateName());
        if (m_host->state() == HostStateMachine::State::Draining || m_host->state() == HostStateMachine::State::Switching
            || m_host->state() == HostStateMachine::State::Waking)
            return u"settled in state %1 with nothing left to happen"_s.arg(m_host->stateName());
        for (const auto &r : m_requests) {
            if (!r->over)
                return u"a request for %1 was never answered (admitted %2)"_s.arg(r->engine).arg(r->admitted);
            if (!r->cut && r->answers != 1)
                return u"a request got %1 answers"_s.arg(r->answers);
        }
        for (const auto &c : m_commands) {
            if (c->done != 1)
                return u"a switch command was answered %1 times"_s.arg(c->done);
        }
        for (const auto &l : m_leases) {
            if (l->done != 1)
                return u"a lease asked for was answered %1 times"_s.arg(l->done);
        }
        return {};
    }

    const QStringList m_engines{u"a"_s, u"b"_s, u"c"_s};
    VirtualClock m_clock;
    SchedulingConfig m_scheduling;
    HostStateMachine::Power m_power;
    QString m_broken;   // an invariant seen broken inside a step
    const Request *m_arriving = nullptr;
    QString m_starved;
    std::mt19937_64 m_rng;
    Tasks m_tasks;
    UpstreamPool m_pool;
    std::unique_ptr<Catalog> m_catalog;
    ScriptedDriver *m_driver = nullptr;
    std::unique_ptr<HostController> m_host;
    QList<std::shared_ptr<Request>> m_requests;
    QList<std::shared_ptr<Command>> m_commands;
    QList<std::shared_ptr<Command>> m_leases;
};

} // namespace

class TestHostInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySequenceSettlesWithBalancedBooks();
    void aTicketReleasedTwiceOrAfterItsHostIsGoneIsHarmless();
};

void TestHostInvariants::everySequenceSettlesWithBalancedBooks()
{
    if (qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SEED")) {
        const quint64 seed = qgetenv("SWITCHYARD_FUZZ_SEED").toULongLong();
        const QString failure = Sequence(seed).run();
        QVERIFY2(failure.isEmpty(), qPrintable(u"seed %1: %2"_s.arg(seed).arg(failure)));
        return;
    }
    const int seconds = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SECONDS")
        ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 8;
    const quint64 base = std::random_device{}();
    QElapsedTimer clock;
    clock.start();
    int sequences = 0;
    while (clock.elapsed() < seconds * 1000 || sequences < 2000) {
        const quint64 seed = base + quint64(sequences);
        const QString failure = Sequence(seed).run();
        if (!failure.isEmpty())
            QFAIL(qPrintable(u"seed %1: %2 (replay: SWITCHYARD_FUZZ_SEED=%1 %3)"_s.arg(seed).arg(failure)
                                 .arg(QCoreApplication::applicationFilePath())));
        ++sequences;
        if (clock.elapsed() > 60 * 1000)
            break;   // a slow machine still stops
    }
    qInfo("%d random sequences, every one settled with balanced books; %d idle stops, %d wakes, %d wake timeouts",
          sequences, reached.idleStops, reached.woke, reached.wakeTimeouts);
    QVERIFY(sequences >= 1000);
    QVERIFY(reached.idleStops > 0 && reached.woke > 0 && reached.wakeTimeouts > 0);
}

void TestHostInvariants::aTicketReleasedTwiceOrAfterItsHostIsGoneIsHarmless()
{
    std::mt19937_64 rng(1);
    Tasks tasks(rng);
    Config config;
    HostConfig hostConfig;
    hostConfig.name = u"h"_s;
    EngineConfig e;
    e.name = u"a"_s;
    e.url = QUrl(u"http://127.0.0.1:9"_s);
    hostConfig.engines.append(e);
    config.hosts.append(hostConfig);
    UpstreamPool pool;
    Catalog catalog(config, &pool);
    auto host = std::make_unique<HostController>(u"h"_s, std::make_unique<ScriptedDriver>(tasks, rng), &catalog);
    HostTicket first = host->newTicket();
    HostTicket moved = std::move(first);
    QVERIFY(!first.isHeld());
    QVERIFY(moved.isHeld());
    moved.release();
    moved.release();
    QVERIFY(!moved.isHeld());
    HostTicket orphan = host->newTicket();
    host.reset();   // a reload removed the host
    orphan.release();
    QVERIFY(!orphan.isHeld());
}

QTEST_GUILESS_MAIN(TestHostInvariants)
#include "tst_hostinvariants.moc"
