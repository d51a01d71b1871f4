// The real llama.cpp llama-server in the test suite (issue 17). scripts/llama-setup.sh builds it
// once into a cache folder with three tiny random-weight models (ctest's llama_setup fixture runs
// it and writes the folder into the file SWITCHYARD_LLAMA_DIR_FILE names; SWITCHYARD_LLAMA_DIR
// overrides that by hand). Every server listens on 127.0.0.1 on a free port, leads its own
// process group and dies with the test process; each test kills what it started, also when it
// fails.
//
// - the fake router (src/fakellama/) answers as the real one does: same statuses, error bodies,
//   headers that matter and SSE framing;
// - through the relay: /models/load leaves a local host's books at zero and a switch follows;
//   a static host whose engine was killed answers 424 in the request's shape and serves again as
//   soon as the engine is back; an engine killed mid-stream ends the client's stream with an SSE
//   error event and leaves no process behind; an engine that never becomes healthy is a 424;
//   router engines without a "models" list are discovered; the relay hears a router's load
//   progress (0.0 ... 1.0, then loaded) on its /models/sse and keeps none once the model is up.
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

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;

namespace {

// The cache folder scripts/llama-setup.sh prints: bin/llama-server, models/tiny-llama-{a,b,c}.gguf.
QString llamaDir(QString *why)
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

QString fakeBinary()
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
QList<ProcInfo> processesMentioning(const QString &needle)
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
QList<ProcInfo> processesWith(const QStringList &args)
{
    QList<ProcInfo> found;
    for (const ProcInfo &p : processesMentioning(args.constFirst())) {
        if (std::all_of(args.cbegin(), args.cend(), [&p](const QString &a) { return p.argv.contains(a); }))
            found << p;
    }
    return found;
}

QString describe(const QList<ProcInfo> &procs)
{
    QStringList lines;
    for (const ProcInfo &p : procs)
        lines << u"%1: %2"_s.arg(p.pid).arg(p.argv.join(u' '));
    return lines.join(u"; "_s);
}

bool alive(qint64 pid)
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
Reply fetch(quint16 port, const QByteArray &raw, int timeoutMs = 20000)
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

Reply get(quint16 port, const QByteArray &path, int timeoutMs = 20000)
{
    return fetch(port, RawHttpClient::get(path), timeoutMs);
}

Reply post(quint16 port, const QByteArray &path, const QByteArray &json, int timeoutMs = 20000)
{
    return fetch(port, RawHttpClient::post(path, json), timeoutMs);
}

QByteArray modelBody(const QString &model)
{
    return QJsonDocument(QJsonObject{{"model"_L1, model}}).toJson(QJsonDocument::Compact);
}

QByteArray chatBody(const QString &model, int maxTokens, bool stream, const QString &content = u"Hello"_s)
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

QString modelStatus(const Reply &models, const QString &id)
{
    const QJsonArray data = models.json().value("data"_L1).toArray();
    for (const QJsonValue &v : data) {
        if (v.toObject().value("id"_L1).toString() == id)
            return v.toObject().value("status"_L1).toObject().value("value"_L1).toString();
    }
    return u"absent"_s;
}

QStringList modelIds(const Reply &models)
{
    QStringList ids;
    const QJsonArray data = models.json().value("data"_L1).toArray();
    for (const QJsonValue &v : data)
        ids << v.toObject().value("id"_L1).toString();
    ids.sort();
    return ids;
}

bool healthy(quint16 port)
{
    return get(port, "/health", 2000).status == 200;
}

// ---- comparing answers -----------------------------------------------------------------------

// A JSON value with what differs from run to run blanked: numbers, ids, generated text, paths.
// Keys (QJsonObject keeps them sorted, so their order does not matter), strings that name
// things, booleans and nulls stay.
QJsonValue skeleton(const QJsonValue &value, const QString &key = {})
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

QString skeletonText(const QByteArray &json)
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
QStringList sseFrames(const QByteArray &body)
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

QStringList collapseRuns(const QStringList &frames)
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
QJsonObject sseError(const QByteArray &body, bool anthropic)
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
QString headSummary(const Reply &r)
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
QByteArray withoutTokenCounts(QByteArray body)
{
    static const QRegularExpression count(u"request \\(\\d+ tokens\\)"_s);
    static const QRegularExpression field(u"\"n_prompt_tokens\":\\d+"_s);
    return QString::fromUtf8(body).replace(count, u"request (N tokens)"_s)
        .replace(field, u"\"n_prompt_tokens\":N"_s).toUtf8();
}

// ---- relays ----------------------------------------------------------------------------------

std::unique_ptr<RelayService> startRelay(const QJsonObject &root, const QString &memoryFile, QString *error)
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

QJsonObject hostRecord(quint16 relayPort, const QString &host)
{
    const Reply r = get(relayPort, "/admin/hosts", 5000);
    for (const QJsonValue &v : QJsonDocument::fromJson(r.body).array()) {
        if (v.toObject().value("host"_L1).toString() == host)
            return v.toObject();
    }
    return {};
}

} // namespace

class TestRealLlama : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void fakeAnswersAsTheRealRouter();
    void loadOfRunningModelLeavesNothingHeldAndSwitchFollows();
    void staticHostKilledAnswers424ThenServesOnceBack();
    void engineKilledMidStreamEndsStreamAndLeavesNoProcess();
    void engineThatNeverBecomesHealthyIs424();
    void routerEnginesAreDiscovered();
    void relayHearsTheRoutersLoadProgress();
    void fakeAnswersTheSlotApiAsTheRealServer();
    void promptCacheSurvivesASwitch();
    void cleanup();

private:
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

void TestRealLlama::initTestCase()
{
    QString why;
    m_llama = llamaDir(&why);
    QVERIFY2(!m_llama.isEmpty(), qPrintable(why));
    QVERIFY2(QFile::exists(fakeBinary()), qPrintable(fakeBinary()));
    QVERIFY(m_tmp.isValid());
}

