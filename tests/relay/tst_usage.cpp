// Usage per client key: UsageReport over known rows, GET /admin/usage and `switchyard usage`
// against a history store with those rows, served on loopback.
#include "rawhttpclient.h"

#include "admin/adminapi.h"
#include "admin/usagequery.h"
#include "cli/logcommand.h"
#include "cli/usagecommand.h"
#include "common/clock.h"
#include "http/httpserver.h"
#include "http/serverlimits.h"
#include "store/historystore.h"
#include "store/requestquery.h"
#include "store/usagereport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include <memory>

using namespace switchyard;
using namespace switchyard::test;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

class FixedClock final : public Clock
{
public:
    explicit FixedClock(QDateTime now) : m_now(std::move(now)) {}
    QDateTime now() const override { return m_now; }

private:
    QDateTime m_now;
};

const QDateTime Now = QDateTime(QDate(2026, 11, 20), QTime(12, 0), Qt::UTC);
const QString ClaudeCode = u"claude-cli/2.1.197 (external, sdk-cli)"_s;
const QString Curl = u"curl/8.5.0"_s;
const QString OpenAiPython = u"OpenAI/Python 1.99.1"_s;

RequestRecord request(const QString &key, const QString &userAgent, const QString &model, const QString &host,
                      const QString &engine, qint64 secondsAgo, std::chrono::milliseconds duration,
                      std::optional<qint64> in, std::optional<qint64> out, int status = 200)
{
    RequestRecord r;
    r.startedAt = Now.addSecs(-secondsAgo);
    r.method = model.isEmpty() ? u"GET"_s : u"POST"_s;
    r.path = model.isEmpty() ? u"/v1/models"_s : u"/v1/chat/completions"_s;
    r.model = model;
    r.host = host;
    r.engine = engine;
    r.status = status;
    r.duration = duration;
    r.clientAddress = u"127.0.0.1"_s;
    r.userAgent = userAgent;
    r.keyName = key;
    r.promptTokens = in;
    r.streamedTokens = out;
    return r;
}

// A request that waited `wait` (for a switch) before it went to its engine.
RequestRecord waitedFor(RequestRecord r, std::chrono::milliseconds wait)
{
    r.waited = wait;
    r.waitReason.kind = WaitReason::Kind::Switch;
    return r;
}

// A scrape or an admin call: counted nowhere.
RequestRecord relaysOwn(const char *path)
{
    RequestRecord r = request(QString(), Curl, QString(), QString(), QString(), 100, 5ms, std::nullopt, std::nullopt);
    r.path = QString::fromLatin1(path);
    return r;
}

HistoryEvent switchStart(qint64 secondsAgo, const QString &engine, const QString &model)
{
    HistoryEvent e;
    e.at = Now.addSecs(-secondsAgo);
    e.kind = HistoryEvent::Kind::SwitchStart;
    e.host = u"3090"_s;
    e.engine = engine;
    e.model = model;
    return e;
}

// The known rows. Over the last 7 days, by key:
//   laptop  3 requests  121 in   61 out  81 s GPU  1 switch (the one its first request waited for,
//                                                   4 s of its 10)
//   desk    2 requests 1000 in  500 out  51 s GPU  1 switch (for its alias, though laptop's
//                                                   other request waited for that engine too;
//                                                   9 s of its 60)
//   (none)  1 request: refused at the door, no host
// One switch no request waited for (an admin's); a request and a switch 10 days old are outside;
// a scrape of /metrics and an admin call count nowhere.
QList<RequestRecord> knownRequests()
{
    return {
        waitedFor(request(u"laptop"_s, ClaudeCode, u"3090-flint"_s, u"3090"_s, u"fork"_s, 3600, 10s, 100, 50), 4s),
        request(u"laptop"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 3000, 5s, 20, 10),
        waitedFor(request(u"desk"_s, OpenAiPython, u"3090-qwen"_s, u"3090"_s, u"mainline"_s, 1800, 60s, 1000, 500), 9s),
        request(u"laptop"_s, Curl, u"3090-other"_s, u"3090"_s, u"mainline"_s, 1801, 70s, 1, 1),
        request(u"desk"_s, OpenAiPython, QString(), QString(), QString(), 600, 10ms, std::nullopt, std::nullopt),
        request(QString(), Curl, u"3090-flint"_s, QString(), QString(), 500, 1ms, std::nullopt, std::nullopt, 401),
        request(u"laptop"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 10 * 86400, 100s, 9999, 9999),
        relaysOwn("/metrics"),
        relaysOwn("/admin/usage"),
    };
}

