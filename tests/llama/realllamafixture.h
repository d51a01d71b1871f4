#pragma once

// What the tests of the real llama.cpp llama-server share (tst_realllama, tst_realllamahosts).
// scripts/llama-setup.sh builds it once into a cache folder with three tiny random-weight models
// (ctest's llama_setup fixture runs it and writes the folder into the file
// SWITCHYARD_LLAMA_DIR_FILE names; SWITCHYARD_LLAMA_DIR overrides that by hand). Every server
// listens on 127.0.0.1 on a free port, leads its own process group and dies with the test
// process; each test kills what it started, also when it fails (RealLlamaFixture::cleanup).
// Also here: /proc to find what a test left running, plain HTTP, answers reduced to their shape
// for comparing, and relays from a config object.
#include "app/relayservice.h"
#include "catalog/catalog.h"
#include "catalog/loadprogress.h"
#include "catalog/modelevents.h"
#include "config/configloader.h"
#include "hosts/hostcontroller.h"
#include "hosts/promptcachekeeper.h"
#include "store/historyevent.h"
#include "laterport.h"
#include "rawhttpclient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>
#include <memory>
#include <sys/prctl.h>
#include <unistd.h>


namespace switchyard::test::llama {

using namespace Qt::StringLiterals;

// The cache folder scripts/llama-setup.sh prints: bin/llama-server, models/tiny-llama-{a,b,c}.gguf.
inline QString llamaDir(QString *why)
{
    QString dir = qEnvironmentVariable("SWITCHYARD_LLAMA_DIR");
    if (dir.isEmpty()) {
        const QString file = qEnvironmentVariable("SWITCHYARD_LLAMA_DIR_FILE");
        QFile f(file);
        if (file.isEmpty() || !f.open(QIODevice::ReadOnly)) {
            *why = u"no llama-server: set SWITCHYARD_LLAMA_DIR, or run the llama_setup test first "
                   "(ctest -L llama runs it; SWITCHYARD_LLAMA_DIR_FILE=%1)"_s.arg(file);
            return {};
        }
        dir = QString::fromUtf8(f.readAll()).trimmed();
    }
    if (!QFile::exists(dir + u"/bin/llama-server"_s)) {
        *why = dir + u"/bin/llama-server does not exist: run scripts/llama-setup.sh"_s;
        return {};
    }
    return dir;
}

inline QString fakeBinary()
{
    return qEnvironmentVariable("SWITCHYARD_BIN_DIR") + u"/switchyard-fakellama"_s;
}

// ---- processes -------------------------------------------------------------------------------

// A server the test starts itself: its own process group (so a router's model servers go with
// it), SIGKILL when the test process dies, output in a log file for failure messages.
class Server
{
public:
    Server(QStringList argv, QString logPath) : m_argv(std::move(argv)), m_log(std::move(logPath))
    {
        m_process.setProgram(m_argv.constFirst());
        m_process.setArguments(m_argv.mid(1));
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_log, QIODevice::Append);
        m_process.setChildProcessModifier([] {
            ::setpgid(0, 0);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        });
    }
    ~Server() { killAll(); }
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    bool start()
    {
        m_process.start();
        return m_process.waitForStarted(5000);
    }
    qint64 pid() const { return m_process.processId(); }
    bool running() const { return m_process.state() != QProcess::NotRunning; }
    // SIGKILL to the whole group, and reap the leader.
    void killAll()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        ::kill(-pid_t(m_process.processId()), SIGKILL);
        m_process.waitForFinished(5000);
    }
    QString logTail() const
    {
        QFile f(m_log);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(f.readAll().right(1500));
    }

private:
    QStringList m_argv;
    QString m_log;
    QProcess m_process;
};

struct ProcInfo
{
    qint64 pid = 0;
    QStringList argv;
};

// Every live (not zombie) process whose command line mentions `needle`, read from /proc.
inline QList<ProcInfo> processesMentioning(const QString &needle)
{
    QList<ProcInfo> found;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok || pid == qint64(::getpid()))
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(entry));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray raw = cmdline.readAll();
        if (!raw.contains(needle.toUtf8()))
            continue;
        QFile stat(u"/proc/%1/stat"_s.arg(entry));
        if (stat.open(QIODevice::ReadOnly)) {
            const QByteArray s = stat.readAll();
            const qsizetype paren = s.lastIndexOf(')');
            if (paren > 0 && s.mid(paren + 2, 1) == "Z")
                continue;   // exited, only waiting for its parent to read its status
        }
        ProcInfo info;
        info.pid = pid;
        for (const QByteArray &arg : raw.split('\0')) {
            if (!arg.isEmpty())
                info.argv << QString::fromUtf8(arg);
        }
        found << info;
    }
    return found;
}