void TestRealLlama::cleanup()
{
    m_servers.clear();   // SIGKILL to each group
    // Whatever a relay started is gone once the relay is (each test's relay lives in the test).
    for (const QString &dir : std::as_const(m_dirsOfThisTest)) {
        QTRY_VERIFY2_WITH_TIMEOUT(processesMentioning(dir).isEmpty(), qPrintable(describe(processesMentioning(dir))),
                                  10000);
    }
    m_dirsOfThisTest.clear();
}

QString TestRealLlama::freshDir(const QString &name, const QStringList &models)
{
    const QString dir = m_tmp.filePath(name);
    QDir().mkpath(dir + u"/models"_s);
    for (const QString &m : models)
        QFile::link(m_llama + u"/models/"_s + m + u".gguf"_s, dir + u"/models/"_s + m + u".gguf"_s);
    m_dirsOfThisTest << dir;
    return dir;
}

QStringList TestRealLlama::llamaArgv(quint16 port, const QStringList &extra) const
{
    return QStringList{m_llama + u"/bin/llama-server"_s, u"--host"_s, u"127.0.0.1"_s, u"--port"_s,
                       QString::number(port), u"--threads"_s, u"1"_s, u"--no-webui"_s}
        + extra;
}

Server *TestRealLlama::startServer(const QStringList &argv, const QString &name)
{
    m_servers.push_back(std::make_unique<Server>(argv, m_tmp.filePath(name + u".log"_s)));
    Server *server = m_servers.back().get();
    return server->start() ? server : nullptr;
}

QString TestRealLlama::logs() const
{
    QString out;
    for (const auto &s : m_servers)
        out += s->logTail() + u"\n----\n"_s;
    return out;
}

// ---- a. the fake router answers as the real one ---------------------------------------------

