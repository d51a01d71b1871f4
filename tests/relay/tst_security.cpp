// Access control (client keys, admin gate), TLS, and secrets kept out of every log: the real
// relay in front of the fake llama.cpp router, on loopback. See docs/SECURITY.md.
#include "rawhttpclient.h"
#include "relayfixture.h"

#include "app/consolejournal.h"
#include "cli/usagecommand.h"
#include "common/constanttime.h"
#include "http/incomingrequest.h"
#include "journal/journalformat.h"
#include "relay/accesspolicy.h"
#include "relay/peerpolicy.h"
#include "relay/relay.h"
#include "common/clock.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTest>

#include <cstdio>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

const QString ClientKey = u"sk-relay-client-key-0123456789abcdef"_s;
const QString OtherClientKey = u"second-client-key-XYZ"_s;
const QString AdminToken = u"admin-token-f00dfeedbeef"_s;
const QString MetricsToken = u"scraper-token-5ca1ab1e0ff"_s;
const QByteArray WrongKey = "sk-wrong-key-that-must-not-be-logged-42";
const QByteArray WrongAdminToken = "wrong-admin-token-never-logged-77";

fake::FakeOptions routerOptions()
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s};
    o.loaded = {u"alpha"_s};
    o.tokensPerSecond = 1000;
    return o;
}

QByteArray chatBody(bool stream = false)
{
    return R"({"model":"h1-alpha","messages":[{"role":"user","content":"hi"}],"max_tokens":2)"
        + QByteArray(stream ? R"(,"stream":true})" : "}");
}

// Sends one request on a fresh connection (from `from`, when given) and returns the answer.
RawHttpClient::Response roundTrip(quint16 port, const QByteArray &raw, const QHostAddress &from = {})
{
    RawHttpClient client(port);
    if (!from.isNull() && !client.socket()->bind(from))
        qFatal("cannot bind the test client to %s", qPrintable(from.toString()));
    if (!client.connectToServer())
        return {};
    client.send(raw);
    if (!QTest::qWaitFor([&] { return client.completedResponses() >= 1; }, 15000))
        return {};
    return client.responses().first();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Everything written to fd 2 and through Qt's message handler while it lives.
class StderrCapture
{
public:
    explicit StderrCapture(const QString &path)
        : m_path(path)
    {
        std::fflush(stderr);
        m_saved = ::dup(2);
        m_file = std::fopen(QFile::encodeName(path).constData(), "w");
        if (m_file)
            ::dup2(::fileno(m_file), 2);
        s_messages.clear();
        m_previous = qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &text) {
            s_messages += text + u'\n';
        });
    }
    ~StderrCapture() { stop(); }

    QByteArray stop()
    {
        if (m_file) {
            std::fflush(stderr);
            ::dup2(m_saved, 2);
            ::close(m_saved);
            std::fclose(m_file);
            m_file = nullptr;
            qInstallMessageHandler(m_previous);
        }
        return readAll(m_path) + s_messages.toUtf8();
    }

private:
    QString m_path;
    int m_saved = -1;
    FILE *m_file = nullptr;
    QtMessageHandler m_previous = nullptr;
    static inline QString s_messages;
};

} // namespace

class TestSecurity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void constantTimeCompare_data();
    void constantTimeCompare();
    void peerPolicy_data();
    void peerPolicy();
    void bearerToken_data();
    void bearerToken();

    void clientKeys_data();
    void clientKeys();
    void clientKeyIsNotForwarded();
    void withoutKeysAuthorizationPassesThrough();
    void hostApiKeyGoesToTheEngine_data();
    void hostApiKeyGoesToTheEngine();
    void adminFromLanNeedsToken_data();
    void adminFromLanNeedsToken();
    void adminWithoutTokenRefusesLan();
    void secretsAppearInNoLog();
    void servesHttps();
};

