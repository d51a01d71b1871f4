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
// A failure prints its seed; SWITCHYARD_FUZZ_SEED=N replays that one sequence,
// SWITCHYARD_FUZZ_SECONDS bounds the run (default 20).

#include "engines/agentdriver.h"
#include "engines/enginedriver.h"
#include "hosts/boxarbiter.h"
#include "hosts/hostcontroller.h"
#include "http/httpserver.h"
#include "http/incomingrequest.h"
#include "http/requesthandler.h"
#include "http/responsewriter.h"
#include "upstream/upstreampool.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTimer>
#include <QtTest>

#include <memory>
#include <random>

using namespace switchyard;
using namespace Qt::StringLiterals;

namespace {

const QStringList Engines = {u"alpha"_s, u"beta"_s, u"gamma"_s};

// The box's engines: a start or stop takes a few milliseconds; a start may fail. Before any
// engine goes down, `beforeStop` checks that nobody streams from it.
class PretendEngines final : public EngineDriver
{
public:
    std::function<void(const QString &engine)> beforeStop;
    std::function<bool()> nextStartFails;
    int starts = 0;

    void startEngine(const QString &engine) override
    {
        ++starts;
        if (!m_running.isEmpty() && m_running != engine && beforeStop)
            beforeStop(m_running);
        m_running.clear();
        const bool fails = nextStartFails && nextStartFails();
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

    void handleRequest(const IncomingRequest &request, ResponseWriter *writer) override
    {
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

struct Reached
{
    int sequences = 0;
    int requests = 0;
    int admitted = 0;
    int refused = 0;
    int leases = 0;
    int relayKills = 0;
    int agentRestarts = 0;
    int switches = 0;
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
    m_agent = std::make_unique<PretendAgent>(m_engines, m_scheduling);
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
    m_requests.push_back(std::move(request));
    ++reached.requests;
    HostController::RequestInfo info{r->engine, r->engine, u"127.0.0.1"_s, u"test"_s, {}};
    m_relays[index].host->request(
        r->ticket, info,
        [this, r] {
            ++r->answers;
            ++reached.admitted;
            r->admitted = true;
            if (r->agentLife != m_agentLife)
                return;   // admitted by an agent that is gone now, its engines with it
            // The box must run this engine now, and keep it until the request is over.
            if (m_engines->runningEngine() != r->engine)
                fail(u"a request for %1 was admitted while the box ran %2"_s.arg(r->engine, m_engines->runningEngine()));
            r->running = true;
            QTimer::singleShot(r->durationMs, &m_context, [r] {
                r->running = false;
                r->ticket.release();
            });
        },
        [r](const HostRefusal &) {
            ++r->answers;
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
    QElapsedTimer ready;
    ready.start();
    while (ready.elapsed() < 5000) {
        bool all = true;
        for (const Relay &relay : m_relays)
            all = all && !relay.host->box().isEmpty();
        if (all)
            break;
        QTest::qWait(1);
    }
    for (const Relay &relay : m_relays) {
        if (relay.host->box().isEmpty())
            return u"a relay never saw the box's events"_s;
    }

    const int steps = 6 + draw(14);
    for (int step = 0; step < steps && m_failure.isEmpty(); ++step) {
        const int what = draw(100);
        const int index = draw(3);
        if (what < 80) {
            send(index);
        } else if (what < 88) {
            // A lease from one relay, released a moment after it is granted (or refused).
            ++reached.leases;
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
            ++m_restarts;
            for (auto &r : m_requests)
                r->agentLife = -1;   // whatever they were admitted by, it is gone
            startAgent(m_port);
        }
        QTest::qWait(draw(6));
    }

    // Every request answered once (unless its relay died first), and nothing left anywhere.
    QElapsedTimer settle;
    settle.start();
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
    while (!settled() && settle.elapsed() < 10000 && m_failure.isEmpty())
        QTest::qWait(2);
    if (!m_failure.isEmpty())
        return m_failure;
    for (const auto &r : m_requests) {
        if (r->answers > 1)
            return u"a request for %1 was answered %2 times"_s.arg(r->engine).arg(r->answers);
        if (!r->relayDied && r->answers == 0)
            return u"a request for %1 from relay%2 was never answered"_s.arg(r->engine).arg(r->relay);
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
    // As if one relay had served everyone in arrival order: a switch per change of engine (and
    // one more per failed start, which a later request retries), at most.
    int changes = 0;
    int failures = 0;
    QString last;
    for (const auto &r : m_requests) {
        if (r->engine != last)
            ++changes;
        last = r->engine;
        failures += r->answers == 1 && !r->admitted ? 1 : 0;
    }
    const int starts = m_startsBefore + m_engines->starts;
    reached.switches += starts;
    if (starts > changes + failures + m_restarts + m_leases + 1)
        return u"%1 engine starts for %2 changes of engine in arrival order"_s.arg(starts).arg(changes);
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
        ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 20;
    const quint64 base = std::random_device{}();
    QElapsedTimer clock;
    clock.start();
    int sequences = 0;
    while (clock.elapsed() < seconds * 1000) {
        const quint64 seed = base + quint64(sequences);
        const QString failure = Sequence(seed).run();
        if (!failure.isEmpty())
            QFAIL(qPrintable(u"seed %1: %2 (replay: SWITCHYARD_FUZZ_SEED=%1 %3)"_s.arg(seed).arg(failure)
                                 .arg(QCoreApplication::applicationFilePath())));
        ++sequences;
    }
    qInfo("%d random sequences: %d requests (%d admitted, %d refused), %d leases, %d relay kills, %d agent "
          "restarts, %d engine starts; no stream cut, every request answered once, nothing leaked",
          sequences, reached.requests, reached.admitted, reached.refused, reached.leases, reached.relayKills,
          reached.agentRestarts, reached.switches);
    QVERIFY(sequences >= 100);
    QVERIFY(reached.relayKills > 0 && reached.agentRestarts > 0 && reached.leases > 0);
}

QTEST_GUILESS_MAIN(TestSharedBoxInvariants)
#include "tst_sharedboxinvariants.moc"