// Every live process whose argv holds all of `args` (each as a whole argument).
inline QList<ProcInfo> processesWith(const QStringList &args)
{
    QList<ProcInfo> found;
    for (const ProcInfo &p : processesMentioning(args.constFirst())) {
        if (std::all_of(args.cbegin(), args.cend(), [&p](const QString &a) { return p.argv.contains(a); }))
            found << p;
    }
    return found;
}

inline QString describe(const QList<ProcInfo> &procs)
{
    QStringList lines;
    for (const ProcInfo &p : procs)
        lines << u"%1: %2"_s.arg(p.pid).arg(p.argv.join(u' '));
    return lines.join(u"; "_s);
}

inline bool alive(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = stat.readAll();
    const qsizetype paren = s.lastIndexOf(')');
    return paren > 0 && s.mid(paren + 2, 1) != "Z";
}

// ---- HTTP ------------------------------------------------------------------------------------

struct Reply
{
    int status = 0;           // 0: no answer in time
    HeaderList headers;
    QByteArray body;
    bool complete = false;    // the whole body arrived (not cut, not timed out)
    QByteArray header(QByteArrayView name) const { return HttpHeaders::value(headers, name); }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// One request on a connection of its own; waits for the whole answer or the close, at most
// timeoutMs.
inline Reply fetch(quint16 port, const QByteArray &raw, int timeoutMs = 20000)
{
    RawHttpClient client(port);
    Reply reply;
    if (!client.connectToServer())
        return reply;
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    auto check = [&] {
        if (client.completedResponses() >= 1 || client.isDisconnected())
            loop.quit();
    };
    QObject::connect(client.socket(), &QTcpSocket::readyRead, &loop, check, Qt::QueuedConnection);
    QObject::connect(client.socket(), &QTcpSocket::disconnected, &loop, check, Qt::QueuedConnection);
    client.send(raw);
    deadline.start(timeoutMs);
    if (client.completedResponses() < 1 && !client.isDisconnected())
        loop.exec();
    if (client.responses().isEmpty())
        return reply;
    const RawHttpClient::Response &r = client.responses().constFirst();
    reply.status = r.status;
    reply.headers = r.headers;
    reply.body = r.body;
    reply.complete = client.completedResponses() >= 1;
    return reply;
}

inline Reply get(quint16 port, const QByteArray &path, int timeoutMs = 20000)
{
    return fetch(port, RawHttpClient::get(path), timeoutMs);
}

inline Reply post(quint16 port, const QByteArray &path, const QByteArray &json, int timeoutMs = 20000)
{
    return fetch(port, RawHttpClient::post(path, json), timeoutMs);
}

inline QByteArray modelBody(const QString &model)
{
    return QJsonDocument(QJsonObject{{"model"_L1, model}}).toJson(QJsonDocument::Compact);
}

inline QByteArray chatBody(const QString &model, int maxTokens, bool stream, const QString &content = u"Hello"_s)
{
    QJsonObject body{{"messages"_L1, QJsonArray{QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, content}}}},
                     {"max_tokens"_L1, maxTokens},
                     {"ignore_eos"_L1, true},
                     {"temperature"_L1, 0}};
    if (!model.isEmpty())
        body.insert("model"_L1, model);
    if (stream)
        body.insert("stream"_L1, true);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

inline QString modelStatus(const Reply &models, const QString &id)
{
    const QJsonArray data = models.json().value("data"_L1).toArray();
    for (const QJsonValue &v : data) {
        if (v.toObject().value("id"_L1).toString() == id)
            return v.toObject().value("status"_L1).toObject().value("value"_L1).toString();
    }
    return u"absent"_s;
}

inline QStringList modelIds(const Reply &models)
{
    QStringList ids;
    const QJsonArray data = models.json().value("data"_L1).toArray();
    for (const QJsonValue &v : data)
        ids << v.toObject().value("id"_L1).toString();
    ids.sort();
    return ids;
}

inline bool healthy(quint16 port)
{
    return get(port, "/health", 2000).status == 200;
}

// ---- comparing answers -----------------------------------------------------------------------