void TestSecurity::constantTimeCompare_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("equal");
    QTest::newRow("same") << QByteArray("s3cret-key") << QByteArray("s3cret-key") << true;
    QTest::newRow("both empty") << QByteArray() << QByteArray() << true;
    QTest::newRow("last byte") << QByteArray("s3cret-kez") << QByteArray("s3cret-key") << false;
    QTest::newRow("first byte") << QByteArray("t3cret-key") << QByteArray("s3cret-key") << false;
    QTest::newRow("prefix") << QByteArray("s3cret") << QByteArray("s3cret-key") << false;
    QTest::newRow("longer") << QByteArray("s3cret-key ") << QByteArray("s3cret-key") << false;
    QTest::newRow("empty vs key") << QByteArray() << QByteArray("s3cret-key") << false;
    QTest::newRow("case") << QByteArray("S3CRET-KEY") << QByteArray("s3cret-key") << false;
    QTest::newRow("embedded nul") << QByteArray("ab\0c", 4) << QByteArray("ab\0d", 4) << false;
}

void TestSecurity::constantTimeCompare()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, equal);
    QCOMPARE(constantTimeEquals(a, b), equal);
    QCOMPARE(constantTimeEquals(b, a), equal);
}

void TestSecurity::peerPolicy_data()
{
    QTest::addColumn<QString>("peer");
    QTest::addColumn<bool>("byDefault");
    QTest::addColumn<bool>("onlyOneAddress");   // trusted networks = 127.0.0.1/32 and ::1
    QTest::newRow("127.0.0.1") << u"127.0.0.1"_s << true << true;
    QTest::newRow("127.0.0.2") << u"127.0.0.2"_s << true << false;
    QTest::newRow("127.255.1.1") << u"127.255.1.1"_s << true << false;
    QTest::newRow("::1") << u"::1"_s << true << true;
    QTest::newRow("mapped 127.0.0.1") << u"::ffff:127.0.0.1"_s << true << true;
    QTest::newRow("mapped 127.0.0.2") << u"::ffff:127.0.0.2"_s << true << false;
    QTest::newRow("lan ipv4") << u"192.168.1.20"_s << false << false;
    QTest::newRow("mapped lan") << u"::ffff:10.0.0.5"_s << false << false;
    QTest::newRow("128.0.0.1") << u"128.0.0.1"_s << false << false;
    QTest::newRow("link local v6") << u"fe80::1"_s << false << false;
    QTest::newRow("any") << u"0.0.0.0"_s << false << false;
    QTest::newRow("null") << QString() << false << false;
}

void TestSecurity::peerPolicy()
{
    QFETCH(QString, peer);
    QFETCH(bool, byDefault);
    QFETCH(bool, onlyOneAddress);
    const QHostAddress address(peer);
    QCOMPARE(PeerPolicy().isTrusted(address), byDefault);
    PeerPolicy narrow;
    narrow.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}, {QHostAddress(u"::1"_s), 128}});
    QCOMPARE(narrow.isTrusted(address), onlyOneAddress);
}

void TestSecurity::bearerToken_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("token");
    QTest::newRow("plain") << QByteArray("Bearer abc") << QByteArray("abc");
    QTest::newRow("lower case scheme") << QByteArray("bearer abc") << QByteArray("abc");
    QTest::newRow("spaces") << QByteArray("  Bearer   abc  ") << QByteArray("abc");
    QTest::newRow("basic") << QByteArray("Basic YWJj") << QByteArray();
    QTest::newRow("scheme only") << QByteArray("Bearer ") << QByteArray();
    QTest::newRow("no space") << QByteArray("Bearerabc") << QByteArray();
    QTest::newRow("empty") << QByteArray() << QByteArray();
}

void TestSecurity::bearerToken()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, token);
    QCOMPARE(AccessPolicy::bearerToken(header), token);
}

