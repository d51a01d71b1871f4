// Issues 33 and 31: what a shared box's agent decides for every relay in front of it. Two relays
// in front of one `switchyard agent` (real processes, fake routers as engines, loopback only).
// Its prompt caches: the agent saves engine alpha's slots before it switches to beta for the
// other relay, restores them before it admits the conversation's next turn, and still does after
// the agent itself restarts (the index is in its state_dir, the files in its slots folder),
// without any prompt-cache setting. Its idle stop and sleep: counted from the last request of
// any relay, never while one relay's stream runs, and shown in every relay's timeline.

#include "sharedboxhelpers.h"
#include "rawhttpclient.h"
#include "laterport.h"

#include <QtTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::sharedbox;
using namespace Qt::StringLiterals;

class TestSharedBoxAgent : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void theAgentKeepsTheBoxsCachesForEveryRelay();
    void theAgentAloneStopsAnIdleBox();

private:
    // `extra`: more of the agent's config (its idle stop, say).
    void startAgent(const QJsonObject &extra = {});
    quint16 startRelay(Child &relay, const QString &name);
    // The agent (with `extra`) and Alice's and Bob's relays in front of it, on ports a and b.
    void startBox(const QJsonObject &extra, Child &alice, Child &bob, quint16 &a, quint16 &b);
    // One turn through the relay on `port`, its whole answer read.
    void turn(quint16 port, const QString &model, const char *what);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Child> m_agent;
    QUrl m_agentUrl;
    quint16 m_agentPort = 0;
    quint16 m_alphaPort = 0;
    quint16 m_betaPort = 0;
};

void TestSharedBoxAgent::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_agentPort = portForLater();
    m_alphaPort = portForLater();
    m_betaPort = portForLater();
}