// A JSON value with what differs from run to run blanked: numbers, ids, generated text, paths.
// Keys (QJsonObject keeps them sorted, so their order does not matter), strings that name
// things, booleans and nulls stay.
inline QJsonValue skeleton(const QJsonValue &value, const QString &key = {})
{
    static const QStringList volatileStrings{u"id"_s, u"content"_s, u"text"_s, u"system_fingerprint"_s,
                                             u"preset"_s, u"partial_json"_s};
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            out.insert(it.key(), skeleton(it.value(), it.key()));
        return out;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(skeleton(v, key));
        return out;
    }
    if (value.isDouble())
        return u"<number>"_s;
    if (value.isString() && volatileStrings.contains(key))
        return u"<string>"_s;
    return value;
}

inline QString skeletonText(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return u"<not JSON: %1>"_s.arg(QString::fromUtf8(json.left(200)));
    const QJsonValue s = skeleton(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()));
    return QString::fromUtf8(s.isObject() ? QJsonDocument(s.toObject()).toJson(QJsonDocument::Compact)
                                          : QJsonDocument(s.toArray()).toJson(QJsonDocument::Compact));
}

// An SSE body as its frames: "event: NAME" lines kept, "data:" JSON as its skeleton, comments
// (": ping") dropped.
inline QStringList sseFrames(const QByteArray &body)
{
    QStringList frames;
    qsizetype at = 0;
    while (at < body.size()) {
        qsizetype end = body.indexOf("\n\n", at);
        const QByteArray frame = body.mid(at, end < 0 ? -1 : end - at);
        at = end < 0 ? body.size() : end + 2;
        QStringList lines;
        for (const QByteArray &line : frame.split('\n')) {
            if (line.isEmpty() || line.startsWith(':'))
                continue;
            if (line.startsWith("data: ") && line.mid(6).startsWith('{'))
                lines << u"data: "_s + skeletonText(line.mid(6));
            else
                lines << QString::fromUtf8(line);
        }
        if (!lines.isEmpty())
            frames << lines.join(u'\n');
        if (end < 0 && !frame.isEmpty())
            frames << u"<unterminated frame>"_s;
    }
    return frames;
}

inline QStringList collapseRuns(const QStringList &frames)
{
    QStringList out;
    for (const QString &f : frames) {
        if (out.isEmpty() || out.last() != f)
            out << f;
    }
    return out;
}

// The JSON of an SSE body's first error event: `data: {"error":...}` (OpenAI's shape) or
// `event: error` + `data: {"type":"error",...}` (Anthropic's).
inline QJsonObject sseError(const QByteArray &body, bool anthropic)
{
    qsizetype at = 0;
    while (at < body.size()) {
        const qsizetype end = body.indexOf("\n\n", at);
        const QByteArray frame = body.mid(at, end < 0 ? -1 : end - at);
        at = end < 0 ? body.size() : end + 2;
        const QList<QByteArray> lines = frame.split('\n');
        QByteArray event, data;
        for (const QByteArray &line : lines) {
            if (line.startsWith("event: "))
                event = line.mid(7);
            else if (line.startsWith("data: "))
                data = line.mid(6);
        }
        const QJsonObject json = QJsonDocument::fromJson(data).object();
        if (anthropic ? event == "error" : json.contains("error"_L1))
            return json;
    }
    return {};
}

// What a client can tell apart in a head: the status, the type, how the body is framed, whether
// the server closes. (Dates, lengths and the rest of cpp-httplib's head are left out.)
inline QString headSummary(const Reply &r)
{
    QStringList names;
    for (const auto &h : r.headers)
        names << QString::fromLatin1(h.first).toLower();
    return u"%1 type=%2 chunked=%3 length=%4 close=%5"_s.arg(r.status)
        .arg(QString::fromLatin1(r.header("content-type")))
        .arg(r.header("transfer-encoding") == "chunked")
        .arg(names.contains(u"content-length"_s))
        .arg(r.header("connection").toLower().contains("close"));
}

// Sentences of an error body whose numbers depend on the tokenizer.
inline QByteArray withoutTokenCounts(QByteArray body)
{
    static const QRegularExpression count(u"request \\(\\d+ tokens\\)"_s);
    static const QRegularExpression field(u"\"n_prompt_tokens\":\\d+"_s);
    return QString::fromUtf8(body).replace(count, u"request (N tokens)"_s)
        .replace(field, u"\"n_prompt_tokens\":N"_s).toUtf8();
}

// ---- relays ----------------------------------------------------------------------------------