void TestSecurity::clientKeys_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("shape");   // "openai", "anthropic" or "" for a non-error answer

    const QByteArray right = "Authorization: Bearer " + ClientKey.toUtf8() + "\r\n";
    const QByteArray wrong = "Authorization: Bearer " + WrongKey + "\r\n";
    QTest::newRow("models, no key") << RawHttpClient::get("/v1/models") << 401 << u"openai"_s;
    QTest::newRow("models, wrong bearer") << RawHttpClient::get("/v1/models", wrong) << 401 << u"openai"_s;
    QTest::newRow("models, right bearer") << RawHttpClient::get("/v1/models", right) << 200 << QString();
    QTest::newRow("models, second key as x-api-key")
        << RawHttpClient::get("/v1/models", "x-api-key: " + OtherClientKey.toUtf8() + "\r\n") << 200 << QString();
    QTest::newRow("router models, no key") << RawHttpClient::get("/models") << 401 << u"openai"_s;
    QTest::newRow("sse feed, no key") << RawHttpClient::get("/models/sse") << 401 << u"openai"_s;
    QTest::newRow("props, no key") << RawHttpClient::get("/props") << 401 << u"openai"_s;
    QTest::newRow("chat, wrong x-api-key")
        << RawHttpClient::post("/v1/chat/completions", chatBody(), "x-api-key: " + WrongKey + "\r\n") << 401
        << u"openai"_s;
    QTest::newRow("chat, right key") << RawHttpClient::post("/v1/chat/completions", chatBody(), right) << 200
                                     << QString();
    QTest::newRow("messages, no key") << RawHttpClient::post("/v1/messages", chatBody()) << 401 << u"anthropic"_s;
    QTest::newRow("messages, wrong x-api-key")
        << RawHttpClient::post("/v1/messages", chatBody(), "x-api-key: " + WrongKey + "\r\n") << 401
        << u"anthropic"_s;
    QTest::newRow("messages, key with basic scheme")
        << RawHttpClient::post("/v1/messages", chatBody(), "Authorization: Basic " + ClientKey.toUtf8() + "\r\n")
        << 401 << u"anthropic"_s;
    QTest::newRow("unknown model, no key: 401 before 404")
        << RawHttpClient::post("/v1/chat/completions", R"({"model":"nope"})") << 401 << u"openai"_s;
    QTest::newRow("delete models, no key: 401 before 403")
        << QByteArray("DELETE /models HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n") << 401 << u"openai"_s;
    QTest::newRow("health stays open") << RawHttpClient::get("/health") << 200 << QString();
    QTest::newRow("root stays open") << RawHttpClient::get("/") << 200 << QString();
    QTest::newRow("preflight stays open")
        << QByteArray("OPTIONS /v1/chat/completions HTTP/1.1\r\nHost: x\r\nOrigin: http://a\r\n"
                      "Access-Control-Request-Method: POST\r\nContent-Length: 0\r\n\r\n")
        << 204 << QString();
}

void TestSecurity::clientKeys()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QFETCH(QString, shape);

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.access.clientKeys = {{u"laptop"_s, ClientKey}, {u"desk"_s, OtherClientKey}}; }));
    const RawHttpClient::Response r = roundTrip(f.port(), request);
    QCOMPARE(r.status, status);
    if (shape.isEmpty())
        return;
    QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
    QCOMPARE(r.header("www-authenticate"), QByteArray("Bearer"));
    const QJsonObject body = QJsonDocument::fromJson(r.body).object();
    if (shape == u"anthropic") {
        QCOMPARE(body.value("type"_L1).toString(), u"error"_s);
        const QJsonObject error = body.value("error"_L1).toObject();
        QCOMPARE(error.value("type"_L1).toString(), u"authentication_error"_s);
        QCOMPARE(error.value("source"_L1).toString(), u"switchyard"_s);
        QVERIFY(!error.value("message"_L1).toString().isEmpty());
    } else {
        const QJsonObject error = body.value("error"_L1).toObject();
        QCOMPARE(error.value("type"_L1).toString(), u"authentication_error"_s);
        QCOMPARE(error.value("code"_L1).toInt(), 401);
        QCOMPARE(error.value("source"_L1).toString(), u"switchyard"_s);
    }
    QVERIFY2(!r.body.contains(WrongKey), r.body.constData());
    QVERIFY2(!r.body.contains(ClientKey.toUtf8()), r.body.constData());
    // Refused at the door: nothing reached the engine.
    QVERIFY(f.receivedOn("/v1/chat/completions").isEmpty());
    QVERIFY(f.receivedOn("/v1/messages").isEmpty());
}

