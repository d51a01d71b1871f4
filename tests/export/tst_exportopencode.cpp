// The client configs for opencode (new and merged), Claude Code and pi, built from a model list
// without any network.
#include "export/claudecodeexport.h"
#include "cli/exportcommand.h"
#include "export/clineexport.h"
#include "export/codexexport.h"
#include "export/qwenexport.h"
#include "export/opencodeexport.h"
#include "export/piexport.h"
#include "export/relaymodel.h"
#include "export/samplerwords.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "exporttesthelpers.h"

using namespace Qt::StringLiterals;
using namespace switchyard;
using namespace exporttest;

class TestExportOpencode : public QObject
{
    Q_OBJECT

private slots:
    void opencodeConfig();
    void opencodeUnknownDefaultModel();
    void opencodeMergeKeepsUserSettings();
    void opencodeMergeSetsModelWhenAbsent();
    void opencodeMergeRefusesInvalidFiles_data();
    void opencodeMergeRefusesInvalidFiles();
    void claudeCode();
    void pi();
    void claudeCodeContextWindow();
};

void TestExportOpencode::opencodeConfig()
{
    QList<RelayModel> models;
    QString error;
    QVERIFY(RelayModel::parseList(kRelayList, &models, &error));
    const OpencodeExport exporter({u"http://10.0.0.5:18766"_s, u"lan"_s, QString()}, models);
    QVERIFY(exporter.isValid(&error));
    const QJsonObject config = exporter.config();

    QCOMPARE(config.value("model"_L1).toString(), u"lan/3090-q38-27b"_s);
    QCOMPARE(config.value("small_model"_L1).toString(), u"lan/3090-q38-27b"_s);
    QCOMPARE(config.value("autoupdate"_L1), QJsonValue(false));
    QCOMPARE(config.value("share"_L1).toString(), u"disabled"_s);
    const QJsonObject provider = config.value("provider"_L1).toObject().value("lan"_L1).toObject();
    QCOMPARE(provider.value("npm"_L1).toString(), u"@ai-sdk/openai-compatible"_s);
    QCOMPARE(provider.value("options"_L1).toObject().value("baseURL"_L1).toString(), u"http://10.0.0.5:18766/v1"_s);
    QVERIFY(!provider.value("options"_L1).toObject().value("apiKey"_L1).toString().isEmpty());

    const QJsonObject entries = provider.value("models"_L1).toObject();
    QCOMPARE(entries.size(), models.size());
    QStringList ids;
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        QVERIFY2(!SamplerWords::contains(it.key()), qPrintable(it.key()));
        ids.append(it.value().toObject().value("id"_L1).toString());
        QCOMPARE(it.value().toObject().value("name"_L1).toString(), ids.last());
    }
    ids.sort();
    QStringList aliases = RelayModel::aliases(models);
    aliases.sort();
    QCOMPARE(ids, aliases);

    const QJsonObject qwen = entries.value("3090-q38-27b"_L1).toObject();
    QCOMPARE(qwen.value("id"_L1).toString(), u"3090-qwen38-27b"_s);
    QCOMPARE(qwen.value("limit"_L1).toObject().value("context"_L1).toInt(), 131072);
    QCOMPARE(qwen.value("limit"_L1).toObject().value("output"_L1).toInt(), 32000);
    // opencode 1.18.33 picks no sampler for "qwen" in an id (its key has no such word): no
    // "top_p": null on it (issue 22, item 13).
    QVERIFY(!qwen.contains("options"_L1));
    const QJsonObject minimax = entries.value("a9-mm2-q4"_L1).toObject();
    QCOMPARE(minimax.value("id"_L1).toString(), u"a9-MiniMax-M2-q4"_s);
    QCOMPARE(minimax.value("limit"_L1).toObject().value("output"_L1).toInt(), 2048);
    QVERIFY(!entries.value("a9-tiny"_L1).toObject().contains("limit"_L1));
    // No sampler values of our own: a null top_p (llama.cpp reads it as unset) only where the id
    // would make opencode send one.
    for (const QJsonValue &v : entries) {
        const QJsonObject entry = v.toObject();
        if (SamplerWords::choosesTopP(entry.value("id"_L1).toString()))
            QCOMPARE(entry.value("options"_L1).toObject(), QJsonObject({{"top_p"_L1, QJsonValue(QJsonValue::Null)}}));
        else
            QVERIFY(!entry.contains("options"_L1));
    }
}

