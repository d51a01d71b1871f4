// Issue 33: relays in front of `switchyard agent`s (real processes, fake routers as engines,
// loopback only). The agent arbitrates: no relay cuts another relay's stream, a switch waits for
// every relay's streams, a relay that dies gives its places back, and every relay reports the box
// as the agent sees it (/admin/hosts, /metrics, /v1/models); three relays in front of two boxes
// keep all of that.

#include "sharedboxhelpers.h"
#include "rawhttpclient.h"
#include "laterport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSysInfo>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

using namespace switchyard::test::sharedbox;

class TestSharedBox : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void twoRelaysTakeTurnsWithoutCuttingStreams();
    void switchWaitsForTheOtherRelaysStream();
    void aRelayThatDiesGivesItsPlacesBack();
    void everyRelayShowsTheSameBox();
    void threeRelaysTwoBoxes();
    void threeRelaysTwoBoxesUnderRandomTraffic();

private:
    // One GPU box: its agent and its two engines (alpha serves a1, beta serves b1).
    struct Box
    {
        QString name;   // the relays' host name for it
        std::unique_ptr<Child> agent;
        QUrl url;
        quint16 agentPort = 0;   // 0: any; a box whose agent restarts keeps its port
        quint16 alphaPort = 0;
        quint16 betaPort = 0;
        int startsBefore = 0;    // engine starts of its agents that were killed
        int engineStarts() const
        {
            return startsBefore + agent->count("engine alpha: starting") + agent->count("engine beta: starting");
        }
    };
    void startAgent(const QJsonObject &scheduling) { startAgentOf(m_box, scheduling); }
    void startAgentOf(Box &box, const QJsonObject &scheduling);
    quint16 startRelay(Child &relay, const QString &name) { return startRelayFor(relay, name, {&m_box}); }
    quint16 startRelayFor(Child &relay, const QString &name, const QList<const Box *> &boxes);
    // Each model of the relay's /v1/models with its status ("box-a1 loaded, box-b1 unloaded").
    QString modelStatuses(quint16 relayPort);
    // One box in arrival order and relays A and B: a stream of `tokens` on engine alpha through A
    // (its first bytes read), then a request for beta through B.
    void streamOnAThenAskOnB(Child &relayA, Child &relayB, quint16 *portA, quint16 *portB, std::unique_ptr<RawHttpClient> &a,
                             std::unique_ptr<RawHttpClient> &b, int tokens);
    int engineStarts() const { return m_box.engineStarts(); }

    std::unique_ptr<QTemporaryDir> m_dir;
    Box m_box;
    Box m_second;
};

void TestSharedBox::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    for (Box *box : {&m_box, &m_second}) {
        box->alphaPort = portForLater();
        box->betaPort = portForLater();
    }
    m_box.name = u"box"_s;
    m_second.name = u"box2"_s;
}

void TestSharedBox::cleanup()
{
    m_box.agent.reset();
    m_second.agent.reset();
    m_dir.reset();
}

