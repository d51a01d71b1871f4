// Issue 33, randomized: three relays' host controllers and one agent's BoxArbiter in one
// process, talking agent protocol 2 over loopback HTTP, the box's engines pretend ones. Each
// sequence draws requests from every relay (engine, duration), leases, failed starts, relay
// kills and agent restarts from its seed. Invariants:
//   - no cut stream: an engine is never stopped (or switched away) while a request of any
//     relay runs on it;
//   - one answer per request (admitted or refused, once), unless its relay died first;
//   - the box switches no more often than arrival order would, as if one relay served everyone;
//   - nothing leaks: every relay's running and waiting counts and the agent's holds end at 0,
//     and every controller's books balance.
// A failure prints its seed and what happened; SWITCHYARD_FUZZ_SEED=N replays that one sequence,
// SWITCHYARD_FUZZ_SECONDS bounds the run (default 25: a few thousand sequences, eight at a time).
// The real processes (three relays, two agents) get the same invariants in tst_sharedbox.

#include "engines/agentdriver.h"
#include "engines/boxprotocol.h"
#include "engines/enginedriver.h"
#include "hosts/boxarbiter.h"
#include "hosts/hostcontroller.h"
#include "http/httpserver.h"
#include "http/incomingrequest.h"
#include "http/requesthandler.h"
#include "http/responsewriter.h"
#include "upstream/upstreampool.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QThread>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <functional>
#include <memory>
#include <random>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

const QStringList Engines = {u"alpha"_s, u"beta"_s, u"gamma"_s};

// This thread's events for `ms` milliseconds, without sleeping in between: QTest::qWait sleeps
// between its rounds of events, and every loopback round trip then cost a millisecond or more.
void spinFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

