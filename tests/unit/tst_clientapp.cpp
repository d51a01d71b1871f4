// Which program sent a request, from its User-Agent. The first rows are what the e2e clients
// sent through the relay (its journal's ua= field, tests/e2e with the pinned versions); Codex,
// Cline and Qwen Code as their sources build it; then the SDKs in other languages, and what must
// not be mistaken for any of them.
#include "journal/clientapp.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace switchyard;

class TestClientApp : public QObject
{
    Q_OBJECT

private slots:
    void recognises_data()
    {
        QTest::addColumn<QString>("userAgent");
        QTest::addColumn<QString>("app");
        QTest::newRow("claude code 2.1.197") << "claude-cli/2.1.197 (external, sdk-cli)" << "claude-code";
        QTest::newRow("opencode 1.18.33") << "opencode/1.18.33 ai-sdk/provider-utils/4.0.23 runtime/bun/1.3.14" << "opencode";
        QTest::newRow("openai sdk 6.49.0") << "OpenAI/JS 6.49.0" << "openai-sdk-js";
        QTest::newRow("anthropic sdk 1.14.0") << "Anthropic/JS 1.14.0" << "anthropic-sdk-js";
        QTest::newRow("pi 0.73.1 (its OpenAI SDK)") << "OpenAI/JS 6.26.0" << "openai-sdk-js";
        QTest::newRow("claude code's connectivity check") << "Bun/1.4.0" << "other";
        QTest::newRow("node's fetch") << "node" << "other";
        QTest::newRow("codex cli") << "codex_cli_rs/0.169.0 (Debian 12.0.0; x86_64) dumb" << "codex";
        QTest::newRow("codex exec") << "codex_exec/0.169.0 (Debian 12.0.0; x86_64) dumb" << "codex";
        QTest::newRow("cline") << "Cline/3.0.65" << "cline";
        QTest::newRow("qwen code") << "QwenCode/0.24.4 (linux; x64)" << "qwen-code";
        QTest::newRow("openai python") << "OpenAI/Python 1.109.1" << "openai-sdk-python";
        QTest::newRow("anthropic python") << "Anthropic/Python 0.69.0" << "anthropic-sdk-python";
        QTest::newRow("curl") << "curl/7.88.1" << "curl";
        QTest::newRow("browser") << "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" << "browser";
        QTest::newRow("case does not matter") << "CURL/8.0" << "curl";
        QTest::newRow("leading blanks") << "  opencode/1.0" << "opencode";
        QTest::newRow("none") << "" << "other";
        QTest::newRow("the relay's own export") << "switchyard-export/0.1.0" << "other";
        QTest::newRow("a name inside another") << "my-curl-wrapper/1.0 curl/7.88.1" << "other";
        QTest::newRow("python requests") << "python-requests/2.31.0" << "other";
    }
    void recognises()
    {
        QFETCH(QString, userAgent);
        QFETCH(QString, app);
        QCOMPARE(clientAppName(clientAppFromUserAgent(userAgent)), app);
    }

    // Every app has a name of its own, made of lower-case letters and '-' (a metric label).
    void namesAreDistinctLabels()
    {
        QSet<QString> names;
        for (int i = 0; i <= int(ClientApp::Other); ++i) {
            const QString name = clientAppName(ClientApp(i));
            QVERIFY2(QRegularExpression(QStringLiteral("^[a-z][a-z-]*$")).match(name).hasMatch(), qPrintable(name));
            names.insert(name);
        }
        QCOMPARE(names.size(), int(ClientApp::Other) + 1);
    }
};

QTEST_GUILESS_MAIN(TestClientApp)
#include "tst_clientapp.moc"
