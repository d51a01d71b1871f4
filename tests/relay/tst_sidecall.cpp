#include "relay/jsonmodelfield.h"
#include "relay/sidecall.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

// Which requests are side calls (a title, a small-model call) that wait at most
// side_call_max_wait_s for a switch: from the client app and the body, as the relay reads them.
class TestSideCall final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bodyFields_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("maxTokens");
        QTest::addColumn<bool>("tools");
        QTest::newRow("none") << QByteArray(R"({"model":"m","messages":[]})") << qint64(-1) << false;
        QTest::newRow("max_tokens") << QByteArray(R"({"model":"m","max_tokens": 512})") << qint64(512) << false;
        QTest::newRow("max_completion_tokens") << QByteArray(R"({"max_completion_tokens":64,"model":"m"})") << qint64(64) << false;
        QTest::newRow("max_output_tokens (Responses)") << QByteArray(R"({"model":"m","max_output_tokens":32000})") << qint64(32000) << false;
        QTest::newRow("not a number") << QByteArray(R"({"model":"m","max_tokens":"512"})") << qint64(-1) << false;
        QTest::newRow("nested max_tokens does not count") << QByteArray(R"({"model":"m","x":{"max_tokens":5}})") << qint64(-1) << false;
        QTest::newRow("tools") << QByteArray(R"({"model":"m","tools":[{"name":"bash"}]})") << qint64(-1) << true;
        QTest::newRow("empty tools") << QByteArray(R"({"model":"m","tools": [ ] })") << qint64(-1) << false;
    }
    void bodyFields()
    {
        QFETCH(QByteArray, body);
        const JsonModelField field = JsonModelField::find(body);
        QCOMPARE(field.result, JsonModelField::Result::Found);
        QTEST(field.maxTokens, "maxTokens");
        QTEST(field.tools, "tools");
    }

    void classes_data()
    {
        QTest::addColumn<QString>("userAgent");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("sideCall");
        const QByteArray turn = R"({"model":"m","stream":true,"max_tokens":32000,"tools":[{"name":"Bash"}],"messages":[]})";
        const QByteArray title = R"({"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]})";
        const QByteArray small = R"({"model":"m","max_tokens":512,"tools":[{"name":"Bash"}],"messages":[]})";
        QTest::newRow("Claude Code turn") << u"claude-cli/2.1.197 (external, sdk-cli)"_s << turn << false;
        QTest::newRow("Claude Code small-model call") << u"claude-cli/2.1.197 (external, sdk-cli)"_s << small << true;
        QTest::newRow("Claude Code call without tools") << u"claude-cli/2.1.197 (external, sdk-cli)"_s << title << true;
        QTest::newRow("opencode turn") << u"opencode/1.18.33 ai-sdk/provider-utils/3.0"_s << turn << false;
        QTest::newRow("opencode title call") << u"opencode/1.18.33 ai-sdk/provider-utils/3.0"_s << title << true;
        QTest::newRow("Codex small call") << u"codex_exec/0.169.0"_s << small << true;
        QTest::newRow("Codex turn without tools") << u"codex_exec/0.169.0"_s << title << false;
        QTest::newRow("Cline (tools in the prompt)") << u"Cline/3.0.65"_s << title << false;
        QTest::newRow("Qwen Code small call") << u"QwenCode/0.24.4 (linux; x64)"_s << small << true;
        // An SDK, curl or an unknown client: whatever it asks is the user's turn.
        QTest::newRow("OpenAI SDK, few tokens") << u"OpenAI/JS 6.26.0"_s << small << false;
        QTest::newRow("curl, no tools") << u"curl/7.88.1"_s << title << false;
        QTest::newRow("unknown") << u"my-script/1.0"_s << small << false;
        QTest::newRow("max_tokens 0 is not few") << u"codex_exec/0.169.0"_s << QByteArray(R"({"model":"m","max_tokens":0})") << false;
        QTest::newRow("the limit itself") << u"codex_exec/0.169.0"_s
                                          << QByteArray(R"({"model":"m","max_tokens":1024,"tools":[1]})") << true;
        QTest::newRow("one above the limit") << u"codex_exec/0.169.0"_s
                                             << QByteArray(R"({"model":"m","max_tokens":1025,"tools":[1]})") << false;
    }
    void classes()
    {
        QFETCH(QString, userAgent);
        QFETCH(QByteArray, body);
        const JsonModelField field = JsonModelField::find(body);
        QTEST(SideCall::is(clientAppFromUserAgent(userAgent), field.maxTokens, field.tools), "sideCall");
    }
};

QTEST_GUILESS_MAIN(TestSideCall)
#include "tst_sidecall.moc"