// This thread's events until `done` holds (looked at every millisecond) or `limitMs` has passed.
bool spinUntil(const std::function<bool()> &done, int limitMs)
{
    if (done())
        return true;
    QEventLoop loop;
    QTimer look;
    look.setTimerType(Qt::PreciseTimer);
    look.setInterval(1);
    QObject::connect(&look, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    look.start();
    QTimer::singleShot(limitMs, Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

// The box's engines: a start or stop takes a few milliseconds; a start may fail. Before any
// engine goes down, `beforeStop` checks that nobody streams from it.
class PretendEngines final : public EngineDriver
{
public:
    std::function<void(const QString &engine)> beforeStop;
    std::function<bool()> nextStartFails;
    std::function<void(const QString &)> note;   // the sequence's trail
    int starts = 0;

    void startEngine(const QString &engine) override
    {
        ++starts;
        if (!m_running.isEmpty() && m_running != engine && beforeStop)
            beforeStop(m_running);
        m_running.clear();
        const bool fails = nextStartFails && nextStartFails();
        if (note)
            note(u"box starts %1%2"_s.arg(engine, fails ? u" (fails)"_s : QString()));
        QTimer::singleShot(2, this, [this, engine, fails] {
            if (fails) {
                emit engineStartFailed(engine, EngineFailure(u"exited with code 1"_s));
                return;
            }
            m_running = engine;
            emit engineStarted(engine);
        });
    }
    void stopEngine(const QString &engine) override
    {
        if (beforeStop)
            beforeStop(engine);
        QTimer::singleShot(1, this, [this, engine] {
            if (m_running == engine)
                m_running.clear();
            emit engineStopped(engine);
        });
    }
    void probe() override
    {
        QTimer::singleShot(0, this, [this] { emit statusKnown(m_running); });
    }
    QString runningEngine() const override { return m_running; }
    bool canSwitch() const override { return true; }
    QStringList engineNames() const override { return Engines; }

private:
    QString m_running;
};

// What `switchyard agent` serves of protocol 2, in this process: the arbiter's paths and a status.
class PretendAgent final : public QObject, public RequestHandler
{
public:
    PretendAgent(PretendEngines *engines, const SchedulingConfig &scheduling)
        : m_server(ServerLimits(), this, nullptr)
        , m_arbiter(std::unique_ptr<EngineDriver>(engines), u"box"_s, scheduling)
    {
    }
    bool listen(quint16 port) { return m_server.listenOn(QHostAddress::LocalHost, port); }
    quint16 port() const { return m_server.port(); }
    BoxArbiter &arbiter() { return m_arbiter; }
    // Hears the engine of every place asked for, in the order the requests reach the box.
    std::function<void(const QString &engine)> heard;

    void handleRequest(const IncomingRequest &request, ResponseWriter *writer) override
    {
        if (request.path == QLatin1StringView(BoxProtocol::HoldPath) && heard)
            heard(QJsonDocument::fromJson(request.body).object().value("engine"_L1).toString());
        if (m_arbiter.handles(request.path)) {
            m_arbiter.handle(request, writer);
            return;
        }
        if (request.path == "/agent/status"_L1) {
            const QJsonObject box = m_arbiter.boxJson();
            const QJsonObject status{{"protocol"_L1, 2}, {"engine"_L1, box.value("engine"_L1)}, {"box"_L1, box}};
            writer->respond(200, {{"Content-Type", "application/json"}}, QJsonDocument(status).toJson(QJsonDocument::Compact));
            return;
        }
        writer->respond(404, {{"Content-Type", "application/json"}}, R"({"error":{"message":"no such path"}})");
    }

private:
    // The arbiter goes first, as in `switchyard agent`: its places are gone before connections close.
    HttpServer m_server;
    BoxArbiter m_arbiter;
};

// Counted by every worker thread.
struct Reached
{
    std::atomic<int> requests = 0;
    std::atomic<int> admitted = 0;
    std::atomic<int> refused = 0;
    std::atomic<int> leases = 0;
    std::atomic<int> relayKills = 0;
    std::atomic<int> agentRestarts = 0;
    std::atomic<int> switches = 0;
    std::atomic<qint64> slowestMs = 0;   // the longest sequence
};
Reached reached;

class Sequence
{
public:
    explicit Sequence(quint64 seed) : m_rng(seed) {}

    QString run();

private:
    struct Request
    {
        int relay = 0;
        int relayLife = 0;   // which incarnation of the relay sent it
        int agentLife = 0;   // and of the agent
        QString engine;
        int durationMs = 0;
        int number = 0;
        int answers = 0;
        bool admitted = false;
        bool running = false;
        bool relayDied = false;
        HostTicket ticket;
    };
    struct Relay
    {
        std::unique_ptr<HostController> host;
        int life = 0;
    };

    int draw(int below) { return int(std::uniform_int_distribution<int>(0, below - 1)(m_rng)); }
    void startAgent(quint16 port);
    std::unique_ptr<HostController> newRelay(int index);
    void send(int index);
    void fail(const QString &why)
    {
        if (m_failure.isEmpty())
            m_failure = why;
    }
    int runningOn(const QString &engine) const;

    std::mt19937_64 m_rng;
    UpstreamPool m_pool;
    std::unique_ptr<PretendAgent> m_agent;
    PretendEngines *m_engines = nullptr;
    SchedulingConfig m_scheduling;
    quint16 m_port = 0;
    Relay m_relays[3];
    std::vector<std::unique_ptr<Request>> m_requests;
    QString m_failure;
    int m_startsBefore = 0;   // engine starts of agents that were restarted
    int m_agentLife = 0;
    int m_leases = 0;
    int m_restarts = 0;
    int m_answers = 0;   // admissions and refusals so far
    QStringList m_trail;   // what happened, for a failure's message
    QStringList m_arrivals;   // the engine of each request, in the order its place was asked for at the box
    QObject m_context;   // last, so it goes first: no timer of this sequence fires after it
};

int Sequence::runningOn(const QString &engine) const
{
    int n = 0;
    for (const auto &r : m_requests)
        n += r->running && r->engine == engine ? 1 : 0;
    return n;
}

void Sequence::startAgent(quint16 port)
{
    if (m_engines)
        m_startsBefore += m_engines->starts;
    // The old agent's engines go down with it (as `switchyard agent` stops them on exit):
    // whatever ran on them is over, whatever their relays still think.
    for (auto &r : m_requests)
        r->running = false;
    m_agent.reset();
    ++m_agentLife;
    m_engines = new PretendEngines;
    m_engines->beforeStop = [this](const QString &engine) {
        if (const int n = runningOn(engine))
            fail(u"engine %1 stopped while %2 request(s) streamed from it"_s.arg(engine).arg(n));
    };
    m_engines->nextStartFails = [this] { return draw(12) == 0; };
    m_engines->note = [this](const QString &line) { m_trail.append(line); };
    m_agent = std::make_unique<PretendAgent>(m_engines, m_scheduling);
    m_agent->heard = [this](const QString &engine) {
        m_arrivals.append(engine);
        m_trail.append(u"the box hears of a request for %1"_s.arg(engine));
    };
    if (!m_agent->listen(port))
        fail(u"the agent cannot listen on port %1"_s.arg(port));
    m_port = m_agent->port();
}

std::unique_ptr<HostController> Sequence::newRelay(int index)
{
    HostConfig host;
    host.name = u"box"_s;
    host.driver = u"agent"_s;
    host.agent = QUrl(u"http://127.0.0.1:%1"_s.arg(m_port));
    for (const QString &name : Engines) {
        EngineConfig e;
        e.name = name;
        host.engines.append(e);
    }
    auto driver = std::make_unique<AgentDriver>(host, QString(), &m_pool, std::chrono::seconds(2));
    auto controller = std::make_unique<HostController>(u"box"_s, std::move(driver), nullptr);
    controller->setRelayName(u"relay%1"_s.arg(index));
    controller->start();
    return controller;
}

void Sequence::send(int index)
{
    auto request = std::make_unique<Request>();
    Request *r = request.get();
    r->relay = index;
    r->relayLife = m_relays[index].life;
    r->agentLife = m_agentLife;
    r->engine = Engines.at(draw(Engines.size()));
    r->durationMs = draw(8);
    r->ticket = m_relays[index].host->newTicket();
    m_trail.append(u"request %1 from relay%2 for %3"_s.arg(m_requests.size()).arg(index).arg(r->engine));
    r->number = int(m_requests.size());
    m_requests.push_back(std::move(request));
    ++reached.requests;
    HostController::RequestInfo info{r->engine, r->engine, u"127.0.0.1"_s, u"test"_s, {}};
    m_relays[index].host->request(
        r->ticket, info,
        [this, r] {
            ++r->answers;
            ++m_answers;
            m_trail.append(u"request %1 admitted"_s.arg(r->number));
            ++reached.admitted;
            r->admitted = true;
            if (r->agentLife != m_agentLife) {
                // Admitted by an agent that is gone now, its engines with it: the request is over.
                QTimer::singleShot(r->durationMs, &m_context, [r] { r->ticket.release(); });
                return;
            }
            // The box must run this engine now, and keep it until the request is over.
            if (m_engines->runningEngine() != r->engine)
                fail(u"a request for %1 was admitted while the box ran %2"_s.arg(r->engine, m_engines->runningEngine()));
            r->running = true;
            QTimer::singleShot(r->durationMs, &m_context, [r] {
                r->running = false;
                r->ticket.release();
            });
        },
        [this, r](const HostRefusal &) {
            ++r->answers;
            ++m_answers;
            m_trail.append(u"request %1 refused"_s.arg(r->number));
            ++reached.refused;
            r->ticket.release();
        });
}

QString Sequence::run()
{
    m_scheduling.policy = draw(2) ? SchedulingConfig::Policy::Batch : SchedulingConfig::Policy::Arrival;
    m_scheduling.dwell = std::chrono::milliseconds(draw(4));
    m_scheduling.maxWait = std::chrono::milliseconds(5 + draw(20));
    startAgent(0);
    for (int i = 0; i < 3; ++i)
        m_relays[i].host = newRelay(i);
    // Every relay has heard that the agent arbitrates before the first request.
    const bool ready = spinUntil([this] {
        for (const Relay &relay : m_relays) {
            if (relay.host->box().isEmpty())
                return false;
        }
        return true;
    }, 5000);
    if (!ready)
        return u"a relay never saw the box's events"_s;

    const int steps = 6 + draw(14);
    for (int step = 0; step < steps && m_failure.isEmpty(); ++step) {
        const int what = draw(100);
        const int index = draw(3);
        if (what < 80) {
            send(index);
        } else if (what < 88) {
            // A lease from one relay, released a moment after it is granted (or refused).
            ++reached.leases;
            m_trail.append(u"lease from relay%1"_s.arg(index));
            ++m_leases;
            QPointer<HostController> host = m_relays[index].host.get();
            host->takeLease(u"trainer"_s, std::chrono::seconds(5), [this, host](const std::optional<HostRefusal> &why) {
                if (!why) {
                    for (const auto &r : m_requests) {
                        if (r->running)
                            fail(u"a lease was granted while a request for %1 streamed"_s.arg(r->engine));
                    }
                }
                QTimer::singleShot(draw(4), &m_context, [host] {
                    if (host)
                        host->releaseLease();
                });
            });
        } else if (what < 96) {
            // The relay dies: its connections close, its requests are over for everyone.
            ++reached.relayKills;
            m_trail.append(u"relay%1 killed"_s.arg(index));
            for (auto &r : m_requests) {
                if (r->relay == index && r->relayLife == m_relays[index].life) {
                    r->relayDied = true;
                    r->running = false;
                }
            }
            m_relays[index].host.reset();
            ++m_relays[index].life;
            m_relays[index].host = newRelay(index);
        } else {
            ++reached.agentRestarts;
            m_trail.append(u"agent restarted"_s);
            ++m_restarts;
            for (auto &r : m_requests)
                r->agentLife = -1;   // whatever they were admitted by, it is gone
            startAgent(m_port);
        }
        // Mostly the next step comes while this one's messages are still on their way (only
        // what has arrived is handled); else it waits a few milliseconds, cut short when any
        // request is answered, so the steps land next to admissions, refusals and switches.
        if (draw(2)) {
            const int answered = m_answers;
            spinUntil([this, answered] { return m_answers != answered || !m_failure.isEmpty(); }, 1 + draw(5));
        } else {
            spinFor(0);
        }
    }

    // Every request answered once (unless its relay died first), and nothing left anywhere.
    // The sequence ends as soon as it is at rest.
    auto settled = [this] {
        for (const auto &r : m_requests) {
            if (!r->relayDied && (r->answers == 0 || r->ticket.isHeld()))
                return false;
        }
        for (const Relay &relay : m_relays) {
            if (relay.host->runningRequests() + relay.host->waitingRequests() > 0)
                return false;
        }
        return m_agent->arbiter().holds() == 0;
    };
    spinUntil([&] { return settled() || !m_failure.isEmpty(); }, 10000);
    if (!m_failure.isEmpty())
        return m_failure;
    for (const auto &r : m_requests) {
        if (r->answers > 1)
            return u"a request for %1 was answered %2 times"_s.arg(r->engine).arg(r->answers);
        if (!r->relayDied && r->answers == 0)
            return u"a request for %1 from relay%2 was never answered"_s.arg(r->engine).arg(r->relay);
        if (!r->relayDied && r->ticket.isHeld())
            return u"a request for %1 from relay%2 never ended"_s.arg(r->engine).arg(r->relay);
    }
    for (int i = 0; i < 3; ++i) {
        const HostController &host = *m_relays[i].host;
        if (host.runningRequests() || host.waitingRequests())
            return u"relay%1 still counts %2 running and %3 waiting"_s.arg(i).arg(host.runningRequests()).arg(host.waitingRequests());
        if (!host.bookkeepingError().isEmpty())
            return host.bookkeepingError();
    }
    if (m_agent->arbiter().holds() != 0)
        return u"the agent still holds %1 place(s)"_s.arg(m_agent->arbiter().holds());
    if (!m_agent->arbiter().controller()->bookkeepingError().isEmpty())
        return m_agent->arbiter().controller()->bookkeepingError();
    // As if one relay had served everyone in the order the requests reached the box (sent in
    // the same instant through different relays, they may reach it in either order): a switch
    // per change of engine (and one more per failed start, which a later request retries), at most.
    int changes = 0;
    int failures = 0;
    QString last;
    for (const QString &engine : std::as_const(m_arrivals)) {
        if (engine != last)
            ++changes;
        last = engine;
    }
    for (const auto &r : m_requests)
        failures += r->answers == 1 && !r->admitted ? 1 : 0;
    const int starts = m_startsBefore + m_engines->starts;
    reached.switches += starts;
    if (starts > changes + failures + m_restarts + m_leases + 1)
        return u"%1 engine starts for %2 changes of engine in arrival order (%3 policy, dwell %4 ms, max wait %5 ms):\n  %6"_s
            .arg(starts)
            .arg(changes)
            .arg(m_scheduling.policy == SchedulingConfig::Policy::Batch ? u"batch"_s : u"arrival"_s)
            .arg(m_scheduling.dwell.count())
            .arg(m_scheduling.maxWait.count())
            .arg(m_trail.join(u"\n  "_s));
    return {};
}

} // namespace

class TestSharedBoxInvariants : public QObject
{
    Q_OBJECT

private slots:
    // Thousands of leases and switches would log thousands of lines: QtTest stops printing after
    // its message limit, and the summary below would be lost with them.
    void initTestCase() { QLoggingCategory::setFilterRules(u"switchyard.*.debug=false\nswitchyard.*.info=false"_s); }
    void everyRelaysRequestsSettleWithoutACutStream();
};

void TestSharedBoxInvariants::everyRelaysRequestsSettleWithoutACutStream()
{
    if (qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SEED")) {
        const quint64 seed = qgetenv("SWITCHYARD_FUZZ_SEED").toULongLong();
        const QString failure = Sequence(seed).run();
        QVERIFY2(failure.isEmpty(), qPrintable(u"seed %1: %2"_s.arg(seed).arg(failure)));
        return;
    }
    const int seconds = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SECONDS")
        ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 25;
    const quint64 base = std::random_device{}();
    // Sequences share nothing (each has its own agent, relays and ports) and spend most of their
    // time waiting on timers and loopback: several run side by side, each in a thread of its own.
    constexpr int Workers = 8;
    QElapsedTimer clock;
    clock.start();
    std::atomic<quint64> next = 0;
    std::atomic<int> sequences = 0;
    std::atomic<bool> stop = false;
    QMutex lock;
    QString failure;
    quint64 failedSeed = 0;
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < Workers; ++i) {
        workers.emplace_back(QThread::create([&] {
            while (!stop && clock.elapsed() < seconds * 1000) {
                const quint64 seed = base + next++;
                QElapsedTimer took;
                took.start();
                const QString why = Sequence(seed).run();
                qint64 slowest = reached.slowestMs;
                while (took.elapsed() > slowest && !reached.slowestMs.compare_exchange_weak(slowest, took.elapsed())) {
                }
                if (!why.isEmpty()) {
                    const QMutexLocker locked(&lock);
                    if (failure.isEmpty()) {
                        failure = why;
                        failedSeed = seed;
                    }
                    stop = true;
                    return;
                }
                ++sequences;
            }
        }));
        workers.back()->start();
    }
    for (const auto &worker : workers)
        worker->wait();
    if (!failure.isEmpty())
        QFAIL(qPrintable(u"seed %1: %2 (replay: SWITCHYARD_FUZZ_SEED=%1 %3)"_s.arg(failedSeed).arg(failure)
                             .arg(QCoreApplication::applicationFilePath())));
    qInfo("%d random sequences in %.1f s (%d threads): %d requests (%d admitted, %d refused), %d leases, %d relay "
          "kills, %d agent restarts, %d engine starts, slowest sequence %lld ms; no stream cut, every request answered once, "
          "nothing leaked",
          sequences.load(), double(clock.elapsed()) / 1000.0, Workers, reached.requests.load(), reached.admitted.load(),
          reached.refused.load(), reached.leases.load(), reached.relayKills.load(), reached.agentRestarts.load(),
          reached.switches.load(), reached.slowestMs.load());
    QVERIFY(sequences >= 100);
    QVERIFY(reached.relayKills > 0 && reached.agentRestarts > 0 && reached.leases > 0);
}

QTEST_GUILESS_MAIN(TestSharedBoxInvariants)
#include "tst_sharedboxinvariants.moc"
