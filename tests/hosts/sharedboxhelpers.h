// What the shared-box tests share: the built executables, a child process whose output the test
// reads, config files, and what a whole answer is.
#pragma once

#include "rawhttpclient.h"

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

using namespace Qt::StringLiterals;

namespace switchyard::test::sharedbox {

constexpr int Timeout = 30000;

inline QString binary(const QString &name)
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u'/' + name;
}

// A child process whose merged output the test reads.
class Child
{
public:
    QProcess process;
    QByteArray output;

    Child()
    {
        process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&process, &QProcess::readyRead, &process, [this] { output += process.readAll(); });
    }
    ~Child()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
    int count(const QByteArray &text) const { return int(output.count(text)); }
};

inline void writeJson(const QString &path, const QJsonObject &root)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(root).toJson());
}

inline QByteArray chat(const QString &model, int maxTokens, bool stream = true)
{
    return QJsonDocument(QJsonObject{{"model"_L1, model},
                                     {"stream"_L1, stream},
                                     {"max_tokens"_L1, maxTokens},
                                     {"messages"_L1, QJsonArray{QJsonObject{{"role"_L1, u"user"_s},
                                                                            {"content"_L1, u"hi"_s}}}}})
        .toJson(QJsonDocument::Compact);
}

// A whole streamed answer: 200, the engine's last event, no error in between.
inline bool complete(const RawHttpClient::Response &r)
{
    return r.status == 200 && r.body.contains("data: [DONE]") && !r.body.contains("\"error\"");
}

// A whole answer that was not streamed: 200 and the engine's choices.
inline bool completeUnstreamed(const RawHttpClient::Response &r)
{
    return r.status == 200 && r.body.contains("\"choices\"") && !r.body.contains("\"error\"");
}

// Starts `switchyard --headless --config CONFIG` as `relay`, its XDG data, config and cache
// folders under `home` (nothing of the user's own), and waits until it listens; false if it
// did not within Timeout.
inline bool startHeadlessRelay(Child &relay, const QString &config, const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_DATA_HOME"_s, home + u"/data"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, home + u"/config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, home + u"/cache"_s);
    relay.process.setProcessEnvironment(env);
    relay.process.start(binary(u"switchyard"_s), {u"--headless"_s, u"--config"_s, config});
    if (!relay.process.waitForStarted(Timeout))
        return false;
    QElapsedTimer waited;
    waited.start();
    while (!relay.output.contains("listening on") && relay.process.state() == QProcess::Running
           && waited.elapsed() < Timeout)
        QTest::qWait(20);
    return relay.output.contains("listening on");
}

// The body of a GET on the relay (from loopback: the admin API's gate is open), empty when none came.
inline QByteArray relayGet(quint16 relayPort, const QByteArray &path)
{
    RawHttpClient client(relayPort);
    if (!client.connectToServer())
        return {};
    client.send(RawHttpClient::get(path));
    QElapsedTimer waited;
    waited.start();
    while (client.completedResponses() < 1 && waited.elapsed() < 5000)
        QTest::qWait(10);
    return client.completedResponses() < 1 ? QByteArray() : client.responses().first().body;
}

// One host of the relay's /admin/hosts.
inline QJsonObject adminHost(quint16 relayPort, const QString &host = u"box"_s)
{
    const QJsonDocument doc = QJsonDocument::fromJson(relayGet(relayPort, "/admin/hosts"));
    const QJsonArray hosts = doc.isArray() ? doc.array() : doc.object().value("hosts"_L1).toArray();
    for (const QJsonValue &h : hosts) {
        if (h.toObject().value("host"_L1).toString() == host)
            return h.toObject();
    }
    return {};
}

// Whether something accepts connections on the loopback port now.
inline bool listening(quint16 port)
{
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, port);
    return probe.waitForConnected(2000);
}

// A coding agent taking turns through one relay: each turn is sent when the last one ended.
struct TurnTaker
{
    quint16 port = 0;
    std::function<QString(int turn)> model;   // the alias its turn asks for
    int maxTokens = 25;
    int turn = 0;
    std::unique_ptr<RawHttpClient> client;
    QList<RawHttpClient::Response> answers;   // one per turn; a dropped connection is status 0
};

// Runs every taker's `turns` turns side by side; false when they did not end within `limitMs`.
inline bool takeTurns(std::vector<TurnTaker> &takers, int turns, qint64 limitMs)
{
    auto next = [](TurnTaker &t) {
        t.client = std::make_unique<RawHttpClient>(t.port);
        if (t.client->connectToServer())
            t.client->send(RawHttpClient::post("/v1/chat/completions", chat(t.model(t.turn), t.maxTokens)));
        ++t.turn;
    };
    for (TurnTaker &t : takers)
        next(t);
    QElapsedTimer elapsed;
    elapsed.start();
    while (elapsed.elapsed() < limitMs) {
        bool allDone = true;
        for (TurnTaker &t : takers) {
            if (t.client && (t.client->completedResponses() > 0 || t.client->isDisconnected())) {
                t.answers.append(t.client->completedResponses() > 0 ? t.client->responses().first()
                                                                    : RawHttpClient::Response{});
                t.client.reset();
                if (t.turn < turns)
                    next(t);
            }
            allDone = allDone && !t.client;
        }
        if (allDone)
            return true;
        QTest::qWait(10);
    }
    return false;
}

} // namespace switchyard::test::sharedbox