QList<HistoryEvent> knownEvents()
{
    HistoryEvent end = switchStart(1790, u"mainline"_s, u"3090-qwen"_s);
    end.kind = HistoryEvent::Kind::SwitchEnd;
    return {switchStart(3599, u"fork"_s, QString()),
            switchStart(2700, u"fork"_s, u"3090-flint"_s),     // nobody waiting: an admin's
            switchStart(1798, u"mainline"_s, u"3090-qwen"_s),
            end,
            switchStart(10 * 86400 - 1, u"fork"_s, u"3090-flint"_s)};
}

QStringList words(const QString &line)
{
    return line.split(QRegularExpression(u"\\s+"_s), Qt::SkipEmptyParts);
}

} // namespace

class TestUsage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void reportByKey();
    void gpuTimeStartsWhenTheEngineBegins();
    void reportBy_data();
    void reportBy();
    void parseSince_data();
    void parseSince();
    void adminUsage();
    void adminUsageRefusesBadQueries_data();
    void adminUsageRefusesBadQueries();
    void usageCommandPrintsATable();
    void usageCommandSaysWhatIsWrong();
    void commandsSayTheRelayIsNotRunning();
    void schemaMigratesAnOldDatabase();

private:
    quint16 port() const { return m_server->port(); }
    QJsonObject getUsage(const QByteArray &query, int *status = nullptr);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FixedClock> m_clock;
    std::unique_ptr<HistoryStore> m_store;
    std::unique_ptr<AdminApi> m_admin;
    std::unique_ptr<HttpServer> m_server;
};

void TestUsage::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_clock = std::make_unique<FixedClock>(Now);
    m_store = std::make_unique<HistoryStore>(m_dir->filePath(u"history.sqlite"_s), *m_clock);
    QVERIFY2(m_store->isOpen(), qPrintable(m_store->errorString()));
    for (const RequestRecord &r : knownRequests())
        m_store->record(r);
    for (const HistoryEvent &e : knownEvents())
        m_store->recordEvent(e);
    QVERIFY(m_store->sync());
    m_admin = std::make_unique<AdminApi>(m_clock.get());
    m_admin->setHistory(m_store.get());
    m_server = std::make_unique<HttpServer>(ServerLimits(), m_admin.get());
    QVERIFY2(m_server->listenOn(QHostAddress::LocalHost, 0), qPrintable(m_server->errorString()));
}

void TestUsage::cleanup()
{
    m_server.reset();
    m_admin.reset();
    m_store.reset();
    m_clock.reset();
    m_dir.reset();
}

void TestUsage::reportByKey()
{
    const UsageReport report = UsageQuery::report(*m_store, Now.addDays(-7), UsageReport::By::Key);
    QCOMPARE(report.rows.size(), 3);
    const UsageRow &laptop = report.rows.at(0);
    QCOMPARE(laptop.name, u"laptop"_s);
    QCOMPARE(laptop.requests, 3);
    QCOMPARE(laptop.tokensIn, 121);
    QCOMPARE(laptop.tokensOut, 61);
    QCOMPARE(laptop.gpuTime, std::chrono::nanoseconds(81s));   // its wait for the switch is not GPU time
    QCOMPARE(laptop.switches, 1);
    const UsageRow &desk = report.rows.at(1);
    QCOMPARE(desk.name, u"desk"_s);
    QCOMPARE(desk.requests, 2);
    QCOMPARE(desk.tokensIn, 1000);
    QCOMPARE(desk.tokensOut, 500);
    QCOMPARE(desk.gpuTime, std::chrono::nanoseconds(51s));   // its model list went to no host
    QCOMPARE(desk.switches, 1);
    const UsageRow &none = report.rows.at(2);
    QCOMPARE(none.name, QString());
    QCOMPARE(none.requests, 1);
    QCOMPARE(none.gpuTime, std::chrono::nanoseconds(0));
    QCOMPARE(none.switches, 0);
    QCOMPARE(report.total.requests, 6);
    QCOMPARE(report.total.tokensIn, 1121);
    QCOMPARE(report.total.tokensOut, 561);
    QCOMPARE(report.total.gpuTime, std::chrono::nanoseconds(132s));
    QCOMPARE(report.total.switches, 3);
    QCOMPARE(report.unattributedSwitches, 1);
}