void TestSecurity::clientKeyIsNotForwarded()
{
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) { c.access.clientKeys = {{u"laptop"_s, ClientKey}}; }));
    const QByteArray headers = "Authorization: Bearer " + ClientKey.toUtf8() + "\r\nx-api-key: " + ClientKey.toUtf8()
        + "\r\nX-Custom: kept\r\n";
    const RawHttpClient::Response r = roundTrip(f.port(), RawHttpClient::post("/v1/chat/completions", chatBody(), headers));
    QCOMPARE(r.status, 200);
    const QList<fake::ReceivedRequest> got = f.receivedOn("/v1/chat/completions");
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.first().header("x-custom"), QByteArray("kept"));   // other headers still pass
    QVERIFY(got.first().header("authorization").isEmpty());
    QVERIFY(got.first().header("x-api-key").isEmpty());
}

void TestSecurity::withoutKeysAuthorizationPassesThrough()
{
    // No relay keys: as before, an engine run with its own --api-key sees the client's header.
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    const RawHttpClient::Response r = roundTrip(
        f.port(), RawHttpClient::post("/v1/chat/completions", chatBody(), "Authorization: Bearer engine-key\r\n"));
    QCOMPARE(r.status, 200);
    const QList<fake::ReceivedRequest> got = f.receivedOn("/v1/chat/completions");
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.first().header("authorization"), QByteArray("Bearer engine-key"));
}

void TestSecurity::hostApiKeyGoesToTheEngine_data()
{
    QTest::addColumn<bool>("relayKeys");
    QTest::newRow("with relay keys") << true;
    QTest::newRow("without relay keys") << false;
}

void TestSecurity::hostApiKeyGoesToTheEngine()
{
    // An engine run with llama-server --api-key gets the host's api_key, never the client's.
    QFETCH(bool, relayKeys);
    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [relayKeys](Config &c) {
        c.hosts.first().apiKey = u"engine-side-key"_s;
        if (relayKeys)
            c.access.clientKeys = {{u"laptop"_s, ClientKey}};
    }));
    const QByteArray headers = "Authorization: Bearer " + ClientKey.toUtf8() + "\r\nx-api-key: " + ClientKey.toUtf8() + "\r\n";
    QCOMPARE(roundTrip(f.port(), RawHttpClient::post("/v1/chat/completions", chatBody(), headers)).status, 200);
    const QList<fake::ReceivedRequest> got = f.receivedOn("/v1/chat/completions");
    QCOMPARE(got.size(), 1);
    QCOMPARE(got.first().header("authorization"), QByteArray("Bearer engine-side-key"));
    QVERIFY(got.first().header("x-api-key").isEmpty());
    int authorizationHeaders = 0;
    for (const auto &h : got.first().headers)
        authorizationHeaders += h.first.compare("authorization", Qt::CaseInsensitive) == 0 ? 1 : 0;
    QCOMPARE(authorizationHeaders, 1);
    // The relay's own reads of the engine carry it too: the model list and the model event feed.
    for (const char *path : {"/models", "/models/sse"}) {
        QTRY_VERIFY_WITH_TIMEOUT(!f.receivedOn(path).isEmpty(), 5000);
        for (const fake::ReceivedRequest &r : f.receivedOn(path))
            QCOMPARE(r.header("authorization"), QByteArray("Bearer engine-side-key"));
    }
}

