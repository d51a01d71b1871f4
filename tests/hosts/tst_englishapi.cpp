// A relay started under a German locale, with the German catalogue installed as the desktop
// installs it (QTranslator from :/i18n), still answers API clients in English: Claude Code and
// opencode read these words, and the relay's own refusals must not change with the user's
// language. The window's words are the ones that are translated.
#include "switchingfixture.h"

#include "rawhttpclient.h"
#include "relay/clientreplies.h"

#include <QCoreApplication>
#include <QTranslator>

using namespace switchyard;
using namespace switchyard::test;

namespace {

QByteArray chat(const QByteArray &model)
{
    return R"({"model":")" + model + R"(","max_tokens":8,"messages":[{"role":"user","content":"hi"}]})";
}

} // namespace

class TestEnglishApi : public QObject
{
    Q_OBJECT

public:
    explicit TestEnglishApi(bool translated) : m_translated(translated) {}

private Q_SLOTS:
    void theUserSpeaksGerman();
    void refusalsAreEnglish();
    void hostRefusalsAreEnglish();

private:
    bool m_translated;
};

void TestEnglishApi::theUserSpeaksGerman()
{
    QCOMPARE(QLocale().language(), QLocale::German);
    QVERIFY2(m_translated, "the German catalogue did not load from :/i18n");
    QCOMPARE(QCoreApplication::translate("switchyard::HistoryWriter", "Cannot switch the history database to WAL mode: %1"),
             u"Die Verlaufsdatenbank lässt sich nicht in den WAL-Modus schalten: %1"_s);
}

void TestEnglishApi::refusalsAreEnglish()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", chat("nope")));
    client.send(RawHttpClient::post("/v1/chat/completions", "[1]"));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 2, 5000);

    const RawHttpClient::Response &unknown = client.responses().at(0);
    QCOMPARE(unknown.status, 404);
    QVERIFY2(unknown.body.contains("model 'nope' not found; known models: "), unknown.body.constData());
    QCOMPARE(unknown.header("x-should-retry"), "false");
    QCOMPARE(client.responses().at(1).body, ClientReplies::bodyNotAnObject().body(ApiShape::OpenAI));
}

void TestEnglishApi::hostRefusalsAreEnglish()
{
    SwitchingFixture f;
    QVERIFY(f.start());
    HostController *c = f.relay->hostController(u"h1"_s);
    bool granted = false;
    c->takeLease(u"bench"_s, 10min, [&granted](int status, const QString &) { granted = status == 200; });
    QTRY_VERIFY_WITH_TIMEOUT(granted, 5000);

    RawHttpClient client(f.port());
    QVERIFY(client.connectToServer());
    client.send(RawHttpClient::post("/v1/messages", chat("h1-alpha")));
    QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 5000);
    const RawHttpClient::Response &leased = client.responses().at(0);
    QCOMPARE(leased.status, 423);
    QVERIFY2(leased.body.startsWith(R"({"error":{"message":"host h1 is leased by bench until )"), leased.body.constData());

    QString reason;
    c->switchEngine(u"nope"_s, u"test"_s, [&reason](int, const QString &why) { reason = why; });
    QCOMPARE(reason, u"host h1 has no engine \"nope\" (its engines: a, b)"_s);
}

int main(int argc, char **argv)
{
    // Before the application exists, as a user's session would have it.
    qputenv("LC_ALL", "de_DE.UTF-8");
    qputenv("LANG", "de_DE.UTF-8");
    qputenv("LANGUAGE", "de");
    QCoreApplication app(argc, argv);
    QTranslator translator;
    const bool translated = translator.load(QLocale(), u"switchyard"_s, u"_"_s, u":/i18n"_s)
        && QCoreApplication::installTranslator(&translator);
    TestEnglishApi test(translated);
    return QTest::qExec(&test, argc, argv);
}

#include "tst_englishapi.moc"