// GPU time runs from forwarding to the end: a wait for a switch, a wake or the queue before it
// is not the GPU's; a request that waited and never reached its engine (the switch failed, the
// client left) used none; rounding never makes it negative.
void TestUsage::gpuTimeStartsWhenTheEngineBegins()
{
    using namespace std::chrono;
    RequestRecord queued = waitedFor(request(u"k"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 60, 30s, 1, 1), 20s);
    queued.waitReason.kind = WaitReason::Kind::Queue;
    const RequestRecord served = request(u"k"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 50, 7s, 1, 1);
    const RequestRecord neverServed
        = waitedFor(request(u"k"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 40, 5s, 1, 1, 424), 5s);
    RequestRecord rounded = waitedFor(request(u"k"_s, Curl, u"3090-flint"_s, u"3090"_s, u"fork"_s, 30, 2s, 1, 1, 499), 2s);
    rounded.waited += microseconds(300);   // a wait measured a hair past the end
    const UsageReport report = UsageReport::build({queued, served, neverServed, rounded}, {}, UsageReport::By::Key);
    QCOMPARE(report.rows.size(), 1);
    QCOMPARE(report.rows.at(0).requests, 4);
    QCOMPARE(report.rows.at(0).gpuTime, nanoseconds(10s + 7s));
    QCOMPARE(report.total.gpuTime, nanoseconds(17s));
}

void TestUsage::reportBy_data()
{
    QTest::addColumn<QString>("by");
    QTest::addColumn<QStringList>("names");        // in the report's order
    QTest::addColumn<QList<qint64>>("requests");
    QTest::addColumn<QList<qint64>>("switches");
    QTest::newRow("client") << u"client"_s << QStringList{u"curl"_s, u"openai-sdk-python"_s, u"claude-code"_s}
                            << QList<qint64>{3, 2, 1} << QList<qint64>{0, 1, 1};
    QTest::newRow("alias") << u"alias"_s
                           << QStringList{u"3090-flint"_s, QString(), u"3090-other"_s, u"3090-qwen"_s}
                           << QList<qint64>{3, 1, 1, 1} << QList<qint64>{1, 0, 0, 1};
    QTest::newRow("host") << u"host"_s << QStringList{u"3090"_s, QString()} << QList<qint64>{4, 2}
                          << QList<qint64>{2, 0};
}

void TestUsage::reportBy()
{
    QFETCH(QString, by);
    QFETCH(QStringList, names);
    QFETCH(QList<qint64>, requests);
    QFETCH(QList<qint64>, switches);
    const UsageReport report = UsageQuery::report(*m_store, Now.addDays(-7), *UsageReport::byFromName(by));
    QStringList gotNames;
    QList<qint64> gotRequests;
    QList<qint64> gotSwitches;
    for (const UsageRow &row : report.rows) {
        gotNames.append(row.name);
        gotRequests.append(row.requests);
        gotSwitches.append(row.switches);
    }
    QCOMPARE(gotNames, names);
    QCOMPARE(gotRequests, requests);
    QCOMPARE(gotSwitches, switches);
    QCOMPARE(report.total.requests, 6);
}