void TestSecurity::adminFromLanNeedsToken_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");

    const QByteArray token = "Authorization: Bearer " + AdminToken.toUtf8() + "\r\n";
    const QByteArray wrong = "Authorization: Bearer " + WrongAdminToken + "\r\n";
    const QByteArray clientKey = "Authorization: Bearer " + ClientKey.toUtf8() + "\r\n";
    const QByteArray lease = R"({"owner":"bench","ttl_s":60})";
    // 127.0.0.1 is this machine; 127.0.0.2 plays a LAN peer (see init of the fixture below).
    QTest::newRow("this machine, no token") << u"127.0.0.1"_s << RawHttpClient::get("/admin/hosts") << 200;
    QTest::newRow("this machine, from a web page")
        << u"127.0.0.1"_s << RawHttpClient::post("/admin/hosts/h1/lease", lease, "Origin: http://evil.example\r\n") << 403;
    QTest::newRow("this machine, web page with token")
        << u"127.0.0.1"_s << RawHttpClient::get("/admin/hosts", "Origin: http://a\r\n" + token) << 200;
    QTest::newRow("lan, no token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/hosts") << 403;
    QTest::newRow("lan, wrong token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/hosts", wrong) << 403;
    QTest::newRow("lan, client key is not the admin token")
        << u"127.0.0.2"_s << RawHttpClient::get("/admin/hosts", clientKey) << 403;
    QTest::newRow("lan, admin token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/hosts", token) << 200;
    QTest::newRow("lan, lease without token")
        << u"127.0.0.2"_s << RawHttpClient::post("/admin/hosts/h1/lease", lease) << 403;
    QTest::newRow("lan, release without token")
        << u"127.0.0.2"_s << QByteArray("DELETE /admin/hosts/h1/lease HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        << 403;
    QTest::newRow("lan, history without token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/requests") << 403;
    QTest::newRow("lan, usage without token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/usage") << 403;
    QTest::newRow("lan, usage with client key") << u"127.0.0.2"_s << RawHttpClient::get("/admin/usage", clientKey) << 403;
    // Through the gate: this fixture has no history store, so 424 says so.
    QTest::newRow("lan, usage with admin token") << u"127.0.0.2"_s << RawHttpClient::get("/admin/usage", token) << 424;
    // /metrics: the admin gate, or the scraper's own token, which opens nothing else.
    const QByteArray scraper = "Authorization: Bearer " + MetricsToken.toUtf8() + "\r\n";
    QTest::newRow("this machine, metrics") << u"127.0.0.1"_s << RawHttpClient::get("/metrics") << 200;
    QTest::newRow("lan, metrics without token") << u"127.0.0.2"_s << RawHttpClient::get("/metrics") << 403;
    QTest::newRow("lan, metrics with client key") << u"127.0.0.2"_s << RawHttpClient::get("/metrics", clientKey) << 403;
    QTest::newRow("lan, metrics with admin token") << u"127.0.0.2"_s << RawHttpClient::get("/metrics", token) << 200;
    QTest::newRow("lan, metrics with scraper token") << u"127.0.0.2"_s << RawHttpClient::get("/metrics", scraper) << 200;
    QTest::newRow("lan, scraper token is not the admin token")
        << u"127.0.0.2"_s << RawHttpClient::get("/admin/hosts", scraper) << 403;
}

void TestSecurity::adminFromLanNeedsToken()
{
    QFETCH(QString, from);
    QFETCH(QByteArray, request);
    QFETCH(int, status);

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) {
        c.access.clientKeys = {{u"laptop"_s, ClientKey}};
        c.access.adminToken = AdminToken;
        c.access.metricsToken = MetricsToken;
    }));
    // The relay listens on 127.0.0.1 only; the real gate decides, with only 127.0.0.1 counting
    // as this machine, so a client bound to 127.0.0.2 takes the path a LAN peer takes.
    PeerPolicy peers;
    peers.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}});
    f.relay->relay()->setPeerPolicy(peers);

    const RawHttpClient::Response r = roundTrip(f.port(), request, QHostAddress(from));
    QCOMPARE(r.status, status);
    if (status == 403) {
        QCOMPARE(r.header("x-should-retry"), QByteArray("false"));
        const QJsonObject error = QJsonDocument::fromJson(r.body).object().value("error"_L1).toObject();
        QCOMPARE(error.value("type"_L1).toString(), u"permission_error"_s);
        QCOMPARE(error.value("source"_L1).toString(), u"switchyard"_s);
        QVERIFY(!r.body.contains(WrongAdminToken));
    }
}

