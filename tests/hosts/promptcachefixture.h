// What the prompt-cache tests share: a conversation that grows as an agent's does, the relay
// with a cache keeper over two fake engines (CacheFixture), and a first relay that saved alpha
// and stopped (saveAlphaAndStop).
#pragma once

#include "switchingfixture.h"

#include "common/clock.h"
#include "hosts/promptcachekeeper.h"
#include "journal/journalformat.h"
#include "journal/requestrecord.h"
#include "relay/relay.h"
#include "store/historystore.h"
#include "rawhttpclient.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cctype>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace switchyard::test::promptcache {

// A conversation of `turns` user messages of `words` words each: every turn repeats the ones
// before, as an agent's does.
inline QByteArray conversation(const QByteArray &model, int turns, int words = 50)
{
    QJsonArray messages;
    messages.append(QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, u"You are a careful coding agent."_s}});
    for (int t = 0; t < turns; ++t) {
        QStringList text;
        for (int w = 0; w < words; ++w)
            text << u"t%1w%2"_s.arg(t).arg(w);
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, text.join(u' ')}});
        if (t + 1 < turns)
            messages.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, u"done %1"_s.arg(t)}});
    }
    const QJsonObject body{{"model"_L1, QString::fromUtf8(model)}, {"messages"_L1, messages}, {"max_tokens"_L1, 4}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

inline QJsonObject timingsOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object().value("timings"_L1).toObject();
}

inline QList<HistoryEvent> ofKind(const QList<HistoryEvent> &events, HistoryEvent::Kind kind)
{
    QList<HistoryEvent> out;
    for (const HistoryEvent &e : events) {
        if (e.kind == kind)
            out << e;
    }
    return out;
}

struct CacheFixture : SwitchingFixture
{
    QTemporaryDir dir;
    QString folder;   // the slot folder; empty: dir's
    std::chrono::milliseconds saveDelay{0};
    int bytesPerToken = 1024;
    double maxMb = 1000;
    std::chrono::milliseconds budget{5000};
    std::function<void(fake::FakeOptions &a)> tuneA;
    // "local": the cache folder is on this machine (the keeper checks and deletes its files);
    // "command" (or "agent"): it is on the box, and only the engine can tell a bad file.
    QString hostDriver = u"local"_s;

    QString slotFolder() const { return folder.isEmpty() ? dir.path() : folder; }

    bool startWithCaches()
    {
        tune = [this](fake::FakeOptions &a, fake::FakeOptions &b) {
            if (tuneA)
                tuneA(a);
            for (fake::FakeOptions *o : {&a, &b}) {
                o->slotSavePath = slotFolder();
                o->slotSaveDelay = saveDelay;
                o->slotBytesPerToken = bytesPerToken;
                o->tokensPerSecond = 0;
            }
        };
        configure = [this](Config &config) {
            HostConfig &h = config.hosts.first();
            h.driver = hostDriver;
            h.promptCache.dir = slotFolder();
            h.promptCache.maxBytes = qint64(maxMb * 1024 * 1024);
            h.promptCache.saveBudget = budget;
        };
        return dir.isValid() && start();
    }

    PromptCacheKeeper *keeper() const { return relay->hostController(u"h1"_s)->promptCacheKeeper(); }

    // One request through the relay, answered.
    RawHttpClient::Response ask(const QByteArray &body)
    {
        RawHttpClient client(port());
        if (!client.connectToServer())
            return {};
        client.send(RawHttpClient::post("/v1/chat/completions", body));
        if (!QTest::qWaitFor([&] { return client.completedResponses() == 1; }, 15000))
            return {};
        return client.responses().at(0);
    }

    QStringList pathsReceivedByA() const
    {
        QStringList paths;
        for (const fake::ReceivedRequest &r : engineA->received())
            paths << QString::fromUtf8(r.method + ' ' + r.path);
        return paths;
    }
};

} // namespace switchyard::test::promptcache

namespace switchyard::test::promptcache {

// Alpha's conversation saved by a first relay that switched to beta, then that relay gone: its
// history store closed, the slot file left in `folder`.
inline bool saveAlphaAndStop(const QString &folder, const QString &historyPath, int alphaTurns = 3,
                      const QString &driver = QStringLiteral("local"))
{
    SystemClock clock;
    HistoryStore store(historyPath, clock);
    CacheFixture first;
    first.folder = folder;
    first.hostDriver = driver;
    if (!store.isOpen() || !first.startWithCaches())
        return false;
    first.relay->setHistory(&store);
    if (first.ask(conversation("h1-alpha", alphaTurns)).status != 200 || first.ask(conversation("h1-beta", 1)).status != 200)
        return false;
    return first.keeper()->saved().size() == 1 && store.sync();
}

// Spoils a saved slot as `change` says: "remove" its file, "truncate" it to 4 KiB, or "model":
// other weights under the same name and shape, which the fake (like llama-server) would load;
// the relay must not ask it to.
inline bool spoilSaved(const QString &change, const QString &file, CacheFixture &f)
{
    if (change == u"remove"_s)
        return QFile::remove(file);
    if (change == u"truncate"_s)
        return QFile::resize(file, 4096);
    f.tuneA = [](fake::FakeOptions &a) { a.modelFiles.insert(u"alpha"_s, u"/srv/models/alpha-v2.gguf"_s); };
    return true;
}

inline const HistoryEvent *lastOfKind(const QList<HistoryEvent> &events, HistoryEvent::Kind kind)
{
    for (qsizetype i = events.size() - 1; i >= 0; --i) {
        if (events.at(i).kind == kind)
            return &events.at(i);
    }
    return nullptr;
}

} // namespace switchyard::test::promptcache
