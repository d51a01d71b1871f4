// A replicated alias over two real llama-servers (issue 31, item 5): two conversations that start
// together spread over both replicas, and each one's next turn goes back to the replica of its
// first, where llama-server finds its prompt in a slot and evaluates only what is new.
// realllamafixture.h says how the servers are found, started and killed.
#include "realllamafixture.h"

#include "relay/relay.h"

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::llama;
using namespace Qt::StringLiterals;

namespace {

// A conversation of its own (its first user message names it): a long first turn (a file's worth,
// some 600 tokens), then short ones, each turn repeating the ones before with a short answer
// between them.
QByteArray conversationTurn(const QString &name, int turns, int maxTokens, bool stream)
{
    QJsonArray messages{QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, u"You are a careful coding agent."_s}}};
    for (int t = 0; t < turns; ++t) {
        QStringList words{u"Conversation"_s, name};
        for (int w = 0; w < (t == 0 ? 80 : 5); ++w)
            words << u"%1_file%2 line%3"_s.arg(name).arg(t).arg(w);
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, words.join(u' ')}});
        if (t + 1 < turns)
            messages.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, u"ok %1"_s.arg(t)}});
    }
    QJsonObject body{{"model"_L1, "coder"_L1}, {"messages"_L1, messages}, {"max_tokens"_L1, maxTokens},
                     {"ignore_eos"_L1, true}, {"temperature"_L1, 0}};
    if (stream)
        body.insert("stream"_L1, true);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace

class TestRealLlamaReplicas : public RealLlamaFixture
{
    Q_OBJECT

private Q_SLOTS:
    void eachConversationsNextTurnReusesItsReplicasCache();
};

void TestRealLlamaReplicas::eachConversationsNextTurnReusesItsReplicasCache()
{
    const QString dir = freshDir(u"replicas"_s, {u"tiny-llama-a"_s});
    QJsonObject hosts;
    QList<quint16> enginePorts;
    for (const QString &name : {u"h1"_s, u"h2"_s}) {
        const quint16 port = portForLater();
        // Two slots each: one conversation per slot, and room for a second request.
        Server *server = startServer(llamaArgv(port, {u"-m"_s, dir + u"/models/tiny-llama-a.gguf"_s, u"--alias"_s,
                                                      u"tiny"_s, u"-c"_s, u"4096"_s, u"-np"_s, u"2"_s}),
                                     name);
        QVERIFY(server);
        enginePorts << port;
        hosts.insert(name, QJsonObject{{"driver"_L1, "static"_L1},
                                       {"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{
                                           {"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)},
                                           {"models"_L1, QJsonArray{u"tiny"_s}}}}}}});
    }
    for (const quint16 port : std::as_const(enginePorts))
        QTRY_VERIFY2_WITH_TIMEOUT(healthy(port), qPrintable(logs()), 20000);

    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, dir + u"/state"_s},
                           {"hosts"_L1, hosts},
                           {"aliases"_L1, QJsonObject{{"coder"_L1, QJsonArray{u"h1-tiny"_s, u"h2-tiny"_s}}}}};
    QStringList startedOn;   // the host of each request, in the order the relay sent them
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();
    // Both replicas read as serving the model loaded before the first turn.
    QTRY_VERIFY_WITH_TIMEOUT(modelStatus(get(port, "/v1/models"), u"h1-tiny"_s) == "loaded"_L1
                                 && modelStatus(get(port, "/v1/models"), u"h2-tiny"_s) == "loaded"_L1,
                             10000);
    QObject::connect(relay->relay(), &Relay::requestStarted, relay.get(),
                     [&startedOn](const RequestRecord &r) { startedOn << r.host; });

    // Turn 1 of both at once: A is generating on one replica when B arrives, so B goes to the
    // other (spread by load).
    RawHttpClient a1(port);
    QVERIFY(a1.connectToServer());
    a1.send(RawHttpClient::post("/v1/chat/completions", conversationTurn(u"alpha"_s, 1, 200, true)));
    QTRY_VERIFY2_WITH_TIMEOUT(a1.current() && a1.current()->body.contains("\"content\""), qPrintable(logs()), 20000);
    const Reply b1 = post(port, "/v1/chat/completions", conversationTurn(u"beta"_s, 1, 4, false), 20000);
    QVERIFY2(b1.status == 200, b1.body.constData());
    QTRY_COMPARE_WITH_TIMEOUT(a1.completedResponses(), 1, 30000);
    QCOMPARE(a1.responses().constFirst().status, 200);
    QCOMPARE(startedOn.size(), 2);
    const QString hostA = startedOn.at(0);
    const QString hostB = startedOn.at(1);
    QVERIFY2(hostA != hostB, qPrintable(startedOn.join(u' ')));

    // Turn 2 of each alone, both replicas idle: without stickiness both would go to h1 (the
    // first of the alias). Each goes to its own replica and evaluates only what is new.
    for (const auto &[name, host] : {std::pair{u"alpha"_s, hostA}, std::pair{u"beta"_s, hostB}}) {
        const Reply r = post(port, "/v1/chat/completions", conversationTurn(name, 2, 4, false), 20000);
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(startedOn.constLast(), host);
        const QJsonObject timings = r.json().value("timings"_L1).toObject();
        const int evaluated = timings.value("prompt_n"_L1).toInt(-1);
        const int reused = timings.value("cache_n"_L1).toInt(-1);
        qInfo("%s turn 2 on %s: %d prompt tokens evaluated, %d reused", qPrintable(name), qPrintable(host), evaluated,
              reused);
        QVERIFY2(evaluated > 0 && reused >= 0, r.body.constData());
        // Turn 1 is in the replica's slot: only the answer and the short new turn are evaluated,
        // under a quarter of the conversation (on the other replica it would be all of it).
        QVERIFY2(evaluated * 4 < evaluated + reused, qPrintable(u"%1: %2 of %3 evaluated: %4"_s.arg(name)
                                                                    .arg(evaluated).arg(evaluated + reused)
                                                                    .arg(QString::fromUtf8(r.body))));
    }
}

QTEST_GUILESS_MAIN(TestRealLlamaReplicas)
#include "tst_realllamareplicas.moc"