void TestSecurity::adminWithoutTokenRefusesLan()
{
    // No admin token configured: nothing from the LAN opens the admin API, whatever it sends.
    RelayFixture f;
    QVERIFY(f.start(routerOptions()));
    PeerPolicy peers;
    peers.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}});
    f.relay->relay()->setPeerPolicy(peers);
    const QHostAddress lan(u"127.0.0.2"_s);
    QCOMPARE(roundTrip(f.port(), RawHttpClient::get("/admin/hosts"), lan).status, 403);
    QCOMPARE(roundTrip(f.port(), RawHttpClient::get("/admin/hosts", "Authorization: Bearer \r\n"), lan).status, 403);
    QCOMPARE(roundTrip(f.port(), RawHttpClient::get("/admin/hosts", "Authorization: Bearer x\r\n"), lan).status, 403);
    QCOMPARE(roundTrip(f.port(), RawHttpClient::get("/admin/hosts")).status, 200);   // this machine
    // The client API is unaffected (no keys configured).
    QCOMPARE(roundTrip(f.port(), RawHttpClient::get("/v1/models"), lan).status, 200);
}

void TestSecurity::secretsAppearInNoLog()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    StderrCapture stderrCapture(dir.filePath(u"stderr.txt"_s));

    SystemClock clock;
    auto store = std::make_unique<HistoryStore>(dir.filePath(u"history.sqlite"_s), clock);
    QVERIFY2(store->isOpen(), qPrintable(store->errorString()));
    const QString journalPath = dir.filePath(u"journal.txt"_s);
    FILE *journalFile = std::fopen(QFile::encodeName(journalPath).constData(), "w");
    QVERIFY(journalFile);
    auto journal = std::make_unique<ConsoleJournal>(journalFile);

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [](Config &c) {
        c.access.clientKeys = {{u"laptop"_s, ClientKey}};
        c.access.adminToken = AdminToken;
    }));
    PeerPolicy peers;
    peers.setTrustedNetworks({{QHostAddress(u"127.0.0.1"_s), 32}});
    f.relay->relay()->setPeerPolicy(peers);
    f.relay->setJournal(journal.get());
    f.relay->setHistory(store.get());
    const QHostAddress lan(u"127.0.0.2"_s);
    const QByteArray right = "Authorization: Bearer " + ClientKey.toUtf8() + "\r\n";

    // Wrong and right keys, both headers, both API shapes, a streamed answer; the admin token
    // right and wrong from the LAN; a key smuggled into the query string and the user agent.
    QList<QPair<QByteArray, QHostAddress>> requests = {
        {RawHttpClient::post("/v1/chat/completions", chatBody(), "Authorization: Bearer " + WrongKey + "\r\n"), {}},
        {RawHttpClient::post("/v1/messages", chatBody(), "x-api-key: " + WrongKey + "\r\n"), {}},
        {RawHttpClient::post("/v1/chat/completions", chatBody(true), right), {}},
        {RawHttpClient::post("/v1/chat/completions", chatBody(), "x-api-key: " + ClientKey.toUtf8() + "\r\n"), {}},
        {RawHttpClient::get("/v1/models?api_key=" + WrongKey, "User-Agent: probe x-api-key: " + WrongKey + "\r\n"), {}},
        {RawHttpClient::get("/admin/hosts", "Authorization: Bearer " + WrongAdminToken + "\r\n"), lan},
        {RawHttpClient::get("/admin/hosts", "Authorization: Bearer " + AdminToken.toUtf8() + "\r\n"), lan},
    };
    QSignalSpy finished(f.relay->relay(), &Relay::requestFinished);
    QList<int> statuses;
    for (const auto &[raw, from] : requests)
        statuses.append(roundTrip(f.port(), raw, from).status);
    QCOMPARE(statuses, (QList<int>{401, 401, 200, 200, 401, 403, 200}));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), requests.size(), 10000);
    QVERIFY(store->sync());
    QCOMPARE(store->requests(RequestQuery()).size(), requests.size());

    // What the admin API gives back (from this machine, so no token needed).
    QByteArray adminAnswers;
    const QList<QByteArray> adminPaths{"/admin/requests", "/admin/events", "/admin/hosts", "/admin/stats", "/metrics",
                                       "/admin/usage?by=key", "/admin/usage?by=client"};
    for (const QByteArray &path : adminPaths) {
        const RawHttpClient::Response r = roundTrip(f.port(), RawHttpClient::get(path));
        QCOMPARE(r.status, 200);
        adminAnswers += r.body;
    }
    QVERIFY(adminAnswers.contains("/v1/chat/completions"));   // the history is really there
    QVERIFY(adminAnswers.contains("switchyard_requests_total{"));   // and the metrics
    // The key is known by its name everywhere: history, metrics, usage.
    QVERIFY(adminAnswers.contains(R"("key":"laptop")"));
    QVERIFY(adminAnswers.contains(R"(key="laptop")"));
    QVERIFY(adminAnswers.contains(R"("name":"laptop","requests":2)"));
    QString usageText;
    {
        QTextStream out(&usageText);
        QString usageErrors;
        QTextStream err(&usageErrors);
        for (const QString &by : {u"key"_s, u"client"_s}) {
            QCOMPARE(runUsageCommand({u"--by"_s, by, u"--relay"_s, u"http://127.0.0.1:%1"_s.arg(f.port())}, out, err), 0);
            QCOMPARE(runUsageCommand({u"--json"_s, u"--relay"_s, u"http://127.0.0.1:%1"_s.arg(f.port())}, out, err), 0);
        }
        QVERIFY2(usageErrors.isEmpty(), qPrintable(usageErrors));
    }
    QVERIFY2(usageText.contains(u"\nlaptop "_s), qPrintable(usageText));
    QVERIFY(store->sync());
    int keyNamed = 0;
    for (const RequestRecord &r : store->requests(RequestQuery())) {
        if (r.keyName != u"laptop"_s)
            continue;
        ++keyNamed;
        // Tokens in, from the engine's answer (streamed or not), for switchyard usage.
        QVERIFY2(r.promptTokens.value_or(0) > 0, qPrintable(JournalFormat::requestLine(r)));
    }
    QCOMPARE(keyNamed, 2);

    QVERIFY(store->sync());
    f.relay.reset();
    store.reset();   // closes the database: everything is in the files now
    journal.reset();
    std::fclose(journalFile);
    const QByteArray err = stderrCapture.stop();

    const QByteArray journalText = readAll(journalPath);
    // One line per request: the admin API's, the usage command's four too.
    QCOMPARE(journalText.count('\n'), qsizetype(requests.size() + adminPaths.size() + 4));
    QVERIFY(journalText.contains(" key=laptop "));
    QVERIFY(journalText.contains("status=401"));
    QVERIFY(journalText.contains("status=403"));
    QByteArray historyFiles;
    const QStringList files = QDir(dir.path()).entryList({u"history.sqlite*"_s}, QDir::Files);
    QVERIFY(!files.isEmpty());
    for (const QString &name : files)
        historyFiles += readAll(dir.filePath(name));
    QVERIFY(historyFiles.size() > 0);

    const QList<QPair<const char *, QByteArray>> logs = {
        {"journal", journalText}, {"history files", historyFiles}, {"admin answers", adminAnswers}, {"stderr", err},
        {"switchyard usage", usageText.toUtf8()}};
    const QList<QByteArray> secrets = {ClientKey.toUtf8(), AdminToken.toUtf8(), WrongKey, WrongAdminToken};
    for (const auto &[name, text] : logs) {
        for (const QByteArray &secret : secrets)
            QVERIFY2(!text.contains(secret), qPrintable(u"%1 contains %2"_s.arg(QLatin1StringView(name), QString::fromUtf8(secret))));
    }
    // The engine never saw a key either.
    for (const fake::ReceivedRequest &r : f.fake->received()) {
        QVERIFY(r.header("authorization").isEmpty());
        QVERIFY(r.header("x-api-key").isEmpty());
    }
}

