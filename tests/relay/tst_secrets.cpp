// TLS, and secrets (client keys, admin and metrics tokens, wrong ones too) kept out of every
// log, journal, store and report: the real relay in front of the fake llama.cpp router, on
// loopback. The gates themselves are tst_security. See docs/SECURITY.md.
#include "securityfixture.h"

#include "app/consolejournal.h"
#include "cli/usagecommand.h"
#include "common/clock.h"
#include "journal/journalformat.h"
#include "relay/peerpolicy.h"
#include "relay/relay.h"
#include "store/historystore.h"
#include "store/requestquery.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTest>

#include <cstdio>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::test;
using namespace switchyard::test::security;
using namespace Qt::StringLiterals;

namespace {

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

class TestSecrets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secretsAppearInNoLog();
    void servesHttps();
};

void TestSecrets::secretsAppearInNoLog()
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

void TestSecrets::servesHttps()
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

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
