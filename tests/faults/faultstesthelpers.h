#pragma once

#include "laterport.h"
#include "rawhttpclient.h"
#include "relayfixture.h"
#include "slowreader.h"

#include "app/commandline.h"
#include "app/configreloader.h"
#include "http/httpserver.h"
#include "journal/journalformat.h"
#include "relay/relay.h"
#include "app/relayrunner.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"
#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <memory>

namespace faultstest {

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

// Open fds of this process, but for eventfds: those are the wake-ups of Qt's worker threads
// (a host name lookup runs in a pool thread that lives on for 30 s), not anything of the relay.
inline int openFds()
{
    int count = 0;
    const QDir dir(u"/proc/self/fd"_s);
    for (const QString &fd : dir.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
        if (!QFile::symLinkTarget(dir.filePath(fd)).endsWith("anon_inode:[eventfd]"_L1))
            ++count;
    }
    return count;
}

// What the open fds are ("socket:[123]", "/tmp/x/history.sqlite"), for a failure message.
inline QStringList fdTargets()
{
    QStringList out;
    const QDir dir(u"/proc/self/fd"_s);
    for (const QString &fd : dir.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot))
        out.append(fd + u'=' + QFile::symLinkTarget(dir.filePath(fd)));
    return out;
}

inline QString binary(const QString &name)
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u'/' + name;
}

// The real `switchyard --headless` on a config file, with settings and data of its own under
// dir and its journal (stdout) collected; killed if the test ends with it still running.
struct HeadlessRelay
{
    QProcess process;
    QByteArray output;

    bool start(const QString &configPath, const QTemporaryDir &dir)
    {
        process.setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_HOME"_s, dir.filePath(u"data"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, dir.filePath(u"config"_s));
        process.setProcessEnvironment(env);
        QObject::connect(&process, &QProcess::readyRead, &process, [this] { output += process.readAll(); });
        process.start(binary(u"switchyard"_s), {u"--headless"_s, u"--config"_s, configPath});
        if (!process.waitForStarted(5000))
            return false;
        // Either it says it listens, or it exited (a bad config): then output says why.
        return QTest::qWaitFor([this] { return output.contains("listening on") || process.state() != QProcess::Running; }, 10000)
            && process.state() == QProcess::Running;
    }

    ~HeadlessRelay()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

inline fake::FakeOptions routerOptions(double tokensPerSecond = 200)
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s, u"beta"_s};
    o.loaded = {u"alpha"_s};
    o.loadDelay = 100ms;
    o.tokensPerSecond = tokensPerSecond;
    return o;
}

// A request body both APIs read: chat completions and Anthropic messages alike.
inline QByteArray bodyFor(const QByteArray &model, int maxTokens, bool stream)
{
    return R"({"model":")" + model + R"(","messages":[{"role":"user","content":"Hello there"}],"max_tokens":)"
        + QByteArray::number(maxTokens) + (stream ? R"(,"stream":true})" : "}");
}

// The error object of a JSON error body, in either shape; empty when the body is neither.
inline QJsonObject errorOf(const QByteArray &body, bool anthropic)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (anthropic && o.value("type"_L1).toString() != "error"_L1)
        return {};
    return o.value("error"_L1).toObject();
}

// The last SSE event of a stream: its "event:" name (empty for none) and its data.
struct SseEvent
{
    QByteArray event;
    QByteArray data;
};

inline SseEvent lastEvent(const QByteArray &sse)
{
    SseEvent last;
    const QList<QByteArray> events = sse.trimmed().split('\n');
    SseEvent current;
    for (const QByteArray &line : events) {
        if (line.startsWith("event: "))
            current.event = line.mid(7);
        else if (line.startsWith("data: ")) {
            current.data = line.mid(6);
            last = current;
            current = SseEvent();
        }
    }
    return last;
}

// The journal lines and the store of one relay, as the application wires them.
struct Recorder
{
    QTemporaryDir dir;
    SystemClock clock;
    std::unique_ptr<HistoryStore> store;
    QStringList lines;

    void attach(RelayService *relay)
    {
        store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
        relay->setHistory(store.get());
        QObject::connect(relay->relay(), &Relay::requestFinished, relay->relay(),
                         [this](const RequestRecord &r) { lines.append(JournalFormat::requestLine(r)); });
    }
    QList<RequestRecord> rows()
    {
        store->sync();
        return store->requests(RequestQuery());
    }
};

inline bool processGone(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) == "Z";   // a zombie has exited; only its parent has not reaped it
}

// The pid of the fake engine listening on this port, started by the relay, or 0.
inline qint64 enginePid(quint16 port)
{
    const QByteArray needle = "--port\0"_ba + QByteArray::number(port) + '\0';
    const QStringList pids = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool ok = false;
        const qint64 n = pid.toLongLong(&ok);
        if (!ok)
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray args = cmdline.readAll();
        if (args.contains("switchyard-fakellama") && args.contains(needle) && !processGone(n))
            return n;
    }
    return 0;
}

// An engine that answers every request with "ok" and notes which of its connections (numbered
// as accepted) carried it. Like llama-server after a completion it closes each connection after
// its answer, unless told to keep it; it can also drop one connection as soon as it is accepted.
class CountingEngine : public QTcpServer
{
public:
    explicit CountingEngine(bool keepAlive, int dropOnAccept = -1)
        : m_keepAlive(keepAlive)
        , m_dropOnAccept(dropOnAccept)
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                const int index = accepted++;
                connect(s, &QTcpSocket::disconnected, s, [this, s] {
                    ++closed;
                    s->deleteLater();
                });
                if (index == m_dropOnAccept) {
                    s->disconnectFromHost();
                    continue;
                }
                connect(s, &QTcpSocket::readyRead, s, [this, s, index] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    if (index == 0 && closeReusedFirst && servedOn.contains(0)) {
                        // Its keep-alive ran out just as the next request came: closed unanswered.
                        closeReusedFirst = false;
                        s->disconnectFromHost();
                        return;
                    }
                    servedOn.append(index);
                    s->write(m_keepAlive ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                         : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    if (!m_keepAlive)
                        s->disconnectFromHost();
                });
            }
        });
    }

    int accepted = 0;
    int closed = 0;
    QList<int> servedOn;   // per request, the connection it came on
    bool closeReusedFirst = false;   // the second request on connection 0 gets no answer

private:
    bool m_keepAlive;
    int m_dropOnAccept;
};

// One request through the pool; true when it got the engine's "ok".
inline bool exchangeOk(UpstreamPool &pool, quint16 port)
{
    UpstreamExchange::Request request;
    request.base = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
    UpstreamExchange exchange(&pool, request);
    QByteArray body;
    QObject::connect(&exchange, &UpstreamExchange::bodyData, &exchange, [&body](const QByteArray &data) { body += data; });
    QSignalSpy finished(&exchange, &UpstreamExchange::finished);
    QSignalSpy failed(&exchange, &UpstreamExchange::failed);
    exchange.start();
    if (!finished.wait(5000) || !failed.isEmpty()) {
        qWarning() << "exchange did not finish:" << failed;
        return false;
    }
    return exchange.status() == 200 && body == "ok";
}

} // namespace faultstest