void TestUsage::parseSince_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QDateTime>("expected");   // invalid: refused
    QTest::newRow("days") << u"7d"_s << Now.addDays(-7);
    QTest::newRow("hours") << u"24h"_s << Now.addDays(-1);
    QTest::newRow("minutes") << u"30m"_s << Now.addSecs(-1800);
    QTest::newRow("seconds") << u"90s"_s << Now.addSecs(-90);
    QTest::newRow("weeks") << u"2w"_s << Now.addDays(-14);
    QTest::newRow("epoch") << u"1700000000"_s << QDateTime::fromSecsSinceEpoch(1700000000);
    QTest::newRow("iso") << u"2026-11-01T00:00:00Z"_s << QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    QTest::newRow("no unit") << u"7 d"_s << QDateTime();
    QTest::newRow("unknown unit") << u"7y"_s << QDateTime();
    QTest::newRow("words") << u"yesterday"_s << QDateTime();
    QTest::newRow("negative") << u"-7d"_s << QDateTime();
}

void TestUsage::parseSince()
{
    QFETCH(QString, text);
    QFETCH(QDateTime, expected);
    const std::optional<QDateTime> got = UsageQuery::parseSince(text, Now);
    QCOMPARE(got.has_value(), expected.isValid());
    if (got)
        QCOMPARE(got->toMSecsSinceEpoch(), expected.toMSecsSinceEpoch());
}

QJsonObject TestUsage::getUsage(const QByteArray &query, int *status)
{
    RawHttpClient client(port());
    if (!client.connectToServer())
        return {};
    client.send(RawHttpClient::get("/admin/usage" + query));
    if (!QTest::qWaitFor([&] { return client.completedResponses() >= 1; }, 10000))
        return {};
    if (status)
        *status = client.responses().first().status;
    return QJsonDocument::fromJson(client.responses().first().body).object();
}

void TestUsage::adminUsage()
{
    int status = 0;
    const QJsonObject byKey = getUsage("", &status);   // default: the last 7 days, by key
    QCOMPARE(status, 200);
    QCOMPARE(byKey.value("by"_L1).toString(), u"key"_s);
    QCOMPARE(QDateTime::fromString(byKey.value("since"_L1).toString(), Qt::ISODateWithMs), Now.addDays(-7));
    const QJsonArray rows = byKey.value("rows"_L1).toArray();
    QCOMPARE(rows.size(), 3);
    const QJsonObject laptop = rows.at(0).toObject();
    QCOMPARE(laptop.value("name"_L1).toString(), u"laptop"_s);
    QCOMPARE(laptop.value("requests"_L1).toInteger(), 3);
    QCOMPARE(laptop.value("tokens_in"_L1).toInteger(), 121);
    QCOMPARE(laptop.value("tokens_out"_L1).toInteger(), 61);
    QCOMPARE(laptop.value("gpu_seconds"_L1).toDouble(), 81.0);
    QCOMPARE(laptop.value("switches"_L1).toInteger(), 1);
    QCOMPARE(rows.at(1).toObject().value("name"_L1).toString(), u"desk"_s);
    QCOMPARE(rows.at(2).toObject().value("name"_L1).toString(), QString());
    const QJsonObject total = byKey.value("total"_L1).toObject();
    QCOMPARE(total.value("requests"_L1).toInteger(), 6);
    QCOMPARE(total.value("tokens_in"_L1).toInteger(), 1121);
    QCOMPARE(total.value("gpu_seconds"_L1).toDouble(), 132.0);
    QCOMPARE(total.value("switches"_L1).toInteger(), 3);
    QCOMPARE(byKey.value("unattributed_switches"_L1).toInteger(), 1);

    // A longer window takes the old request and the old switch in.
    const QJsonObject month = getUsage("?since=30d&by=host", &status);
    QCOMPARE(status, 200);
    QCOMPARE(month.value("by"_L1).toString(), u"host"_s);
    QCOMPARE(month.value("total"_L1).toObject().value("requests"_L1).toInteger(), 7);
    QCOMPARE(month.value("total"_L1).toObject().value("switches"_L1).toInteger(), 4);
    const QJsonObject box = month.value("rows"_L1).toArray().at(0).toObject();
    QCOMPARE(box.value("name"_L1).toString(), u"3090"_s);
    QCOMPARE(box.value("tokens_in"_L1).toInteger(), 1121 + 9999);
    QCOMPARE(box.value("switches"_L1).toInteger(), 3);
}