void TestExportOpencode::opencodeUnknownDefaultModel()
{
    const OpencodeExport exporter({u"http://h:1"_s, u"switchyard"_s, u"h-nope"_s}, {model(u"h-a"_s), model(u"h-b"_s)});
    QString error;
    QVERIFY(!exporter.isValid(&error));
    QVERIFY2(error.contains("h-nope"_L1) && error.contains("h-a, h-b"_L1), qPrintable(error));
    const OpencodeExport empty({u"http://h:1"_s, u"switchyard"_s, QString()}, {});
    QVERIFY(!empty.isValid(&error));
}

void TestExportOpencode::opencodeMergeKeepsUserSettings()
{
    const QByteArray user = R"({
  "theme": "tokyonight",
  "provider": {
    "ollama": { "npm": "@ai-sdk/openai-compatible", "options": { "baseURL": "http://localhost:11434/v1" },
                "models": { "llama3": {} } },
    "switchyard": { "npm": "old", "models": { "stale": {} } }
  },
  "model": "ollama/llama3",
  "keybinds": { "leader": "ctrl+x" },
  "permission": { "bash": "ask" },
  "temperature_like_number": 0.25,
  "list": [1, "two", null, true]
}
)";
    const OpencodeExport exporter({u"http://h:1"_s, u"switchyard"_s, QString()}, {model(u"h-qwen3"_s, 4096)});
    QByteArray merged;
    QString error;
    QVERIFY2(exporter.merge(user, u"opencode.json"_s, &merged, &error), qPrintable(error));
    const QJsonObject before = parseObject(user);
    const QJsonObject after = parseObject(merged);

    // Everything of the user's is there, unchanged, except our provider.
    for (auto it = before.begin(); it != before.end(); ++it) {
        if (it.key() != "provider"_L1)
            QCOMPARE(after.value(it.key()), it.value());
    }
    QCOMPARE(after.value("model"_L1).toString(), u"ollama/llama3"_s);          // kept
    QCOMPARE(after.value("small_model"_L1).toString(), u"switchyard/h-q3"_s);  // was absent
    const QJsonObject providers = after.value("provider"_L1).toObject();
    QCOMPARE(providers.value("ollama"_L1), before.value("provider"_L1).toObject().value("ollama"_L1));
    QCOMPARE(providers.value("switchyard"_L1).toObject(), exporter.provider());

    // The user's order is kept: theme first, list last, small_model appended.
    QVERIFY(merged.indexOf("\"theme\"") < merged.indexOf("\"provider\""));
    QVERIFY(merged.indexOf("\"ollama\"") < merged.indexOf("\"switchyard\""));
    QVERIFY(merged.indexOf("\"keybinds\"") < merged.indexOf("\"permission\""));
    QVERIFY(merged.indexOf("\"list\"") < merged.indexOf("\"small_model\""));

    // Merging again changes nothing.
    QByteArray again;
    QVERIFY(exporter.merge(merged, u"opencode.json"_s, &again, &error));
    QCOMPARE(again, merged);
}

void TestExportOpencode::opencodeMergeSetsModelWhenAbsent()
{
    const OpencodeExport exporter({u"http://h:1"_s, u"lan"_s, u"h-b"_s}, {model(u"h-a"_s), model(u"h-b"_s)});
    QByteArray merged;
    QString error;
    QVERIFY(exporter.merge("{}", u"x.json"_s, &merged, &error));
    const QJsonObject after = parseObject(merged);
    QCOMPARE(after.value("model"_L1).toString(), u"lan/h-b"_s);
    QCOMPARE(after.value("small_model"_L1).toString(), u"lan/h-b"_s);
    QCOMPARE(after.value("provider"_L1).toObject().keys(), QStringList{u"lan"_s});
}

void TestExportOpencode::opencodeMergeRefusesInvalidFiles_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");

    QTest::newRow("trailing comma") << QByteArray("{\n  \"a\": 1,\n  \"b\": 2,\n}\n") << u"my.json:4:"_s;
    QTest::newRow("comment") << QByteArray("{\n  // mine\n  \"a\": 1\n}\n") << u"JSONC"_s;
    QTest::newRow("empty") << QByteArray() << u"my.json:1:"_s;
    QTest::newRow("array") << QByteArray("[1]") << u"object"_s;
    QTest::newRow("provider not an object") << QByteArray("{\n\"provider\": []\n}") << u"my.json:2:"_s;
}