inline std::unique_ptr<RelayService> startRelay(const QJsonObject &root, const QString &memoryFile, QString *error)
{
    const ConfigResult result = ConfigLoader::parse(QJsonDocument(root).toJson(), u"realllama.json"_s);
    if (!result.ok()) {
        *error = result.errors.isEmpty() ? u"config not ok"_s : result.errors.first().toString();
        return nullptr;
    }
    auto relay = std::make_unique<RelayService>(*result.config, RelayService::standardDrivers(*result.config));
    if (!memoryFile.isEmpty())
        relay->rememberEnginesIn(memoryFile);
    if (!relay->start(error))
        return nullptr;
    return relay;
}

inline QJsonObject hostRecord(quint16 relayPort, const QString &host)
{
    const Reply r = get(relayPort, "/admin/hosts", 5000);
    for (const QJsonValue &v : QJsonDocument::fromJson(r.body).array()) {
        if (v.toObject().value("host"_L1).toString() == host)
            return v.toObject();
    }
    return {};
}

// An agent-like conversation: a system prompt and `turns` user turns of 40 words each, every
// turn repeating the ones before.
inline QByteArray agentTurn(const QString &model, int turns)
{
    QJsonArray messages{QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, u"You are a careful coding agent."_s}}};
    for (int t = 0; t < turns; ++t) {
        QStringList words;
        for (int w = 0; w < 40; ++w)
            words << u"file%1 line%2 token"_s.arg(t).arg(w);
        messages.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, words.join(u' ')}});
        if (t + 1 < turns)
            messages.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, u"ok %1"_s.arg(t)}});
    }
    const QJsonObject body{{"model"_L1, model}, {"messages"_L1, messages}, {"max_tokens"_L1, 2},
                           {"temperature"_L1, 0}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

// The base of each real-llama test class: its initTestCase() finds the build, its cleanup()
// kills every server a test started and waits until nothing started in the test's folders runs.
class RealLlamaFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

protected:
    // A folder of its own for a test: symlinks to the models (so /proc tells this test's
    // processes from everyone else's by path), logs, state.
    QString freshDir(const QString &name, const QStringList &models);
    QStringList llamaArgv(quint16 port, const QStringList &extra) const;
    Server *startServer(const QStringList &argv, const QString &name);
    QString logs() const;

    QTemporaryDir m_tmp;
    QString m_llama;
    std::vector<std::unique_ptr<Server>> m_servers;
    QStringList m_dirsOfThisTest;
};

inline void RealLlamaFixture::initTestCase()
{
    QString why;
    m_llama = llamaDir(&why);
    QVERIFY2(!m_llama.isEmpty(), qPrintable(why));
    QVERIFY2(QFile::exists(fakeBinary()), qPrintable(fakeBinary()));
    QVERIFY(m_tmp.isValid());
}

inline void RealLlamaFixture::cleanup()
{
    m_servers.clear();   // SIGKILL to each group
    // Whatever a relay started is gone once the relay is (each test's relay lives in the test).
    for (const QString &dir : std::as_const(m_dirsOfThisTest)) {
        QTRY_VERIFY2_WITH_TIMEOUT(processesMentioning(dir).isEmpty(), qPrintable(describe(processesMentioning(dir))),
                                  10000);
    }
    m_dirsOfThisTest.clear();
}

inline QString RealLlamaFixture::freshDir(const QString &name, const QStringList &models)
{
    const QString dir = m_tmp.filePath(name);
    QDir().mkpath(dir + u"/models"_s);
    for (const QString &m : models)
        QFile::link(m_llama + u"/models/"_s + m + u".gguf"_s, dir + u"/models/"_s + m + u".gguf"_s);
    m_dirsOfThisTest << dir;
    return dir;
}

inline QStringList RealLlamaFixture::llamaArgv(quint16 port, const QStringList &extra) const
{
    return QStringList{m_llama + u"/bin/llama-server"_s, u"--host"_s, u"127.0.0.1"_s, u"--port"_s,
                       QString::number(port), u"--threads"_s, u"1"_s, u"--no-webui"_s}
        + extra;
}

inline Server *RealLlamaFixture::startServer(const QStringList &argv, const QString &name)
{
    m_servers.push_back(std::make_unique<Server>(argv, m_tmp.filePath(name + u".log"_s)));
    Server *server = m_servers.back().get();
    return server->start() ? server : nullptr;
}

inline QString RealLlamaFixture::logs() const
{
    QString out;
    for (const auto &s : m_servers)
        out += s->logTail() + u"\n----\n"_s;
    return out;
}

} // namespace switchyard::test::llama