// Alpha serves a1, beta serves b1; a switch goes at once (arrival order). No "prompt_cache":
// the agent keeps the box's caches by default, in its state_dir.
void TestSharedBoxAgent::startAgent(const QJsonObject &extra)
{
    auto engine = [](quint16 port, const QString &model) {
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)},
                           {"argv"_L1, QJsonArray{binary(u"switchyard-fakellama"_s), u"--port"_s, QString::number(port),
                                                  u"--models"_s, model, u"--loaded"_s, model}},
                           {"start_timeout_s"_L1, 20},
                           {"stop_timeout_s"_L1, 5}};
    };
    QJsonObject config{{"listen"_L1, u"127.0.0.1:%1"_s.arg(m_agentPort)},
                             {"token"_L1, u"shared-box-token"_s},
                             {"state_dir"_L1, m_dir->filePath(u"agent-state"_s)},
                             {"scheduling"_L1, QJsonObject{{"policy"_L1, u"arrival"_s}}},
                             {"engines"_L1, QJsonObject{{"alpha"_L1, engine(m_alphaPort, u"a1"_s)},
                                                        {"beta"_L1, engine(m_betaPort, u"b1"_s)}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        config.insert(it.key(), it.value());
    const QString path = m_dir->filePath(u"agent.json"_s);
    writeJson(path, config);
    m_agent = std::make_unique<Child>();
    m_agent->process.start(binary(u"switchyard"_s), {u"agent"_s, u"--config"_s, path});
    QVERIFY2(m_agent->process.waitForStarted(Timeout), qPrintable(m_agent->process.errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(m_agent->output.contains("listening on http://"), m_agent->output.constData(), Timeout);
    m_agentUrl = QUrl(u"http://127.0.0.1:%1"_s.arg(m_agentPort));
}

quint16 TestSharedBoxAgent::startRelay(Child &relay, const QString &name)
{
    const quint16 port = portForLater();
    auto engine = [](quint16 enginePort, const QString &model) {
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)}, {"models"_L1, QJsonArray{model}}};
    };
    const QJsonObject box{{"driver"_L1, u"agent"_s},
                          {"agent"_L1, m_agentUrl.toString()},
                          {"token"_L1, u"shared-box-token"_s},
                          {"engines"_L1, QJsonObject{{"alpha"_L1, engine(m_alphaPort, u"a1"_s)},
                                                     {"beta"_L1, engine(m_betaPort, u"b1"_s)}}}};
    const QJsonObject config{{"listen"_L1, u"127.0.0.1:%1"_s.arg(port)},
                             {"state_dir"_L1, m_dir->filePath(name + u"-state"_s)},
                             {"hosts"_L1, QJsonObject{{"box"_L1, box}}}};
    const QString path = m_dir->filePath(name + u".json"_s);
    writeJson(path, config);
    return startHeadlessRelay(relay, path, m_dir->filePath(name + u"-home"_s)) ? port : 0;
}

void TestSharedBoxAgent::startBox(const QJsonObject &extra, Child &alice, Child &bob, quint16 &a, quint16 &b)
{
    startAgent(extra);
    if (QTest::currentTestFailed())
        return;
    a = startRelay(alice, u"alice"_s);
    QVERIFY2(a, alice.output.constData());
    b = startRelay(bob, u"bob"_s);
    QVERIFY2(b, bob.output.constData());
}

void TestSharedBoxAgent::turn(quint16 port, const QString &model, const char *what)
{
    RawHttpClient client(port);
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/chat/completions", chat(model, 8)));
    QTRY_VERIFY2_WITH_TIMEOUT(client.completedResponses() == 1 || client.isDisconnected(), what, Timeout);
    QVERIFY2(client.completedResponses() == 1 && complete(client.responses().first()),
             qPrintable(u"%1: %2\nagent:\n%3"_s.arg(QString::fromLatin1(what),
                                                     QString::fromUtf8(client.responses().value(0).body),
                                                     QString::fromUtf8(m_agent->output))));
}

void TestSharedBoxAgent::theAgentKeepsTheBoxsCachesForEveryRelay()
{
    Child alice;
    Child bob;
    quint16 a = 0;
    quint16 b = 0;
    startBox({}, alice, bob, a, b);
    if (QTest::currentTestFailed())
        return;

    // Alice's conversation on alpha; Bob's turn on beta makes the agent save alpha's slot first.
    turn(a, u"box-a1"_s, "alice's first turn");
    turn(b, u"box-b1"_s, "bob's turn");
    QTRY_VERIFY2_WITH_TIMEOUT(m_agent->output.contains("prompt cache of a1 on engine alpha: save"),
                              m_agent->output.constData(), Timeout);
    // Alice's next turn: the agent switches back and restores the slot before it admits her.
    turn(a, u"box-a1"_s, "alice's second turn");
    QVERIFY2(m_agent->count("prompt cache of a1 on engine alpha: restore") == 1, m_agent->output.constData());
    QVERIFY2(!m_agent->output.contains("restore failed") && !m_agent->output.contains("not restored"),
             m_agent->output.constData());
    // Neither relay saved or restored anything itself: the box's caches are the agent's, and
    // each relay shows what they take as the agent tells it.
    for (const Child *relay : {&alice, &bob})
        QVERIFY2(!relay->output.contains("prompt cache of"), relay->output.constData());
    // Two: a1's from alpha, b1's from beta when Alice's second turn switched back.
    for (const quint16 port : {a, b}) {
        QTRY_COMPARE_WITH_TIMEOUT(adminHost(port).value("box"_L1).toObject().value("prompt_caches"_L1).toObject()
                                      .value("saved"_L1).toInt(), 2, Timeout);
        QVERIFY(!adminHost(port).contains("prompt_caches"_L1));
    }

    // Bob again (alpha saved again), then the agent restarts: its engines stop with it, and the
    // index of what is saved where comes back from its state_dir.
    turn(b, u"box-b1"_s, "bob's second turn");
    QTRY_VERIFY2_WITH_TIMEOUT(m_agent->count("prompt cache of a1 on engine alpha: save") == 2,
                              m_agent->output.constData(), Timeout);
    m_agent->process.terminate();
    QVERIFY2(m_agent->process.waitForFinished(Timeout), m_agent->output.constData());
    QVERIFY2(!listening(m_alphaPort) && !listening(m_betaPort), "the agent's engines outlived it");
    startAgent();
    if (QTest::currentTestFailed())
        return;
    turn(a, u"box-a1"_s, "alice's turn after the agent restarted");
    QVERIFY2(m_agent->count("prompt cache of a1 on engine alpha: restore") == 1, m_agent->output.constData());
    QVERIFY2(!m_agent->output.contains("restore failed") && !m_agent->output.contains("not restored"),
             m_agent->output.constData());
    qInfo("the restarted agent:\n%s", m_agent->output.constData());
}

// The agent stops the box's engine after idle_stop_after_s without a request from any relay and
// runs its sleep command once; a relay's own idle stop would have cut the other relay's stream.
// Both relays read the box asleep (not down) and show the idle stop in their journals; the next
// turn starts the engine again.
void TestSharedBoxAgent::theAgentAloneStopsAnIdleBox()
{
    const QString slept = m_dir->filePath(u"slept"_s);
    Child alice;
    Child bob;
    quint16 a = 0;
    quint16 b = 0;
    startBox({{"idle_stop_after_s"_L1, 1},
              {"sleep_command"_L1, QJsonArray{u"sh"_s, u"-c"_s, u"echo slept >> '%1'"_s.arg(slept)}}},
             alice, bob, a, b);
    if (QTest::currentTestFailed())
        return;

    // Alice's short turn, then Bob's stream on the same engine that runs three times the idle
    // limit after Alice's relay went quiet.
    turn(a, u"box-a1"_s, "alice's turn");
    RawHttpClient engine(m_alphaPort);
    QVERIFY(engine.connectToServer());
    engine.send(RawHttpClient::post("/__fake/config", R"({"tokens_per_s": 20})"));
    QTRY_COMPARE_WITH_TIMEOUT(engine.completedResponses(), 1, Timeout);
    QCOMPARE(engine.responses().first().status, 200);
    QElapsedTimer streamed;
    streamed.start();
    RawHttpClient bobsStream(b);
    QVERIFY(bobsStream.connectToServer());
    QJsonObject slow = QJsonDocument::fromJson(chat(u"box-a1"_s, 60)).object();
    bobsStream.send(RawHttpClient::post("/v1/chat/completions", QJsonDocument(slow).toJson(QJsonDocument::Compact)));
    QTRY_VERIFY2_WITH_TIMEOUT(bobsStream.completedResponses() == 1 || bobsStream.isDisconnected(), "bob's stream",
                              Timeout);
    QVERIFY2(complete(bobsStream.responses().value(0)),
             qPrintable(QString::fromUtf8(bobsStream.responses().value(0).body) + QString::fromUtf8(m_agent->output)));
    QVERIFY2(streamed.elapsed() >= 2500, "bob's stream was not longer than the idle limit");
    QVERIFY2(!m_agent->output.contains("stopped: idle"), m_agent->output.constData());

    // Then the box rests: the agent stops alpha, runs the command once, and every relay says so.
    QTRY_VERIFY2_WITH_TIMEOUT(m_agent->output.contains("engine alpha stopped: idle"), m_agent->output.constData(),
                              Timeout);
    QTRY_VERIFY2_WITH_TIMEOUT(m_agent->output.contains("sleep command ran"), m_agent->output.constData(), Timeout);
    QVERIFY(!listening(m_alphaPort));
    for (Child *relay : {&alice, &bob}) {
        QTRY_VERIFY2_WITH_TIMEOUT(relay->output.contains("host box: engine alpha stopped: idle"),
                                  relay->output.constData(), Timeout);
        QVERIFY2(relay->count("stopped: idle") == 1, relay->output.constData());
        QTRY_VERIFY2_WITH_TIMEOUT(relay->output.contains("host box: sleep command ran"), relay->output.constData(),
                                  Timeout);
    }
    for (const quint16 port : {a, b}) {
        const QJsonObject host = adminHost(port, u"box"_s);
        QCOMPARE(host.value("state"_L1).toString(), u"asleep"_s);
    }
    QFile marker(slept);
    QVERIFY(marker.open(QIODevice::ReadOnly));
    QCOMPARE(marker.readAll(), QByteArray("slept\n"));

    turn(b, u"box-a1"_s, "bob's turn after the box rested");
    QVERIFY2(m_agent->count("stopped: idle") == 1, m_agent->output.constData());
}

QTEST_GUILESS_MAIN(TestSharedBoxAgent)
#include "tst_sharedboxagent.moc"