void TestRealLlama::fakeAnswersAsTheRealRouter()
{
    const QString dir = freshDir(u"compare"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s, u"tiny-llama-c"_s});
    const quint16 realPort = portForLater();
    const quint16 fakePort = portForLater();
    Server *real = startServer(llamaArgv(realPort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"256"_s,
                                                    u"--models-max"_s, u"2"_s}),
                               u"compare-real"_s);
    QVERIFY(real);
    Server *fake = startServer({fakeBinary(), u"--port"_s, QString::number(fakePort), u"--models"_s,
                                u"tiny-llama-a,tiny-llama-b,tiny-llama-c"_s, u"--ctx"_s, u"256"_s,
                                u"--max-models"_s, u"2"_s, u"--load-ms"_s, u"200"_s, u"--tokens-per-s"_s, u"0"_s},
                               u"compare-fake"_s);
    QVERIFY(fake);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(realPort), qPrintable(logs()), 15000);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(fakePort), qPrintable(logs()), 5000);

    struct Pair
    {
        Reply real, fake;
    };
    auto both = [&](const QByteArray &raw) {
        return Pair{fetch(realPort, raw), fetch(fakePort, raw)};
    };
    auto sameHead = [](const char *what, const Pair &p) {
        const QString r = headSummary(p.real), f = headSummary(p.fake);
        if (r != f)
            qWarning("%s: real head %s, fake %s", what, qPrintable(r), qPrintable(f));
        return r == f;
    };
    auto sameBody = [](const char *what, const Pair &p) {
        if (p.real.body != p.fake.body)
            qWarning("%s:\n  real %s\n  fake %s", what, p.real.body.constData(), p.fake.body.constData());
        return p.real.body == p.fake.body;
    };
    auto sameShape = [](const char *what, const Pair &p) {
        const QString r = skeletonText(p.real.body), f = skeletonText(p.fake.body);
        if (r != f)
            qWarning("%s:\n  real %s\n  fake %s", what, qPrintable(r), qPrintable(f));
        return r == f;
    };
    // Token deltas come in runs (the real one may join tokens that split a UTF-8 character), so
    // a run of equal frames counts once.
    auto sameFrames = [](const char *what, const Pair &p) {
        const QStringList r = collapseRuns(sseFrames(p.real.body)), f = collapseRuns(sseFrames(p.fake.body));
        if (r != f) {
            qWarning("%s: real frames:\n%s\nfake frames:\n%s", what, qPrintable(r.join(u"\n"_s)),
                     qPrintable(f.join(u"\n"_s)));
        }
        return r == f;
    };
    auto statusIn = [&](const QString &model, const QString &want) {
        return modelStatus(get(realPort, "/models"), model) == want && modelStatus(get(fakePort, "/models"), model) == want;
    };

    // Health, and the model list before anything is loaded.
    Pair p = both(RawHttpClient::get("/health"));
    QVERIFY(sameHead("GET /health", p));
    QVERIFY(sameBody("GET /health", p));
    for (const QByteArray &path : {QByteArray("/models"), QByteArray("/v1/models")}) {
        p = both(RawHttpClient::get(path));
        QVERIFY(sameHead(path.constData(), p));
        QCOMPARE(modelIds(p.fake), modelIds(p.real));
        for (const QString &id : modelIds(p.real))
            QCOMPARE(modelStatus(p.fake, id), modelStatus(p.real, id));
        const QJsonObject r = p.real.json().value("data"_L1).toArray().at(0).toObject();
        const QJsonObject f = p.fake.json().value("data"_L1).toArray().at(0).toObject();
        QCOMPARE(f.keys(), r.keys());
        QCOMPARE(f.value("status"_L1).toObject().keys(), r.value("status"_L1).toObject().keys());
        QCOMPARE(p.fake.json().keys(), p.real.json().keys());
    }

    // Load: new, already running, unknown.
    p = both(RawHttpClient::post("/models/load", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("load", p));
    QVERIFY(sameBody("load", p));
    QTRY_VERIFY_WITH_TIMEOUT(statusIn(u"tiny-llama-a"_s, u"loaded"_s), 20000);
    p = both(RawHttpClient::post("/models/load", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("load again", p));
    QVERIFY(sameBody("load again", p));
    p = both(RawHttpClient::post("/models/load", modelBody(u"no-such-model"_s)));
    QVERIFY(sameHead("load unknown", p));
    QVERIFY(sameBody("load unknown", p));

    // The list once a model is loaded: the entry gains its meta.
    p = both(RawHttpClient::get("/models"));
    for (const QJsonValue &v : p.real.json().value("data"_L1).toArray()) {
        const QString id = v.toObject().value("id"_L1).toString();
        for (const QJsonValue &w : p.fake.json().value("data"_L1).toArray()) {
            if (w.toObject().value("id"_L1).toString() != id)
                continue;
            QCOMPARE(w.toObject().keys(), v.toObject().keys());
            QCOMPARE(w.toObject().value("meta"_L1).toObject().keys(), v.toObject().value("meta"_L1).toObject().keys());
        }
    }

    // Unload: not running, unknown.
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-b"_s)));
    QVERIFY(sameHead("unload not running", p));
    QVERIFY(sameBody("unload not running", p));
    p = both(RawHttpClient::post("/models/unload", modelBody(u"no-such-model"_s)));
    QVERIFY(sameHead("unload unknown", p));
    QVERIFY(sameBody("unload unknown", p));

    // Completions, plain and streamed, OpenAI's and Anthropic's.
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"tiny-llama-a"_s, 4, false)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("chat", p));
    QVERIFY(sameShape("chat", p));
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"tiny-llama-a"_s, 4, true)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("chat stream", p));
    QVERIFY(sameFrames("chat stream", p));
    QVERIFY(p.real.body.endsWith("data: [DONE]\n\n"));
    QVERIFY2(collapseRuns(sseFrames(p.real.body)).size() >= 4, p.real.body.constData());   // role, text, finish, [DONE]
    {
        QJsonObject body = QJsonDocument::fromJson(chatBody(u"tiny-llama-a"_s, 4, true)).object();
        body.insert("stream_options"_L1, QJsonObject{{"include_usage"_L1, true}});
        p = both(RawHttpClient::post("/v1/chat/completions", QJsonDocument(body).toJson(QJsonDocument::Compact)));
        QVERIFY(sameHead("chat stream with usage", p));
        QVERIFY(sameFrames("chat stream with usage", p));
    }
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"tiny-llama-a"_s, 4, false)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("messages", p));
    QVERIFY(sameShape("messages", p));
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"tiny-llama-a"_s, 4, true)));
    QCOMPARE(p.real.status, 200);
    QVERIFY(sameHead("messages stream", p));
    QVERIFY(sameFrames("messages stream", p));
    QVERIFY2(p.real.body.contains("event: content_block_delta\n") && p.real.body.endsWith("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
             p.real.body.constData());

    // Requests that name no model, or one the router does not have.
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(QString(), 4, false)));
    QVERIFY(sameHead("missing model", p));
    QVERIFY(sameBody("missing model", p));
    p = both(RawHttpClient::post("/v1/chat/completions", chatBody(u"no-such-model"_s, 4, true)));
    QVERIFY(sameHead("unknown model", p));
    QVERIFY(sameBody("unknown model", p));
    p = both(RawHttpClient::post("/v1/messages", chatBody(u"no-such-model"_s, 4, true)));
    QVERIFY(sameHead("unknown model, messages", p));
    QVERIFY(sameBody("unknown model, messages", p));

    // A prompt over the context: a plain JSON 400, streamed or not, on both APIs.
    QStringList words;
    for (int i = 0; i < 400; ++i)
        words << u"word%1"_s.arg(i);
    for (const QByteArray &path : {QByteArray("/v1/chat/completions"), QByteArray("/v1/messages")}) {
        for (const bool stream : {false, true}) {
            const QByteArray what = path + (stream ? " stream" : "") + " over the context";
            p = both(RawHttpClient::post(path, chatBody(u"tiny-llama-a"_s, 4, stream, words.join(u' '))));
            QCOMPARE(p.real.status, 400);
            QVERIFY(sameHead(what.constData(), p));
            QCOMPARE(withoutTokenCounts(p.fake.body), withoutTokenCounts(p.real.body));
        }
    }

    // Unload of a loaded model, then the model reads unloaded on both.
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameHead("unload", p));
    QVERIFY(sameBody("unload", p));
    QTRY_VERIFY_WITH_TIMEOUT(statusIn(u"tiny-llama-a"_s, u"unloaded"_s), 20000);
    p = both(RawHttpClient::post("/models/unload", modelBody(u"tiny-llama-a"_s)));
    QVERIFY(sameBody("unload again", p));

    // An unknown path and a body that is not JSON.
    p = both(RawHttpClient::get("/no/such/path"));
    QVERIFY(sameHead("unknown path", p));
    QVERIFY(sameBody("unknown path", p));
    // Bodies that are not JSON (the parser's 500, word for word) or no object.
    const QList<QByteArray> broken{"", "{\"model\":", "{\"model\":\"tiny-llama-a\"} x", "{\"a\":tru}", "{\"a\":\"\n\"}",
                                   "{\"a\":-}", "[1,", "{\"a\":\"h\xc3\xa9llo \xe4\x96\xe7\x95\x8c\"}", "[1]", "{\"model\":5}", "{\"a\":[-1e999]}"};
    for (const QByteArray &body : broken) {
        for (const QByteArray &path : {QByteArray("/v1/chat/completions"), QByteArray("/v1/messages"), QByteArray("/models/load")}) {
            const QByteArray what = path + " with " + body;
            p = both(RawHttpClient::post(path, body));
            QVERIFY(sameHead(what.constData(), p));
            QVERIFY(sameBody(what.constData(), p));
        }
    }
}