void TestSecurity::servesHttps()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString cert = dir.filePath(u"cert.pem"_s);
    const QString key = dir.filePath(u"key.pem"_s);
    QProcess openssl;
    openssl.start(u"openssl"_s, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
                                 u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s, u"-days"_s, u"2"_s,
                                 u"-subj"_s, u"/CN=switchyard-test"_s,
                                 u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s,
                                 u"-keyout"_s, key, u"-out"_s, cert});
    QVERIFY2(openssl.waitForFinished(60000), "openssl req did not finish (is the openssl CLI installed?)");
    QVERIFY2(openssl.exitCode() == 0, openssl.readAllStandardError().constData());

    RelayFixture f;
    QVERIFY(f.start(routerOptions(), [&](Config &c) {
        c.access.tlsCertFile = cert;
        c.access.tlsKeyFile = key;
        c.access.clientKeys = {{u"laptop"_s, ClientKey}};
    }));
    QCOMPARE(f.relay->endpoint().scheme(), u"https"_s);

    // Trust exactly this certificate, and check the name it was issued for.
    const QList<QSslCertificate> trusted = QSslCertificate::fromPath(cert);
    QCOMPARE(trusted.size(), 1);
    auto request = [&](const QByteArray &raw) {
        QSslSocket socket;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setCaCertificates(trusted);
        config.setPeerVerifyMode(QSslSocket::VerifyPeer);
        socket.setSslConfiguration(config);
        QList<QSslError> errors;
        connect(&socket, &QSslSocket::sslErrors, &socket, [&](const QList<QSslError> &e) { errors += e; });
        socket.connectToHostEncrypted(u"127.0.0.1"_s, f.port());
        QByteArray answer;
        if (!QTest::qWaitFor([&] { return socket.isEncrypted() || socket.state() == QAbstractSocket::UnconnectedState; }, 15000)
                || !socket.isEncrypted()) {
            qWarning() << "no TLS session:" << socket.errorString() << errors;
            return answer;
        }
        socket.write(raw);
        if (!QTest::qWaitFor([&] {
                answer += socket.readAll();
                return answer.contains("\r\n\r\n") && answer.endsWith("}");
            }, 15000))
            qWarning() << "no complete answer over TLS:" << answer;
        return answer;
    };
    const QByteArray health = request(RawHttpClient::get("/health"));
    QVERIFY2(health.startsWith("HTTP/1.1 200"), health.constData());
    const QByteArray denied = request(RawHttpClient::get("/v1/models"));
    QVERIFY2(denied.startsWith("HTTP/1.1 401"), denied.constData());
    const QByteArray models = request(RawHttpClient::get("/v1/models", "Authorization: Bearer " + ClientKey.toUtf8() + "\r\n"));
    QVERIFY2(models.startsWith("HTTP/1.1 200") && models.contains("h1-alpha"), models.constData());

    // A streamed answer over TLS arrives whole: chunked framing ends with the last chunk.
    {
        QSslSocket socket;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setCaCertificates(trusted);
        socket.setSslConfiguration(config);
        socket.connectToHostEncrypted(u"127.0.0.1"_s, f.port());
        QVERIFY(QTest::qWaitFor([&] { return socket.isEncrypted(); }, 15000));
        socket.write(RawHttpClient::post("/v1/chat/completions",
                                         R"({"model":"h1-alpha","messages":[{"role":"user","content":"hi"}],"max_tokens":40,"stream":true})",
                                         "x-api-key: " + ClientKey.toUtf8() + "\r\n"));
        QByteArray stream;
        const bool complete = QTest::qWaitFor([&] {
            stream += socket.readAll();
            return stream.endsWith("\r\n0\r\n\r\n");
        }, 30000);
        QVERIFY2(complete, stream.right(300).constData());
        QVERIFY2(stream.startsWith("HTTP/1.1 200"), stream.left(200).constData());
        QVERIFY(stream.contains("data: [DONE]"));
        QVERIFY(stream.count("data: {") >= 40);
    }

    // Plain HTTP on the HTTPS port gets no HTTP answer, only a closed connection.
    RawHttpClient plain(f.port());
    QVERIFY(plain.connectToServer());
    plain.send(RawHttpClient::get("/health"));
    QTRY_VERIFY_WITH_TIMEOUT(plain.isDisconnected(), 15000);
    QVERIFY(!plain.rawReceived().startsWith("HTTP/"));
}

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