// Two engines on the box: alpha serves a1, beta serves b1, each streaming 50 tokens a second.
void TestSharedBox::startAgentOf(Box &box, const QJsonObject &scheduling)
{
    auto engine = [](quint16 port, const QString &model) {
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)},
                           {"argv"_L1, QJsonArray{binary(u"switchyard-fakellama"_s), u"--port"_s, QString::number(port),
                                                  u"--models"_s, model, u"--loaded"_s, model,
                                                  u"--tokens-per-s"_s, u"50"_s}},
                           {"start_timeout_s"_L1, 20},
                           {"stop_timeout_s"_L1, 5}};
    };
    const QJsonObject config{{"listen"_L1, u"127.0.0.1:%1"_s.arg(box.agentPort)},
                             {"token"_L1, u"shared-box-token"_s},
                             {"state_dir"_L1, m_dir->filePath(box.name + u"-agent-state"_s)},
                             {"scheduling"_L1, scheduling},
                             {"engines"_L1, QJsonObject{{"alpha"_L1, engine(box.alphaPort, u"a1"_s)},
                                                        {"beta"_L1, engine(box.betaPort, u"b1"_s)}}}};
    const QString path = m_dir->filePath(box.name + u"-agent.json"_s);
    writeJson(path, config);
    box.agent = std::make_unique<Child>();
    Child &agent = *box.agent;
    agent.process.start(binary(u"switchyard"_s), {u"agent"_s, u"--config"_s, path});
    QVERIFY2(agent.process.waitForStarted(Timeout), qPrintable(agent.process.errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(agent.output.contains("listening on http://") || agent.process.state() != QProcess::Running,
                              agent.output.constData(), Timeout);
    QVERIFY2(agent.output.contains("agent protocol 2"), agent.output.constData());
    const QByteArray rest = agent.output.mid(agent.output.indexOf("listening on ") + 13);
    box.url = QUrl(QString::fromLatin1(rest.left(rest.indexOf(' '))));
    QVERIFY2(box.url.port() > 0, agent.output.constData());
}

quint16 TestSharedBox::startRelayFor(Child &relay, const QString &name, const QList<const Box *> &boxes)
{
    const quint16 port = portForLater();
    auto engine = [](quint16 enginePort, const QString &model) {
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)}, {"models"_L1, QJsonArray{model}}};
    };
    QJsonObject hosts;
    for (const Box *box : boxes) {
        hosts.insert(box->name, QJsonObject{{"driver"_L1, u"agent"_s},
                                            {"agent"_L1, box->url.toString()},
                                            {"token"_L1, u"shared-box-token"_s},
                                            {"engines"_L1, QJsonObject{{"alpha"_L1, engine(box->alphaPort, u"a1"_s)},
                                                                       {"beta"_L1, engine(box->betaPort, u"b1"_s)}}}});
    }
    const QJsonObject config{{"listen"_L1, u"127.0.0.1:%1"_s.arg(port)},
                             {"state_dir"_L1, m_dir->filePath(name + u"-state"_s)},
                             {"hosts"_L1, hosts}};
    const QString path = m_dir->filePath(name + u".json"_s);
    writeJson(path, config);
    return startHeadlessRelay(relay, path, m_dir->filePath(name + u"-home"_s)) ? port : 0;
}