void TestUsage::adminUsageRefusesBadQueries_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown grouping") << QByteArray("?by=user") << u"by=user: expected key, client, alias or host"_s;
    QTest::newRow("unknown period") << QByteArray("?since=yesterday") << u"since=yesterday: expected a period"_s;
}

void TestUsage::adminUsageRefusesBadQueries()
{
    QFETCH(QByteArray, query);
    QFETCH(QString, message);
    int status = 0;
    const QJsonObject body = getUsage(query, &status);
    QCOMPARE(status, 400);
    const QString got = body.value("error"_L1).toObject().value("message"_L1).toString();
    QVERIFY2(got.contains(message), qPrintable(got));
}

void TestUsage::usageCommandPrintsATable()
{
    QString text;
    QString errors;
    QTextStream out(&text);
    QTextStream err(&errors);
    const QString relay = u"http://127.0.0.1:%1"_s.arg(port());
    QCOMPARE(runUsageCommand({u"--since"_s, u"7d"_s, u"--relay"_s, relay}, out, err), 0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() == 7, qPrintable(text));
    QVERIFY2(lines.at(0).startsWith(u"Since "_s) && lines.at(0).endsWith(u", by key:"_s), qPrintable(lines.at(0)));
    QCOMPARE(words(lines.at(1)), (QStringList{u"KEY"_s, u"REQUESTS"_s, u"TOKENS"_s, u"IN"_s, u"TOKENS"_s, u"OUT"_s,
                                              u"GPU"_s, u"TIME"_s, u"SWITCHES"_s}));
    QCOMPARE(words(lines.at(2)), (QStringList{u"laptop"_s, u"3"_s, u"121"_s, u"61"_s, u"1m21s"_s, u"1"_s}));
    QCOMPARE(words(lines.at(3)), (QStringList{u"desk"_s, u"2"_s, u"1000"_s, u"500"_s, u"51s"_s, u"1"_s}));
    QCOMPARE(words(lines.at(4)), (QStringList{u"-"_s, u"1"_s, u"0"_s, u"0"_s, u"0s"_s, u"0"_s}));
    QCOMPARE(words(lines.at(5)), (QStringList{u"total"_s, u"6"_s, u"1121"_s, u"561"_s, u"2m12s"_s, u"3"_s}));
    QVERIFY2(lines.at(6).startsWith(u"1 of the switches were caused by no request"_s), qPrintable(lines.at(6)));
    // The columns line up: every number ends where its header does.
    const qsizetype requestsEnd = lines.at(1).indexOf(u"REQUESTS"_s) + 8;
    for (int i = 2; i <= 5; ++i)
        QCOMPARE(lines.at(i).at(requestsEnd - 1).isDigit(), true);

    text.clear();
    QCOMPARE(runUsageCommand({u"--by"_s, u"client"_s, u"--relay"_s, relay}, out, err), 0);
    lines = text.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(words(lines.at(1)).first(), u"CLIENT"_s);
    QCOMPARE(words(lines.at(2)).mid(0, 2), (QStringList{u"curl"_s, u"3"_s}));

    text.clear();
    QCOMPARE(runUsageCommand({u"--json"_s, u"--by"_s, u"alias"_s, u"--relay"_s, relay}, out, err), 0);
    const QJsonObject json = QJsonDocument::fromJson(text.toUtf8()).object();
    QCOMPARE(json.value("by"_L1).toString(), u"alias"_s);
    QCOMPARE(json.value("rows"_L1).toArray().first().toObject().value("name"_L1).toString(), u"3090-flint"_s);
}