// ---- b. /models/load on a local host of single-model engines --------------------------------

void TestRealLlama::loadOfRunningModelLeavesNothingHeldAndSwitchFollows()
{
    const QString dir = freshDir(u"load"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s});
    auto engine = [&](const QString &model) {
        const quint16 port = portForLater();
        QJsonArray argv;
        for (const QString &a : llamaArgv(port, {u"-m"_s, dir + u"/models/"_s + model + u".gguf"_s, u"--alias"_s,
                                                  model, u"-c"_s, u"1024"_s}))
            argv.append(a);
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)}, {"models"_L1, QJsonArray{model}},
                           {"argv"_L1, argv}, {"start_timeout_s"_L1, 30}, {"stop_timeout_s"_L1, 5}};
    };
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, dir + u"/state"_s},
                           // No dwell: the switch must follow the load at once (batching by engine
                           // would hold ea for dwell_s after it).
                           {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                                         {"scheduling"_L1, QJsonObject{{"dwell_s"_L1, 0}}},
                                                                         {"engines"_L1, QJsonObject{
                                                                             {"ea"_L1, engine(u"tiny-llama-a"_s)},
                                                                             {"eb"_L1, engine(u"tiny-llama-b"_s)}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    Reply r = post(port, "/v1/chat/completions", chatBody(u"ws-tiny-llama-a"_s, 4, false), 40000);
    QCOMPARE(r.status, 200);
    QCOMPARE(relay->hostController(u"ws"_s)->currentEngine(), u"ea"_s);

    r = post(port, "/models/load", modelBody(u"ws-tiny-llama-a"_s), 10000);
    QVERIFY2(r.status == 200, r.body.constData());
    QTRY_VERIFY2_WITH_TIMEOUT(hostRecord(port, u"ws"_s).value("running"_L1).toInt(-1) == 0
                                  && hostRecord(port, u"ws"_s).value("waiting"_L1).toInt(-1) == 0,
                              QJsonDocument(hostRecord(port, u"ws"_s)).toJson().constData(), 2000);

    QElapsedTimer clock;
    clock.start();
    r = post(port, "/v1/chat/completions", chatBody(u"ws-tiny-llama-b"_s, 4, false), 30000);
    QVERIFY2(r.status == 200, qPrintable(u"%1 after %2 ms: %3"_s.arg(r.status).arg(clock.elapsed()).arg(QString::fromUtf8(r.body))));
    QCOMPARE(relay->hostController(u"ws"_s)->currentEngine(), u"eb"_s);
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
    qInfo("served after a switch in %lld ms", clock.elapsed());
}

// ---- c. a static host whose engine dies and comes back --------------------------------------

void TestRealLlama::staticHostKilledAnswers424ThenServesOnceBack()
{
    const QString dir = freshDir(u"static"_s, {u"tiny-llama-a"_s});
    const quint16 enginePort = portForLater();
    const QStringList argv = llamaArgv(enginePort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"1024"_s,
                                                    u"--models-max"_s, u"1"_s});
    Server *server = startServer(argv, u"static-1"_s);
    QVERIFY(server);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(enginePort), qPrintable(logs()), 15000);

    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"box"_L1, QJsonObject{{"driver"_L1, "static"_L1},
                                                       {"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{
                                                           {"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                           {"models"_L1, QJsonArray{u"tiny-llama-a"_s}}}}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    Reply r = post(port, "/v1/chat/completions", chatBody(u"box-tiny-llama-a"_s, 4, false), 30000);
    QVERIFY2(r.status == 200, r.body.constData());

    server->killAll();
    QVERIFY(!healthy(enginePort));

    // OpenAI's shape on chat completions, streamed or not; Anthropic's on messages.
    for (const bool stream : {false, true}) {
        QElapsedTimer clock;
        clock.start();
        r = post(port, "/v1/chat/completions", chatBody(u"box-tiny-llama-a"_s, 4, stream), 10000);
        QVERIFY2(r.status == 424, qPrintable(u"%1 %2"_s.arg(r.status).arg(QString::fromUtf8(r.body))));
        QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
        QVERIFY(r.header("content-type").startsWith("application/json"));
        const QJsonObject e = r.json().value("error"_L1).toObject();
        QVERIFY2(!e.value("message"_L1).toString().isEmpty() && e.contains("type"_L1) && !r.json().contains("type"_L1),
                 r.body.constData());
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        qInfo("424 after %lld ms", clock.elapsed());
    }
    r = post(port, "/v1/messages", chatBody(u"box-tiny-llama-a"_s, 4, true), 10000);
    QVERIFY2(r.status == 424, qPrintable(u"%1 %2"_s.arg(r.status).arg(QString::fromUtf8(r.body))));
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    QCOMPARE(r.json().value("type"_L1).toString(), u"error"_s);
    QVERIFY2(!r.json().value("error"_L1).toObject().value("message"_L1).toString().isEmpty()
                 && !r.json().value("error"_L1).toObject().value("type"_L1).toString().isEmpty(),
             r.body.constData());

    // Back on the same port: the first request once its /health answers is served, without
    // waiting for the relay's next look at the host.
    server = startServer(argv, u"static-2"_s);
    QVERIFY(server);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(enginePort), qPrintable(logs()), 15000);
    QElapsedTimer clock;
    clock.start();
    r = post(port, "/v1/chat/completions", chatBody(u"box-tiny-llama-a"_s, 4, false), 20000);
    QVERIFY2(r.status == 200, qPrintable(u"%1 after %2 ms: %3"_s.arg(r.status).arg(clock.elapsed()).arg(QString::fromUtf8(r.body))));
    QVERIFY(r.json().value("choices"_L1).toArray().size() == 1);
    // Far less than the relay's 30 s look at its hosts; the router loads the model first.
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    qInfo("served %lld ms after the engine's /health answered again", clock.elapsed());
}

// ---- d. engines of a local host that die or never come up -----------------------------------

void TestRealLlama::engineKilledMidStreamEndsStreamAndLeavesNoProcess()
{
    const QString dir = freshDir(u"crash"_s, {u"tiny-llama-a"_s});
    const quint16 enginePort = portForLater();
    QJsonArray argv;
    for (const QString &a : llamaArgv(enginePort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"4096"_s,
                                                   u"--models-max"_s, u"1"_s}))
        argv.append(a);
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                      {"engines"_L1, QJsonObject{{"router"_L1, QJsonObject{
                                                          {"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)},
                                                          {"models"_L1, QJsonArray{u"tiny-llama-a"_s}},
                                                          {"argv"_L1, argv},
                                                          {"start_timeout_s"_L1, 30}}}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();
    const QString routerNeedle = dir + u"/models"_s;

    struct Case
    {
        QByteArray path;
        QByteArray errorFrame;   // how the stream's error event starts
    };
    for (const Case &c : {Case{"/v1/chat/completions", "data: {\"error\":"}, Case{"/v1/messages", "event: error\ndata: {"}}) {
        RawHttpClient client(port);
        QVERIFY(client.connectToServer());
        client.send(RawHttpClient::post(c.path, chatBody(u"ws-tiny-llama-a"_s, 3500, true)));
        QTRY_VERIFY2_WITH_TIMEOUT(client.current() && client.current()->chunkArrivalsMs.size() >= 3,
                                  client.rawReceived().left(500).constData(), 40000);
        QVERIFY2(client.current(), "the stream ended before the engine was killed: make it longer");

        // The router the relay started, and the model server it spawned.
        const QList<ProcInfo> procs = processesMentioning(routerNeedle);
        QList<qint64> routers, children;
        for (const ProcInfo &p : procs)
            (p.argv.contains(u"--models-dir"_s) ? routers : children) << p.pid;
        QVERIFY2(routers.size() == 1 && children.size() == 1, qPrintable(describe(procs)));

        const qint64 killedAt = client.nowMs();
        QCOMPARE(::kill(pid_t(routers.first()), SIGKILL), 0);
        QTRY_VERIFY2_WITH_TIMEOUT(client.completedResponses() == 1 || client.isDisconnected(),
                                  client.rawReceived().right(300).constData(), 1000);
        const qint64 endedAt = client.completedResponses() == 1 ? client.responses().at(0).completedAtMs
                                                                : client.disconnectedAtMs();
        QVERIFY2(endedAt - killedAt <= 1000, qPrintable(QString::number(endedAt - killedAt)));
        const QByteArray body = client.responses().at(0).body;
        QVERIFY2(body.contains("\n\n" + c.errorFrame), body.right(400).constData());
        const bool anthropic = c.path == "/v1/messages";
        const QJsonObject e = sseError(body, anthropic);
        QVERIFY2(!e.value("error"_L1).toObject().value("message"_L1).toString().isEmpty()
                     && !e.value("error"_L1).toObject().value("type"_L1).toString().isEmpty()
                     && e.contains("type"_L1) == anthropic,
                 body.right(400).constData());
        qInfo("%s: the stream ended %lld ms after the engine was killed", c.path.constData(), endedAt - killedAt);
        QVERIFY(!body.contains("[DONE]"));
        QVERIFY(!body.contains("message_stop"));

        // No model server outlives its router.
        QTRY_VERIFY2_WITH_TIMEOUT(!alive(children.first()) && !alive(routers.first()),
                                  qPrintable(describe(processesMentioning(routerNeedle))), 5000);

        // The next request starts the engine again and is served.
        const Reply r = post(port, "/v1/chat/completions", chatBody(u"ws-tiny-llama-a"_s, 4, false), 40000);
        QVERIFY2(r.status == 200, qPrintable(u"%1 %2"_s.arg(r.status).arg(QString::fromUtf8(r.body))));
        const QList<ProcInfo> after = processesMentioning(routerNeedle);
        QVERIFY2(after.size() == 2, qPrintable(describe(after)));   // one router, one model server
        for (const ProcInfo &p : after)
            QVERIFY(p.pid != routers.first() && p.pid != children.first());
    }

    relay.reset();
    QTRY_VERIFY2_WITH_TIMEOUT(processesMentioning(routerNeedle).isEmpty(),
                              qPrintable(describe(processesMentioning(routerNeedle))), 15000);
}

void TestRealLlama::engineThatNeverBecomesHealthyIs424()
{
    const QString dir = freshDir(u"unhealthy"_s, {});
    QFile notGguf(dir + u"/models/not-a-model.gguf"_s);
    QVERIFY(notGguf.open(QIODevice::WriteOnly));
    notGguf.write(QByteArray("this is not a GGUF file\n").repeated(100));
    notGguf.close();

    const quint16 brokenPort = portForLater();
    const quint16 stuckPort = portForLater();
    QJsonArray brokenArgv;
    for (const QString &a : llamaArgv(brokenPort, {u"-m"_s, notGguf.fileName(), u"--alias"_s, u"broken"_s}))
        brokenArgv.append(a);
    // Listens, but /health answers 503 (a model that takes ten minutes to load).
    const QJsonArray stuckArgv{fakeBinary(), u"--port"_s, QString::number(stuckPort), u"--models"_s, u"stuck"_s,
                               u"--single-model"_s, u"--load-ms"_s, u"600000"_s, u"--host"_s, u"127.0.0.1"_s};
    const double timeoutS = 3;
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{
            {"hb"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                 {"engines"_L1, QJsonObject{{"broken"_L1, QJsonObject{
                                     {"url"_L1, u"http://127.0.0.1:%1"_s.arg(brokenPort)},
                                     {"models"_L1, QJsonArray{u"broken"_s}},
                                     {"argv"_L1, brokenArgv},
                                     {"start_timeout_s"_L1, timeoutS}}}}}}},
            {"hs"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                 {"engines"_L1, QJsonObject{{"stuck"_L1, QJsonObject{
                                     {"url"_L1, u"http://127.0.0.1:%1"_s.arg(stuckPort)},
                                     {"models"_L1, QJsonArray{u"stuck"_s}},
                                     {"argv"_L1, stuckArgv},
                                     {"start_timeout_s"_L1, timeoutS}}}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    struct Case
    {
        QString alias;
        QByteArray path;
        QString reasonHas;
    };
    for (const Case &c : {Case{u"hb-broken"_s, "/v1/chat/completions", u"exited"_s},
                          Case{u"hs-stuck"_s, "/v1/messages", u"503"_s}}) {
        QElapsedTimer clock;
        clock.start();
        const Reply r = post(port, c.path, chatBody(c.alias, 4, true), int(timeoutS * 1000) + 10000);
        const qint64 took = clock.elapsed();
        QVERIFY2(r.status == 424, qPrintable(u"%1: %2 after %3 ms: %4"_s.arg(c.alias).arg(r.status).arg(took)
                                                 .arg(QString::fromUtf8(r.body))));
        QVERIFY2(took <= qint64(timeoutS * 1000) + 1500, qPrintable(QString::number(took)));
        QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
        const QString message = r.json().value("error"_L1).toObject().value("message"_L1).toString();
        QVERIFY2(message.contains(c.reasonHas), qPrintable(message));
        if (c.path == "/v1/messages")
            QCOMPARE(r.json().value("type"_L1).toString(), u"error"_s);
        qInfo("%s: 424 after %lld ms: %s", qPrintable(c.alias), took, qPrintable(message.left(200)));
    }
    // The engine that never answered is not left running.
    QTRY_VERIFY2_WITH_TIMEOUT(processesWith({fakeBinary(), QString::number(stuckPort)}).isEmpty()
                                  && processesMentioning(notGguf.fileName()).isEmpty(),
                              qPrintable(describe(processesMentioning(fakeBinary()))), 5000);
}

// ---- e. router engines with no "models" list ------------------------------------------------

void TestRealLlama::routerEnginesAreDiscovered()
{
    const QString dirA = freshDir(u"discover-a"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s});
    const QString dirB = freshDir(u"discover-b"_s, {u"tiny-llama-c"_s});
    auto engine = [&](const QString &dir) {
        QJsonArray argv;
        const quint16 p = portForLater();
        for (const QString &a : llamaArgv(p, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"1024"_s,
                                               u"--models-max"_s, u"1"_s}))
            argv.append(a);
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(p)}, {"argv"_L1, argv}, {"start_timeout_s"_L1, 30}};
    };
    const QString state = m_tmp.filePath(u"discover-state"_s);   // fresh and empty: nothing remembered
    const QJsonObject root{{"listen"_L1, "127.0.0.1:0"_L1},
                           {"state_dir"_L1, state},
                           {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                                         {"engines"_L1, QJsonObject{
                                                                             {"ra"_L1, engine(dirA)},
                                                                             {"rb"_L1, engine(dirB)}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, state + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    const quint16 port = relay->endpoint().port();

    const QStringList want{u"ws-tiny-llama-a"_s, u"ws-tiny-llama-b"_s, u"ws-tiny-llama-c"_s};
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY2_WITH_TIMEOUT(modelIds(get(port, "/v1/models", 5000)) == want,
                              qPrintable(modelIds(get(port, "/v1/models", 5000)).join(u", "_s)), 15000);
    qInfo("every model of both engines listed after %lld ms", clock.elapsed());
    // And a model of each engine is served.
    for (const QString &alias : {u"ws-tiny-llama-c"_s, u"ws-tiny-llama-a"_s}) {
        const Reply r = post(port, "/v1/chat/completions", chatBody(alias, 4, false), 40000);
        QVERIFY2(r.status == 200, qPrintable(u"%1: %2 %3"_s.arg(alias).arg(r.status).arg(QString::fromUtf8(r.body))));
    }
}

// The load progress a real router sends on /models/sse (transcript 05: 0.0, 0.0, 1.0, loaded)
// reaches the relay's feed, parses, and ends with the load (issue 22, item 1).
void TestRealLlama::relayHearsTheRoutersLoadProgress()
{
    const QString dir = freshDir(u"progress"_s, {u"tiny-llama-a"_s});
    const quint16 enginePort = portForLater();
    Server *server = startServer(llamaArgv(enginePort, {u"--models-dir"_s, dir + u"/models"_s, u"-c"_s, u"1024"_s}),
                                 u"progress"_s);
    QVERIFY(server);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(enginePort), qPrintable(logs()), 15000);
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"box"_L1, QJsonObject{{"driver"_L1, "static"_L1},
                                                       {"engines"_L1, QJsonObject{{"main"_L1, QJsonObject{
                                                           {"url"_L1, u"http://127.0.0.1:%1"_s.arg(enginePort)}}}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(relay->modelEvents()->isConnected(u"box"_s), 10000);
    QList<ProgressEvent> heard;
    connect(relay->modelEvents(), &ModelEvents::event, this, [&heard](const QByteArray &frame) {
        const std::optional<ProgressEvent> e = parseProgressEvent(frame.mid(6).trimmed());   // after "data: "
        if (e && e->model == "box-tiny-llama-a"_L1)   // relabelled: the alias
            heard.append(*e);
    });

    const Reply r = post(relay->endpoint().port(), "/models/load", modelBody(u"box-tiny-llama-a"_s), 10000);
    QVERIFY2(r.status == 200, r.body.constData());
    QTRY_VERIFY_WITH_TIMEOUT(!heard.isEmpty() && heard.last().kind == ProgressEvent::Kind::Ended, 30000);
    QString seen;
    for (const ProgressEvent &e : std::as_const(heard))
        seen += e.kind == ProgressEvent::Kind::Load ? u"%1 "_s.arg(e.progress.value.value_or(-1)) : u"end "_s;
    qInfo("progress heard: %s", qPrintable(seen));
    QVERIFY2(heard.size() >= 3, qPrintable(seen));
    QCOMPARE(heard.first().kind, ProgressEvent::Kind::Load);
    QCOMPARE(heard.first().progress.value.value_or(-1), 0.0);
    QCOMPARE(heard.first().progress.stage, u"text_model"_s);
    const ProgressEvent &last = heard.at(heard.size() - 2);
    QCOMPARE(last.kind, ProgressEvent::Kind::Load);
    QCOMPARE(last.progress.value.value_or(-1), 1.0);
    QTRY_VERIFY_WITH_TIMEOUT(relay->catalog()->host(u"box"_s)->loadProgress.isEmpty(), 5000);
}

// ---- prompt caches across a switch (issue 19) ------------------------------------------------

namespace {

// An agent-like conversation: a system prompt and `turns` user turns of 40 words each, every
// turn repeating the ones before.
QByteArray agentTurn(const QString &model, int turns)
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

} // namespace

// The slot API's answers, real and fake side by side: the same statuses and error bodies, the
// same keys in a save's and a restore's answer. Printed, they are the transcript
// docs/PROMPT_CACHES.md describes.
void TestRealLlama::fakeAnswersTheSlotApiAsTheRealServer()
{
    const QString dir = freshDir(u"slots"_s, {u"tiny-llama-a"_s});
    const QString realSlots = dir + u"/real-slots"_s;
    const QString fakeSlots = dir + u"/fake-slots"_s;
    QDir().mkpath(realSlots);
    QDir().mkpath(fakeSlots);
    const quint16 realPort = portForLater();
    const quint16 fakePort = portForLater();
    const quint16 bareRealPort = portForLater();
    QVERIFY(startServer(llamaArgv(realPort, {u"-m"_s, dir + u"/models/tiny-llama-a.gguf"_s, u"--alias"_s,
                                             u"tiny-llama-a"_s, u"-c"_s, u"1024"_s, u"--slot-save-path"_s, realSlots}),
                        u"slots-real"_s));
    QVERIFY(startServer(llamaArgv(bareRealPort, {u"-m"_s, dir + u"/models/tiny-llama-a.gguf"_s, u"-c"_s, u"1024"_s}),
                        u"slots-bare"_s));
    QVERIFY(startServer({fakeBinary(), u"--port"_s, QString::number(fakePort), u"--models"_s, u"tiny-llama-a"_s,
                         u"--single-model"_s, u"--ctx"_s, u"1024"_s, u"--load-ms"_s, u"100"_s, u"--slot-save-path"_s,
                         fakeSlots},
                        u"slots-fake"_s));
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(realPort) && healthy(bareRealPort), qPrintable(logs()), 20000);
    QTRY_VERIFY2_WITH_TIMEOUT(healthy(fakePort), qPrintable(logs()), 5000);

    // A prompt in a slot first, on both (the real server picks which).
    QCOMPARE(post(realPort, "/v1/chat/completions", agentTurn(u"tiny-llama-a"_s, 2)).status, 200);
    QCOMPARE(post(fakePort, "/v1/chat/completions", agentTurn(u"tiny-llama-a"_s, 2)).status, 200);
    // GET /slots after the turn: the fields the keeper reads.
    const Reply slotList = get(realPort, "/slots");
    qInfo("GET /slots: %s", slotList.body.left(600).constData());
    // Every slot says its id and whether it is busy; only a slot that has held a task says
    // n_prompt_tokens (the real server put the prompt above in whichever slot it chose).
    const QJsonArray realSlots0 = QJsonDocument::fromJson(slotList.body).array();
    bool someHoldsAPrompt = false;
    for (const QJsonValue &v : realSlots0) {
        const QJsonObject slot = v.toObject();
        QVERIFY(slot.contains("id"_L1) && slot.contains("is_processing"_L1));
        someHoldsAPrompt = someHoldsAPrompt || slot.value("n_prompt_tokens"_L1).toInteger() > 0;
    }
    QVERIFY(someHoldsAPrompt);
    bool fakeHoldsAPrompt = false;
    for (const QJsonValue &v : QJsonDocument::fromJson(get(fakePort, "/slots?model=tiny-llama-a").body).array()) {
        const QJsonObject slot = v.toObject();
        QVERIFY(slot.contains("id"_L1) && slot.contains("is_processing"_L1));
        fakeHoldsAPrompt = fakeHoldsAPrompt || slot.value("n_prompt_tokens"_L1).toInteger() > 0;
    }
    QVERIFY(fakeHoldsAPrompt);

    auto keysOf = [](const QJsonObject &o) {
        QStringList keys = o.keys();
        if (o.value("timings"_L1).isObject())
            keys << o.value("timings"_L1).toObject().keys();
        return keys;
    };
    struct Case
    {
        const char *what;
        QByteArray path;
        QByteArray body;
        bool compareBody;   // errors word for word; successes by their keys
    };
    const QList<Case> cases{
        {"save", "/slots/0?action=save", R"({"filename":"s0.bin"})", false},
        {"restore", "/slots/0?action=restore", R"({"filename":"s0.bin"})", false},
        {"restore a missing file", "/slots/0?action=restore", R"({"filename":"missing.bin"})", true},
        {"a filename with a slash", "/slots/0?action=save", R"({"filename":"a/b.bin"})", true},
        {"a slot that is no number", "/slots/x?action=save", R"({"filename":"s.bin"})", true},
        // The real server answers 200 for a slot number it does not have (what it saves is its own
        // business); the fake saves an empty slot: the same status and shape.
        {"a slot that does not exist", "/slots/99?action=save", R"({"filename":"s.bin"})", false},
        {"an unknown action", "/slots/0?action=frobnicate", R"({"filename":"s.bin"})", true},
    };
    for (const Case &c : cases) {
        const Reply real = post(realPort, c.path, c.body);
        const Reply fake = post(fakePort, c.path, c.body);
        qInfo("%s: POST %s %s\n  real %d %s\n  fake %d %s", c.what, c.path.constData(), c.body.constData(), real.status,
              real.body.constData(), fake.status, fake.body.constData());
        QVERIFY2(real.status == fake.status, c.what);
        if (c.compareBody)
            QVERIFY2(real.json() == fake.json(), c.what);
        else
            QVERIFY2(keysOf(real.json()) == keysOf(fake.json()), c.what);
    }
    const Reply realSave = post(realPort, "/slots/0?action=save", R"({"filename":"s1.bin"})");
    QCOMPARE(QFileInfo(realSlots + u"/s1.bin"_s).size(), realSave.json().value("n_written"_L1).toInteger());
    // Without --slot-save-path.
    const Reply bare = post(bareRealPort, "/slots/0?action=save", R"({"filename":"s.bin"})");
    qInfo("without --slot-save-path: %d %s", bare.status, bare.body.constData());
    QCOMPARE(bare.status, 501);
}

// A local host, two single-model engines: after a switch away and back the saved slot is
// restored before the next turn, and llama-server evaluates only that turn's new tokens.
void TestRealLlama::promptCacheSurvivesASwitch()
{
    const QString dir = freshDir(u"cacheswitch"_s, {u"tiny-llama-a"_s, u"tiny-llama-b"_s});
    auto engine = [&](const QString &model) {
        QJsonArray argv;
        const quint16 port = portForLater();
        for (const QString &a : llamaArgv(port, {u"-m"_s, dir + u"/models/"_s + model + u".gguf"_s, u"--alias"_s,
                                                  model, u"-c"_s, u"2048"_s}))
            argv.append(a);
        return QJsonObject{{"url"_L1, u"http://127.0.0.1:%1"_s.arg(port)}, {"models"_L1, QJsonArray{model}},
                           {"argv"_L1, argv}, {"start_timeout_s"_L1, 30}, {"stop_timeout_s"_L1, 5}};
    };
    const QJsonObject root{
        {"listen"_L1, "127.0.0.1:0"_L1},
        {"state_dir"_L1, dir + u"/state"_s},
        {"hosts"_L1, QJsonObject{{"ws"_L1, QJsonObject{{"driver"_L1, "local"_L1},
                                                      {"prompt_cache"_L1, QJsonObject{{"dir"_L1, dir + u"/slots"_s},
                                                                                      {"save_budget_s"_L1, 20}}},
                                                      {"engines"_L1, QJsonObject{{"ea"_L1, engine(u"tiny-llama-a"_s)},
                                                                                 {"eb"_L1, engine(u"tiny-llama-b"_s)}}}}}}}};
    QString error;
    std::unique_ptr<RelayService> relay = startRelay(root, dir + u"/engines.json"_s, &error);
    QVERIFY2(relay, qPrintable(error));
    QList<HistoryEvent> events;
    connect(relay->hostController(u"ws"_s), &HostController::historyEvent, this,
            [&events](const HistoryEvent &e) { events << e; });
    const quint16 port = relay->endpoint().port();

    Reply r = post(port, "/v1/chat/completions", agentTurn(u"ws-tiny-llama-a"_s, 3), 40000);
    QVERIFY2(r.status == 200, r.body.constData());
    const int firstPrompt = r.json().value("timings"_L1).toObject().value("prompt_n"_L1).toInt();
    QVERIFY(firstPrompt > 300);

    r = post(port, "/v1/chat/completions", agentTurn(u"ws-tiny-llama-b"_s, 1), 40000);
    QVERIFY2(r.status == 200, r.body.constData());
    QCOMPARE(relay->hostController(u"ws"_s)->currentEngine(), u"eb"_s);

    r = post(port, "/v1/chat/completions", agentTurn(u"ws-tiny-llama-a"_s, 4), 40000);
    QVERIFY2(r.status == 200, r.body.constData());
    const QJsonObject timings = r.json().value("timings"_L1).toObject();
    QStringList lines;
    for (const HistoryEvent &e : std::as_const(events))
        lines << e.toString();
    qInfo("events:\n  %s\nnext turn timings: %s", qPrintable(lines.join(u"\n  "_s)),
          QJsonDocument(timings).toJson(QJsonDocument::Compact).constData());
    const bool saved = std::any_of(events.cbegin(), events.cend(), [](const HistoryEvent &e) {
        return e.kind == HistoryEvent::Kind::CacheSave && e.engine == u"ea" && e.detail.startsWith(u"slot ");
    });
    const bool restored = std::any_of(events.cbegin(), events.cend(), [](const HistoryEvent &e) {
        return e.kind == HistoryEvent::Kind::CacheRestore && e.engine == u"ea" && !e.detail.contains(u"not restored");
    });
    QVERIFY2(saved && restored, qPrintable(lines.join(u"\n"_s)));
    // The turn before was not evaluated again: only the new turn's tokens were.
    const QByteArray shown = QJsonDocument(timings).toJson(QJsonDocument::Compact);
    QVERIFY2(timings.value("cache_n"_L1).toInt() >= firstPrompt - 4, shown.constData());
    QVERIFY2(timings.value("prompt_n"_L1).toInt() < firstPrompt / 2, shown.constData());
}

QTEST_GUILESS_MAIN(TestRealLlama)
#include "tst_realllama.moc"