void TestExportOpencode::opencodeMergeRefusesInvalidFiles()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const OpencodeExport exporter({u"http://h:1"_s, u"switchyard"_s, QString()}, {model(u"h-a"_s)});
    QByteArray merged;
    QString error;
    QVERIFY(!exporter.merge(content, u"my.json"_s, &merged, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY(merged.isEmpty());
}

void TestExportOpencode::claudeCode()
{
    const ClaudeCodeExport exporter(u"http://127.0.0.1:18766"_s, u"3090-flint-40b"_s);
    const QJsonObject env = exporter.settings().value("env"_L1).toObject();
    QCOMPARE(env.value("ANTHROPIC_BASE_URL"_L1).toString(), u"http://127.0.0.1:18766"_s);
    QVERIFY(!env.value("ANTHROPIC_AUTH_TOKEN"_L1).toString().isEmpty());
    for (const char *name : {"ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL", "ANTHROPIC_DEFAULT_SONNET_MODEL",
                             "ANTHROPIC_DEFAULT_HAIKU_MODEL", "ANTHROPIC_SMALL_FAST_MODEL", "CLAUDE_CODE_SUBAGENT_MODEL"})
        QCOMPARE(env.value(QLatin1String(name)).toString(), u"3090-flint-40b"_s);
    for (const char *name : {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY",
                             "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER",
                             // No second, non-streaming request after an error event (e2e_refusals).
                             "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK"})
        QCOMPARE(env.value(QLatin1String(name)).toString(), u"1"_s);
    // Nothing else: every variable is one the tests above name.
    QCOMPARE(env.size(), 13);
    // Only strings: settings.json's env takes nothing else.
    for (const QJsonValue &v : env)
        QVERIFY(v.isString());

    const QString shell = exporter.shell();
    QCOMPARE(shell.count(u'\n'), env.size());
    QVERIFY(shell.contains("export ANTHROPIC_MODEL=3090-flint-40b\n"_L1));
    QVERIFY(shell.contains("export CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK=1\n"_L1));
    QVERIFY(shell.startsWith("export ANTHROPIC_BASE_URL=http://127.0.0.1:18766\n"_L1));
}

void TestExportOpencode::pi()
{
    const PiExport exporter(u"http://h:1"_s, u"switchyard"_s, {model(u"h-qwen3"_s, 65536), model(u"h-b"_s)});
    const QJsonObject provider = exporter.modelsJson().value("providers"_L1).toObject().value("switchyard"_L1).toObject();
    QCOMPARE(provider.value("baseUrl"_L1).toString(), u"http://h:1/v1"_s);
    QCOMPARE(provider.value("api"_L1).toString(), u"openai-completions"_s);
    QVERIFY(!provider.value("apiKey"_L1).toString().isEmpty());
    const QJsonArray models = provider.value("models"_L1).toArray();
    QCOMPARE(models.size(), 2);
    QCOMPARE(models.at(0).toObject().value("id"_L1).toString(), u"h-qwen3"_s);
    QCOMPARE(models.at(0).toObject().value("contextWindow"_L1).toInt(), 65536);
    QCOMPARE(models.at(0).toObject().value("maxTokens"_L1).toInt(), 16384);
    QVERIFY(!models.at(1).toObject().contains("contextWindow"_L1));
    QCOMPARE(provider.value("compat"_L1).toObject().value("maxTokensField"_L1).toString(), u"max_tokens"_s);
}

void TestExportOpencode::claudeCodeContextWindow()
{
    // Claude Code 2.1.197 takes CLAUDE_CODE_MAX_CONTEXT_TOKENS as the window of a model not named
    // claude-* (its modelUsage.*.contextWindow; e2e_claude-code), and compacts within
    // CLAUDE_CODE_AUTO_COMPACT_WINDOW.
    const QJsonObject env = ClaudeCodeExport(u"http://h:1"_s, u"h-m"_s, 65536).settings().value("env"_L1).toObject();
    QCOMPARE(env.value("CLAUDE_CODE_MAX_CONTEXT_TOKENS"_L1).toString(), u"65536"_s);
    QCOMPARE(env.value("CLAUDE_CODE_AUTO_COMPACT_WINDOW"_L1).toString(), u"65536"_s);
    QCOMPARE(env.size(), 15);
}

QTEST_GUILESS_MAIN(TestExportOpencode)

#include "tst_exportopencode.moc"