void TestUsage::usageCommandSaysWhatIsWrong()
{
    QString text;
    QString errors;
    QTextStream out(&text);
    QTextStream err(&errors);
    const QString relay = u"http://127.0.0.1:%1"_s.arg(port());
    QCOMPARE(runUsageCommand({u"--by"_s, u"user"_s, u"--relay"_s, relay}, out, err), 2);
    QVERIFY2(errors.contains(u"by=user: expected key, client, alias or host"_s), qPrintable(errors));
    errors.clear();
    QCOMPARE(runUsageCommand({u"--frobnicate"_s}, out, err), 2);
    QVERIFY2(errors.contains(u"unknown argument --frobnicate"_s), qPrintable(errors));
    QVERIFY(text.isEmpty());
}

// Issue 30 item 10: with no relay at the address, `switchyard log` and `usage` say so, where they
// said "the engine refused the connection" (the upstream exchange's words for an engine).
void TestUsage::commandsSayTheRelayIsNotRunning()
{
    QTcpServer closed;   // a loopback port that was just free, closed again: nothing listens there
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const QString relay = u"http://127.0.0.1:%1"_s.arg(closed.serverPort());
    closed.close();
    QString text;
    QString errors;
    QTextStream out(&text);
    QTextStream err(&errors);
    QCOMPARE(runLogCommand({u"--relay"_s, relay}, out, err), 1);
    err.flush();
    QVERIFY2(errors.contains(u"is the relay running?"_s), qPrintable(errors));
    QVERIFY2(!errors.contains(u"engine"_s), qPrintable(errors));
    errors.clear();
    QVERIFY(runUsageCommand({u"--relay"_s, relay}, out, err) != 0);
    err.flush();
    QVERIFY2(errors.contains(u"is the relay running?"_s), qPrintable(errors));
    QVERIFY2(!errors.contains(u"engine"_s), qPrintable(errors));
}

// A database written before the key column existed gets it, empty, and keeps its rows.
void TestUsage::schemaMigratesAnOldDatabase()
{
    const QString path = m_dir->filePath(u"old.sqlite"_s);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"old-schema"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        // Schema step 1 as it shipped, with one row.
        QVERIFY(q.exec(u"CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at INTEGER NOT NULL,"
                       " method TEXT NOT NULL DEFAULT '', path TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',"
                       " host TEXT NOT NULL DEFAULT '', engine TEXT NOT NULL DEFAULT '', status INTEGER NOT NULL DEFAULT 0,"
                       " bytes_out INTEGER NOT NULL DEFAULT 0, duration_ms REAL NOT NULL DEFAULT 0, ttfb_ms REAL,"
                       " tokens INTEGER, tokens_per_s REAL, client TEXT NOT NULL DEFAULT '',"
                       " user_agent TEXT NOT NULL DEFAULT '', relay_error TEXT NOT NULL DEFAULT '')"_s));
        QVERIFY(q.exec(u"CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, kind TEXT NOT NULL,"
                       " host TEXT NOT NULL DEFAULT '', engine TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',"
                       " duration_ms REAL, detail TEXT NOT NULL DEFAULT '')"_s));
        QVERIFY(q.exec(u"INSERT INTO requests (started_at, method, path, host, status, duration_ms, tokens)"
                       " VALUES (%1, 'POST', '/v1/chat/completions', '3090', 200, 2000, 7)"_s
                               .arg(Now.addSecs(-60).toMSecsSinceEpoch())));
        QVERIFY(q.exec(u"PRAGMA user_version = 1"_s));
        db.close();
    }
    QSqlDatabase::removeDatabase(u"old-schema"_s);
    HistoryStore store(path, *m_clock);
    QVERIFY2(store.isOpen(), qPrintable(store.errorString()));
    const QList<RequestRecord> rows = store.requests(RequestQuery());
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().keyName, QString());
    QVERIFY(!rows.first().promptTokens);
    QCOMPARE(rows.first().streamedTokens, std::optional<qint64>(7));
    RequestRecord r = knownRequests().first();
    store.record(r);
    const QList<RequestRecord> after = store.requests(RequestQuery());
    QCOMPARE(after.size(), 2);
    QCOMPARE(after.last().keyName, u"laptop"_s);   // newest first: the new row started an hour ago
    QCOMPARE(after.last().promptTokens, std::optional<qint64>(100));
}

QTEST_GUILESS_MAIN(TestUsage)
#include "tst_usage.moc"
