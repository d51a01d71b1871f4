// Issue 31 item 3 with the real llama-server, on a box whose agent keeps the prompt caches
// (issue 33): a relay in front of `switchyard agent` with two engines; a long conversation on one,
// a turn on the other saves its slot; the agent restarts (its engines stop with it); the
// conversation's next turn is restored, not prefilled again: fewer than 5 % of its prompt tokens
// are evaluated. No prompt-cache setting anywhere: the agent's default.
#include "realllamafixture.h"

#include <csignal>

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::llama;
using namespace Qt::StringLiterals;

class TestRealLlamaAgent : public RealLlamaFixture
{
    Q_OBJECT

private Q_SLOTS:
    void promptCacheSurvivesAnAgentRestart();

private:
    void startAgent(QProcess &agent, const QString &config, const QString &log);
};

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject timingsOf(const Reply &r)
{
    return r.json().value("timings"_L1).toObject();
}

} // namespace

void TestRealLlamaAgent::startAgent(QProcess &agent, const QString &config, const QString &log)
{
    agent.setProcessChannelMode(QProcess::MergedChannels);
    agent.setStandardOutputFile(log, QIODevice::Append);
    agent.start(qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard"_s, {u"agent"_s, u"--config"_s, config});
    QVERIFY2(agent.waitForStarted(5000), qPrintable(agent.errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(readAll(log).contains("listening on http://"), readAll(log).constData(), 15000);
}

void TestRealLlamaAgent::promptCacheSurvivesAnAgentRestart()
{
    const QString dir = freshDir(u"agentcache"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s});
    const quint16 agentPort = portForLater();
    QJsonObject agentEngines;
    QJsonObject relayEngines;
    for (const auto &[name, model] : {std::pair{u"ea"_s, u"tiny-llama-a"_s}, std::pair{u"eb"_s, u"tiny-llama-b"_s}}) {
        const quint16 port = portForLater();
        QJsonArray argv;
        for (const QString &a : llamaArgv(port, {u"-m"_s, dir + u"/models/"_s + model + u".gguf"_s, u"--alias"_s, model,
                                                 u"-c"_s, u"4096"_s}))
            argv.append(a);
        const QString url = u"http://127.0.0.1:%1"_s.arg(port);
        agentEngines.insert(name, QJsonObject{{"url"_L1, url}, {"argv"_L1, argv}, {"start_timeout_s"_L1, 30},
                                              {"stop_timeout_s"_L1, 5}});
        relayEngines.insert(name, QJsonObject{{"url"_L1, url}, {"models"_L1, QJsonArray{model}}});
    }
    const QString agentConfig = dir + u"/agent.json"_s;
    {
        QFile f(agentConfig);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"listen"_L1, u"127.0.0.1:%1"_s.arg(agentPort)},
                                          {"token"_L1, u"t0ken"_s},
                                          {"state_dir"_L1, dir + u"/agent-state"_s},
                                          {"scheduling"_L1, QJsonObject{{"policy"_L1, u"arrival"_s}}},
                                          {"engines"_L1, agentEngines}})
                    .toJson());
    }
    const QString log = dir + u"/agent.log"_s;
    auto agent = std::make_unique<QProcess>();
    startAgent(*agent, agentConfig, log);
    if (QTest::currentTestFailed())
        return;

    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "agent"_L1},
                                                      {"agent"_L1, u"http://127.0.0.1:%1"_s.arg(agentPort)},
                                                      {"token"_L1, u"t0ken"_s},
                                                      {"engines"_L1, relayEngines}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, QString(), &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    // A long conversation on ea, then a turn on eb: the agent saves ea's slot before it stops it.
    const QByteArray conversation = agentTurn(u"ws-tiny-llama-a"_s, 10);
    Reply r = post(port, "/v1/chat/completions", conversation, 60000);
    QVERIFY2(r.status == 200, r.body.constData());
    const int firstPrompt = timingsOf(r).value("prompt_n"_L1).toInt();
    QVERIFY2(firstPrompt > 800, qPrintable(QString::number(firstPrompt)));
    r = post(port, "/v1/chat/completions", agentTurn(u"ws-tiny-llama-b"_s, 1), 60000);
    QVERIFY2(r.status == 200, r.body.constData());
    QVERIFY2(readAll(log).contains("prompt cache of tiny-llama-a on engine ea: save"), readAll(log).constData());

    // The agent restarts; the engines it started go with it.
    agent->terminate();
    QVERIFY2(agent->waitForFinished(20000), readAll(log).constData());
    QTRY_VERIFY2_WITH_TIMEOUT(processesMentioning(dir + u"/models"_s).isEmpty(),
                              qPrintable(describe(processesMentioning(dir + u"/models"_s))), 15000);
    agent = std::make_unique<QProcess>();
    const qsizetype before = readAll(log).size();
    startAgent(*agent, agentConfig, log);
    if (QTest::currentTestFailed())
        return;

    // The conversation's next turn, through the same relay: restored by the new agent.
    QJsonObject next = QJsonDocument::fromJson(conversation).object();
    QJsonArray messages = next.value("messages"_L1).toArray();
    messages.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, u"ok 9"_s}});
    messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, u"Go on."_s}});
    next.insert("messages"_L1, messages);
    Reply after;
    // The relay finds the agent back within its reconnect interval: until then a 424 (box down).
    QTRY_VERIFY2_WITH_TIMEOUT((after = post(port, "/v1/chat/completions", QJsonDocument(next).toJson(QJsonDocument::Compact),
                                             60000)).status == 200,
                              after.body.constData(), 30000);
    const QJsonObject timings = timingsOf(after);
    const int evaluated = timings.value("prompt_n"_L1).toInt();
    const int whole = evaluated + timings.value("cache_n"_L1).toInt();
    const QByteArray restarted = readAll(log).mid(before);
    qInfo("after the agent restart: %d of %d prompt tokens evaluated (%.1f %%)", evaluated, whole,
          100.0 * evaluated / qMax(1, whole));
    QVERIFY2(whole > firstPrompt, qPrintable(QString::fromUtf8(QJsonDocument(timings).toJson(QJsonDocument::Compact))));
    QVERIFY2(evaluated * 20 < whole, restarted.constData());
    QVERIFY2(restarted.contains("prompt cache of tiny-llama-a on engine ea: restore"), restarted.constData());

    relay.reset();
    agent->terminate();
    QVERIFY2(agent->waitForFinished(20000), readAll(log).constData());
}

QTEST_GUILESS_MAIN(TestRealLlamaAgent)
#include "tst_realllamaagent.moc"
