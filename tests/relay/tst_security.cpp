// Access control (client keys, admin gate): the real relay in front of the fake llama.cpp
// router, on loopback. TLS and secrets kept out of every log are tst_secrets. See docs/SECURITY.md.
#include "securityfixture.h"

#include "common/constanttime.h"
#include "relay/accesspolicy.h"
#include "relay/peerpolicy.h"
#include "relay/relay.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::security;
using namespace Qt::StringLiterals;

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

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