// The issue's own trial: one agent per relay, each taking turns on its own engine. Through one
// relay all turns complete; through two, 6 of 16 failed before the agent arbitrated.
void TestSharedBox::twoRelaysTakeTurnsWithoutCuttingStreams()
{
    startAgent(QJsonObject{{"policy"_L1, u"batch"_s}, {"dwell_s"_L1, 0.2}, {"max_wait_s"_L1, 2}});
    if (QTest::currentTestFailed())
        return;
    Child relayA;
    Child relayB;
    const quint16 portA = startRelay(relayA, u"alice"_s);
    QVERIFY2(portA, relayA.output.constData());
    const quint16 portB = startRelay(relayB, u"bob"_s);
    QVERIFY2(portB, relayB.output.constData());

    constexpr int TurnsEach = 8;
    std::vector<TurnTaker> agents(2);
    agents[0].port = portA;
    agents[0].model = [](int) { return u"box-a1"_s; };
    agents[1].port = portB;
    agents[1].model = [](int) { return u"box-b1"_s; };
    QVERIFY2(takeTurns(agents, TurnsEach, 120000), "the turns did not end within 120 s");
    for (const TurnTaker &a : agents) {
        QCOMPARE(a.answers.size(), TurnsEach);
        for (int i = 0; i < a.answers.size(); ++i) {
            QVERIFY2(complete(a.answers.at(i)),
                     qPrintable(u"%1 turn %2: status %3, body %4\nagent:\n%5"_s.arg(a.model(i))
                                    .arg(i + 1)
                                    .arg(a.answers.at(i).status)
                                    .arg(QString::fromUtf8(a.answers.at(i).body.right(400)),
                                         QString::fromUtf8(m_box.agent->output.right(3000)))));
        }
    }
    // Each switch serves at least one waiting turn: never more starts than turns, and the box
    // was really shared (both engines ran).
    QVERIFY2(engineStarts() <= 2 * TurnsEach, m_box.agent->output.constData());
    QVERIFY2(m_box.agent->count("engine alpha: starting") >= 1 && m_box.agent->count("engine beta: starting") >= 1,
             m_box.agent->output.constData());
    // Both relays report the box as the agent sees it.
    QTRY_VERIFY_WITH_TIMEOUT(!adminHost(portA).value("engine"_L1).toString().isEmpty()
                                 && adminHost(portA).value("engine"_L1) == adminHost(portB).value("engine"_L1),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(adminHost(portA).value("box"_L1).toObject().value("holds"_L1).toArray().size(), 0, 10000);
}

void TestSharedBox::streamOnAThenAskOnB(Child &relayA, Child &relayB, quint16 *portA, quint16 *portB,
                                        std::unique_ptr<RawHttpClient> &a, std::unique_ptr<RawHttpClient> &b,
                                        int tokens)
{
    startAgent(QJsonObject{{"policy"_L1, u"arrival"_s}});
    if (QTest::currentTestFailed())
        return;
    *portA = startRelay(relayA, u"alice"_s);
    QVERIFY2(*portA, relayA.output.constData());
    *portB = startRelay(relayB, u"bob"_s);
    QVERIFY2(*portB, relayB.output.constData());
    a = std::make_unique<RawHttpClient>(*portA);
    QVERIFY(a->connectToServer());
    a->send(RawHttpClient::post("/v1/chat/completions", chat(u"box-a1"_s, tokens)));
    QTRY_VERIFY_WITH_TIMEOUT(a->current() && a->current()->body.contains("data: {"), Timeout);
    b = std::make_unique<RawHttpClient>(*portB);
    QVERIFY(b->connectToServer());
    b->send(RawHttpClient::post("/v1/chat/completions", chat(u"box-b1"_s, 5)));
}

// A stream on relay A, then a request for the other engine on relay B: the switch waits until
// A's stream has ended, and then relay A too reads the new engine.
void TestSharedBox::switchWaitsForTheOtherRelaysStream()
{
    Child relayA;
    Child relayB;
    quint16 portA = 0;
    quint16 portB = 0;
    std::unique_ptr<RawHttpClient> a;
    std::unique_ptr<RawHttpClient> b;
    streamOnAThenAskOnB(relayA, relayB, &portA, &portB, a, b, 100);   // about 2 s of tokens
    if (QTest::currentTestFailed())
        return;
    // Relay B's request waits at the agent, counted there for relay B.
    QTRY_COMPARE_WITH_TIMEOUT(adminHost(portA).value("box"_L1).toObject().value("waiting"_L1).toInt(), 1, 10000);

    QTRY_COMPARE_WITH_TIMEOUT(a->completedResponses(), 1, Timeout);
    QTRY_COMPARE_WITH_TIMEOUT(b->completedResponses(), 1, Timeout);
    QVERIFY2(complete(a->responses().first()), a->responses().first().body.right(400).constData());
    QVERIFY2(complete(b->responses().first()), b->responses().first().body.right(400).constData());
    // B's answer came after A's stream had ended: the engine stopped only then.
    QVERIFY(b->responses().first().completedAtMs > a->responses().first().completedAtMs);
    QCOMPARE(m_box.agent->count("engine beta: starting"), 1);
    QTRY_COMPARE_WITH_TIMEOUT(adminHost(portA).value("engine"_L1).toString(), u"beta"_s, 10000);
}

QString TestSharedBox::modelStatuses(quint16 relayPort)
{
    QStringList out;
    for (const QJsonValue &v : QJsonDocument::fromJson(relayGet(relayPort, "/v1/models")).object().value("data"_L1).toArray()) {
        const QJsonObject m = v.toObject();
        out.append(m.value("id"_L1).toString() + u' ' + m.value("status"_L1).toObject().value("value"_L1).toString());
    }
    out.sort();
    return out.join(u", "_s);
}

// While relay A streams on alpha and relay B waits for beta, both relays' /metrics show the
// agent's engine, A's stream, B's waiter and the switch held for A's stream, and both relays'
// /v1/models agree on what is loaded; once the switch is done they agree again.
void TestSharedBox::everyRelayShowsTheSameBox()
{
    Child relayA;
    Child relayB;
    quint16 portA = 0;
    quint16 portB = 0;
    std::unique_ptr<RawHttpClient> a;
    std::unique_ptr<RawHttpClient> b;
    streamOnAThenAskOnB(relayA, relayB, &portA, &portB, a, b, 300);   // about 6 s of tokens
    if (QTest::currentTestFailed())
        return;
    // Each relay is named at the agent by its machine and port.
    const QByteArray host = QSysInfo::machineHostName().toUtf8();
    const QByteArray alice = host + ':' + QByteArray::number(portA);
    const QByteArray bob = host + ':' + QByteArray::number(portB);
    const QList<QByteArray> whileHeld{
        "switchyard_engine_running{host=\"box\",engine=\"alpha\"} 1\n",
        "switchyard_engine_running{host=\"box\",engine=\"beta\"} 0\n",
        "switchyard_box_requests_in_flight{host=\"box\",relay=\"" + alice + "\"} 1\n",
        "switchyard_box_requests_waiting{host=\"box\",relay=\"" + bob + "\"} 1\n",
        "switchyard_box_switch_held{host=\"box\",engine=\"beta\"} 1\n"};
    for (const quint16 port : {portA, portB}) {
        for (const QByteArray &line : whileHeld)
            QTRY_VERIFY2_WITH_TIMEOUT(relayGet(port, "/metrics").contains(line), (QByteArray::number(port) + " lacks " + line).constData(), 10000);
    }
    // Each relay's model list follows the box as its catalog hears of it (CI once caught B's a
    // moment behind A's): both agree within a few seconds, while B still waits.
    for (const quint16 port : {portA, portB})
        QTRY_COMPARE_WITH_TIMEOUT(modelStatuses(port), u"box-a1 loaded, box-b1 unloaded"_s, 4000);
    QCOMPARE(b->completedResponses(), 0);   // still held for A's stream when both were read

    QTRY_COMPARE_WITH_TIMEOUT(b->completedResponses(), 1, Timeout);
    for (const quint16 port : {portA, portB}) {
        QTRY_VERIFY_WITH_TIMEOUT(relayGet(port, "/metrics").contains("switchyard_engine_running{host=\"box\",engine=\"beta\"} 1\n"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(modelStatuses(port), u"box-a1 unloaded, box-b1 loaded"_s, 10000);
        const QByteArray metrics = relayGet(port, "/metrics");
        QVERIFY2(!metrics.contains("switchyard_box_requests_in_flight{host=\"box\",relay=\"" + alice + '"'), metrics.constData());
        QVERIFY2(metrics.contains("switchyard_box_switch_held{host=\"box\",engine=\"beta\"} 0\n"), metrics.constData());
    }
}

// Relay A dies (SIGKILL) in the middle of a stream while relay B waits for the other engine: the
// agent sees A's connections close, gives its place back, and switches for B.
void TestSharedBox::aRelayThatDiesGivesItsPlacesBack()
{
    Child relayA;
    Child relayB;
    quint16 portA = 0;
    quint16 portB = 0;
    std::unique_ptr<RawHttpClient> a;
    std::unique_ptr<RawHttpClient> b;
    streamOnAThenAskOnB(relayA, relayB, &portA, &portB, a, b, 2000);   // 40 s: longer than the test
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(adminHost(portB).value("box"_L1).toObject().value("waiting"_L1).toInt(), 1, 10000);
    QCOMPARE(b->completedResponses(), 0);
    // Each relay counts its own requests held at the agent: A's stream runs, B's request waits.
    QCOMPARE(adminHost(portA).value("running"_L1).toInt(), 1);
    QCOMPARE(adminHost(portA).value("waiting"_L1).toInt(), 0);
    QCOMPARE(adminHost(portB).value("running"_L1).toInt(), 0);
    QCOMPARE(adminHost(portB).value("waiting"_L1).toInt(), 1);

    relayA.process.kill();
    QVERIFY(relayA.process.waitForFinished(5000));
    QTRY_COMPARE_WITH_TIMEOUT(b->completedResponses(), 1, Timeout);
    QVERIFY2(complete(b->responses().first()), b->responses().first().body.right(400).constData());
    QTRY_COMPARE_WITH_TIMEOUT(adminHost(portB).value("box"_L1).toObject().value("holds"_L1).toArray().size(), 0, 10000);
    QCOMPARE(adminHost(portB).value("running"_L1).toInt(), 0);
    QCOMPARE(adminHost(portB).value("waiting"_L1).toInt(), 0);
}

// Three relays in front of two boxes, every relay sending streamed turns to both engines of both
// boxes in an order that keeps each box switching: every turn completes, each box's agent starts
// no more engines than turns were sent to it, every relay reads each box's engine as its agent
// does, and once all is over no relay and no agent holds anything.
void TestSharedBox::threeRelaysTwoBoxes()
{
    const QJsonObject scheduling{{"policy"_L1, u"batch"_s}, {"dwell_s"_L1, 0.2}, {"max_wait_s"_L1, 2}};
    startAgentOf(m_box, scheduling);
    if (QTest::currentTestFailed())
        return;
    startAgentOf(m_second, scheduling);
    if (QTest::currentTestFailed())
        return;
    Child relays[3];
    quint16 ports[3] = {};
    const QStringList names{u"alice"_s, u"bob"_s, u"carol"_s};
    for (int i = 0; i < 3; ++i) {
        ports[i] = startRelayFor(relays[i], names.at(i), {&m_box, &m_second});
        QVERIFY2(ports[i], relays[i].output.constData());
    }

    // Each relay has one client per box; a client alternates the box's two engines, starting on
    // a different one than its neighbour, so both boxes are asked for both engines at once.
    constexpr int TurnsEach = 4;
    std::vector<TurnTaker> agents;
    for (int r = 0; r < 3; ++r) {
        for (const QString &box : {m_box.name, m_second.name}) {
            TurnTaker t;
            t.port = ports[r];
            t.maxTokens = 15;
            const int first = (r + int(box == m_second.name)) % 2;   // 0: a1 first, 1: b1 first
            t.model = [box, first](int turn) { return box + ((turn + first) % 2 == 0 ? u"-a1"_s : u"-b1"_s); };
            agents.push_back(std::move(t));
        }
    }
    QVERIFY2(takeTurns(agents, TurnsEach, 150000), "the turns did not end within 150 s");
    for (const TurnTaker &a : agents) {
        QCOMPARE(a.answers.size(), TurnsEach);
        for (int i = 0; i < a.answers.size(); ++i) {
            QVERIFY2(complete(a.answers.at(i)),
                     qPrintable(u"%1 on relay %2, turn %3: status %4, body %5"_s.arg(a.model(i)).arg(a.port).arg(i + 1)
                                    .arg(a.answers.at(i).status)
                                    .arg(QString::fromUtf8(a.answers.at(i).body.right(400)))));
        }
    }
    for (const Box *box : {&m_box, &m_second}) {
        // 3 relays x TurnsEach turns went to each box: a switch serves at least one of them.
        QVERIFY2(box->engineStarts() <= 3 * TurnsEach, box->agent->output.constData());
        QVERIFY2(box->agent->count("engine alpha: starting") >= 1 && box->agent->count("engine beta: starting") >= 1,
                 box->agent->output.constData());
        // Every relay reads the box's engine as its agent does, and nothing is left held.
        for (quint16 port : ports) {
            QTRY_COMPARE_WITH_TIMEOUT(adminHost(port, box->name).value("engine"_L1).toString(),
                                      adminHost(ports[0], box->name).value("box"_L1).toObject().value("engine"_L1).toString(),
                                      10000);
            QTRY_COMPARE_WITH_TIMEOUT(adminHost(port, box->name).value("box"_L1).toObject().value("holds"_L1).toArray().size(),
                                      0, 10000);
            QCOMPARE(adminHost(port, box->name).value("running"_L1).toInt(), 0);
            QCOMPARE(adminHost(port, box->name).value("waiting"_L1).toInt(), 0);
        }
    }
}

// Issue 33 with real processes and random traffic: three relays in front of two boxes, streamed
// and unstreamed requests from every relay to both engines of both boxes at drawn moments, one
// relay killed (and started again) and one agent killed (and started again on its port) on the
// way. SWITCHYARD_FUZZ_SECONDS of traffic (default 10); the seed is printed, and
// SWITCHYARD_FUZZ_SEED replays its draws. Invariants: every request whose relay lived is answered
// once, and whole (no cut stream) unless the agent of its box died under it; each box starts no
// more engines than one relay serving its requests in arrival order would; at rest only the
// engine its agent runs listens (no orphan), and no relay and no agent counts anything.
void TestSharedBox::threeRelaysTwoBoxesUnderRandomTraffic()
{
    const quint64 seed = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SEED")
        ? qgetenv("SWITCHYARD_FUZZ_SEED").toULongLong() : std::random_device{}();
    const int seconds = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SECONDS")
        ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 10;
    qInfo("seed %llu (replay: SWITCHYARD_FUZZ_SEED=%llu)", seed, seed);
    std::mt19937_64 rng(seed);
    auto draw = [&rng](int below) { return int(std::uniform_int_distribution<int>(0, below - 1)(rng)); };

    const QJsonObject scheduling{{"policy"_L1, u"batch"_s}, {"dwell_s"_L1, 0.05}, {"max_wait_s"_L1, 0.5}};
    Box *boxes[2] = {&m_box, &m_second};
    for (Box *box : boxes) {
        box->agentPort = portForLater();
        startAgentOf(*box, scheduling);
        if (QTest::currentTestFailed())
            return;
    }
    struct Relay
    {
        std::unique_ptr<Child> child;
        quint16 port = 0;
        int life = 0;
    };
    Relay relays[3];
    const QStringList names{u"alice"_s, u"bob"_s, u"carol"_s};
    auto startRelayNo = [&](int i) {
        relays[i].child = std::make_unique<Child>();
        relays[i].port = startRelayFor(*relays[i].child, names.at(i) + QString::number(relays[i].life), {&m_box, &m_second});
        return relays[i].port != 0;
    };
    for (int i = 0; i < 3; ++i)
        QVERIFY2(startRelayNo(i), relays[i].child->output.constData());

    struct Sent
    {
        int relay = 0;
        int box = 0;
        QString model;
        bool stream = true;
        bool relayDied = false;   // killed before it answered
        bool agentDied = false;   // its box's agent was killed before it was answered, or it came while it was down
        std::unique_ptr<RawHttpClient> client;
    };
    std::vector<Sent> sent;
    const qint64 phaseMs = qint64(seconds) * 1000;
    const qint64 killAt = phaseMs / 5 + draw(int(phaseMs * 3 / 5));
    const qint64 restartAt = phaseMs / 5 + draw(int(phaseMs * 3 / 5));
    const int killedRelay = draw(3);
    const int restartedBox = draw(2);
    bool killed = false;
    bool restarted = false;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < phaseMs) {
        if (!killed && clock.elapsed() >= killAt) {
            killed = true;
            Relay &relay = relays[killedRelay];
            relay.child->process.kill();
            QVERIFY(relay.child->process.waitForFinished(5000));
            for (Sent &s : sent) {
                if (s.relay == killedRelay && s.client->completedResponses() == 0)
                    s.relayDied = true;
            }
            ++relay.life;
            QVERIFY2(startRelayNo(killedRelay), relay.child->output.constData());
        }
        if (!restarted && clock.elapsed() >= restartAt) {
            restarted = true;
            Box &box = *boxes[restartedBox];
            box.startsBefore = box.engineStarts();
            box.agent->process.kill();
            QVERIFY(box.agent->process.waitForFinished(5000));
            for (Sent &s : sent) {
                if (s.box == restartedBox && s.client->completedResponses() == 0)
                    s.agentDied = true;
            }
            startAgentOf(box, scheduling);
            if (QTest::currentTestFailed())
                return;
        }
        Sent s;
        s.relay = draw(3);
        s.box = draw(2);
        s.model = boxes[s.box]->name + (draw(2) ? u"-a1"_s : u"-b1"_s);
        s.stream = draw(4) != 0;
        s.client = std::make_unique<RawHttpClient>(relays[s.relay].port);
        QVERIFY(s.client->connectToServer());
        s.client->send(RawHttpClient::post("/v1/chat/completions", chat(s.model, 2 + draw(10), s.stream)));
        sent.push_back(std::move(s));
        QTest::qWait(5 + draw(100));
    }

    // Every request whose relay lives is answered (or, when its agent died, answered or cut).
    QTRY_VERIFY_WITH_TIMEOUT(std::all_of(sent.begin(), sent.end(),
                                         [](const Sent &s) {
                                             return s.relayDied || s.client->completedResponses() > 0
                                                 || s.client->isDisconnected();
                                         }),
                             60000);
    int whole = 0;
    for (const Sent &s : sent) {
        if (s.relayDied)
            continue;
        const auto &answers = s.client->responses();
        QVERIFY2(s.client->completedResponses() <= 1, qPrintable(u"seed %1: %2 answered %3 times"_s.arg(seed).arg(s.model).arg(s.client->completedResponses())));
        if (s.agentDied)
            continue;
        QVERIFY2(s.client->completedResponses() == 1 && (s.stream ? complete(answers.first()) : completeUnstreamed(answers.first())),
                 qPrintable(u"seed %1: %2 (%3) through relay %4: status %5, body %6\nagent:\n%7"_s.arg(seed)
                                .arg(s.model, s.stream ? u"streamed"_s : u"not streamed"_s)
                                .arg(s.relay)
                                .arg(answers.isEmpty() ? 0 : answers.first().status)
                                .arg(QString::fromUtf8(answers.isEmpty() ? QByteArray() : answers.first().body.right(400)),
                                     QString::fromUtf8(boxes[s.box]->agent->output.right(3000)))));
        ++whole;
    }
    // As if one relay had served each box's requests in the order they were sent: a start per
    // change of engine, and one more after its agent was killed (its engine died with it).
    for (int b = 0; b < 2; ++b) {
        int changes = 0;
        QString last;
        for (const Sent &s : sent) {
            if (s.box != b)
                continue;
            changes += s.model != last ? 1 : 0;
            last = s.model;
        }
        const int bound = changes + (b == restartedBox ? 1 : 0);
        QVERIFY2(boxes[b]->engineStarts() <= bound,
                 qPrintable(u"seed %1: %2 started %3 engines for %4 changes of engine\n%5"_s.arg(seed).arg(boxes[b]->name)
                                .arg(boxes[b]->engineStarts())
                                .arg(changes)
                                .arg(QString::fromUtf8(boxes[b]->agent->output))));
    }
    // At rest: every relay reads each box's engine as its agent does, nothing is counted
    // anywhere, and of the box's two engines only the one its agent runs listens.
    for (const Box *box : boxes) {
        for (const Relay &relay : relays) {
            QTRY_COMPARE_WITH_TIMEOUT(adminHost(relay.port, box->name).value("box"_L1).toObject().value("holds"_L1).toArray().size(),
                                      0, 10000);
            const QJsonObject host = adminHost(relay.port, box->name);
            QCOMPARE(host.value("running"_L1).toInt(), 0);
            QCOMPARE(host.value("waiting"_L1).toInt(), 0);
            QCOMPARE(host.value("box"_L1).toObject().value("running"_L1).toInt(), 0);
            QCOMPARE(host.value("box"_L1).toObject().value("waiting"_L1).toInt(), 0);
            QTRY_COMPARE_WITH_TIMEOUT(adminHost(relay.port, box->name).value("engine"_L1).toString(),
                                      adminHost(relay.port, box->name).value("box"_L1).toObject().value("engine"_L1).toString(),
                                      10000);
        }
        const QString engine = adminHost(relays[0].port, box->name).value("box"_L1).toObject().value("engine"_L1).toString();
        QCOMPARE(listening(box->alphaPort), engine == "alpha"_L1);
        QCOMPARE(listening(box->betaPort), engine == "beta"_L1);
    }
    qInfo("%d requests from 3 relays to 2 boxes, %d answered whole; 1 relay killed, 1 agent killed; engine starts %d and %d",
          int(sent.size()), whole, m_box.engineStarts(), m_second.engineStarts());
}

QTEST_GUILESS_MAIN(TestSharedBox)
#include "tst_sharedbox.moc"
