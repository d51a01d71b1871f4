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

using namespace Qt::StringLiterals;
using namespace switchyard;

namespace {

RelayModel model(const QString &alias, int context = 0)
{
    RelayModel m;
    m.alias = alias;
    m.contextSize = context;
    return m;
}

QJsonObject parseObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << error.errorString() << json;
    return doc.object();
}

struct CommandResult
{
    int code = -1;
    QString out;
    QString err;
};

CommandResult runCommand(const QStringList &arguments)
{
    CommandResult r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = runExportCommand(arguments, out, err);
    out.flush();
    err.flush();
    return r;
}

// A relay's /v1/models in router format: one loaded model with meta, one from a preset, one bare.
const QByteArray kRelayList = R"({"object":"list","data":[
 {"id":"3090-qwen38-27b","object":"model","status":{"value":"loaded","args":["llama-server","--port","1"]},
  "meta":{"n_ctx":131072,"n_ctx_train":262144},"proxy":{"host":"3090","key":"qwen38-27b","engine":"mainline"}},
 {"id":"3090-flint-40b","object":"model","status":{"value":"unloaded","args":["llama-server","-c","65536"]},
  "proxy":{"host":"3090","key":"flint-40b","engine":"fork"}},
 {"id":"a9-MiniMax-M2-q4","object":"model","status":{"value":"unloaded","args":[],
  "preset":"[MiniMax-M2-q4]\nctx-size = 8192\nmodel = /m.gguf\n"},"proxy":{"host":"a9","key":"MiniMax-M2-q4"}},
 {"id":"a9-tiny","object":"model","status":{"value":"unloaded"}},
 {"id":"a9-q38-27b-128k","object":"model","status":{"value":"unloaded"},
  "proxy":{"host":"a9","key":"q38-27b-128k","engine":"fork","n_ctx":131072}}
]})";

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private slots:
    void samplerWords_data();
    void samplerWords();
    void safeKeyNeverContainsAWord();
    void keysAreUniqueAndSafe_data();
    void keysAreUniqueAndSafe();
    void relayModelList_data();
    void relayModelList();
    void relayModelListRejectsGarbage();
    void outputLimit_data();
    void outputLimit();
    void defaultAliasPrefersALoadedModel();
    void opencodeConfig();
    void opencodeUnknownDefaultModel();
    void opencodeMergeKeepsUserSettings();
    void opencodeMergeSetsModelWhenAbsent();
    void opencodeMergeRefusesInvalidFiles_data();
    void opencodeMergeRefusesInvalidFiles();
    void claudeCode();
    void shellQuote_data();
    void shellQuote();
    void pi();
    void claudeCodeContextWindow();
    void codex();
    void codexMerge_data();
    void codexMerge();
    void codexCatalog();
    void codexCatalogConfig();
    void codexCatalogMerge();
    void codexCatalogCommand();
    void cline();
    void clineMerge();
    void qwen();
    void qwenMerge();
    void command_data();
    void command();
    void commandWriteIsAtomicAndRefusesInvalidJson();
};

void TestExport::samplerWords_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("found");
    QTest::addColumn<QString>("safe");

    QTest::newRow("qwen") << u"3090-qwen38-27b"_s << QStringList{u"qwen"_s} << u"3090-q38-27b"_s;
    QTest::newRow("Qwen upper case") << u"a9-Qwen3-Coder"_s << QStringList{u"qwen"_s} << u"a9-q3-Coder"_s;
    QTest::newRow("minimax-m2") << u"a9-minimax-m2.5-q4"_s << QStringList{u"minimax-m2"_s} << u"a9-mm2.5-q4"_s;
    QTest::newRow("MiniMax-M2") << u"a9-MiniMax-M2"_s << QStringList{u"minimax-m2"_s} << u"a9-mm2"_s;
    QTest::newRow("kimi-k2.5") << u"h-kimi-k2.5"_s << QStringList{u"kimi-k2.5"_s} << u"h-kk2.5"_s;
    QTest::newRow("kimi-k2p5") << u"h-kimi-k2p5-iq2"_s << QStringList{u"kimi-k2p5"_s} << u"h-kk2p5-iq2"_s;
    QTest::newRow("kimi-k2-5") << u"h-kimi-k2-5"_s << QStringList{u"kimi-k2-5"_s} << u"h-kk2-5"_s;
    QTest::newRow("gemini") << u"h-gemini-3-pro"_s << QStringList{u"gemini"_s} << u"h-gmn-3-pro"_s;
    QTest::newRow("deepseek-v4-flash") << u"h-deepseek-v4-flash"_s << QStringList{u"deepseek-v4-flash"_s}
                                       << u"h-ds-v4-flash"_s;
    QTest::newRow("two words") << u"h-qwen-gemini"_s << QStringList{u"gemini"_s, u"qwen"_s} << u"h-q-gmn"_s;
    QTest::newRow("kimi-k2 alone is not listed") << u"h-kimi-k2"_s << QStringList{} << u"h-kimi-k2"_s;
    QTest::newRow("none") << u"3090-flint-40b"_s << QStringList{} << u"3090-flint-40b"_s;
    QTest::newRow("word made by a replacement") << u"h-qwenwen"_s << QStringList{u"qwen"_s} << u"h-q"_s;
}

void TestExport::samplerWords()
{
    QFETCH(QString, name);
    QFETCH(QStringList, found);
    QFETCH(QString, safe);
    QStringList actual = SamplerWords::found(name);
    actual.sort();
    found.sort();
    QCOMPARE(actual, found);
    QCOMPARE(SamplerWords::contains(name), !found.isEmpty());
    QCOMPARE(SamplerWords::safeKey(name), safe);
    QVERIFY(!SamplerWords::contains(SamplerWords::safeKey(name)));
}

void TestExport::safeKeyNeverContainsAWord()
{
    // Every word, in every case, glued to every other word and its replacement.
    QStringList pieces;
    for (const SamplerWords::Word &w : SamplerWords::words) {
        pieces << QString::fromLatin1(w.word) << QString::fromLatin1(w.word).toUpper()
               << QString::fromLatin1(w.replacement);
    }
    int checked = 0;
    for (const QString &a : std::as_const(pieces)) {
        for (const QString &b : std::as_const(pieces)) {
            for (const QString &glue : {QString(), u"-"_s}) {
                const QString name = u"h-"_s + a + glue + b;
                const QString key = SamplerWords::safeKey(name);
                QVERIFY2(!SamplerWords::contains(key), qPrintable(name + u" -> "_s + key));
                QVERIFY(!key.isEmpty());
                ++checked;
            }
        }
        QVERIFY(!SamplerWords::contains(SamplerWords::safeKey(a)));
    }
    QVERIFY(checked > 100);
    for (const SamplerWords::Word &w : SamplerWords::words)
        QVERIFY2(!SamplerWords::contains(QString::fromLatin1(w.replacement)), w.replacement);
}

void TestExport::keysAreUniqueAndSafe_data()
{
    QTest::addColumn<QStringList>("aliases");
    QTest::addColumn<QStringList>("keys");

    QTest::newRow("unchanged") << QStringList{u"3090-a"_s, u"a9-b"_s} << QStringList{u"3090-a"_s, u"a9-b"_s};
    QTest::newRow("replaced") << QStringList{u"3090-qwen38-27b"_s, u"3090-flint"_s}
                              << QStringList{u"3090-q38-27b"_s, u"3090-flint"_s};
    QTest::newRow("clash with a plain alias")
        << QStringList{u"3090-qwen38"_s, u"3090-q38"_s} << QStringList{u"3090-q38-2"_s, u"3090-q38"_s};
    QTest::newRow("clash between two replaced")
        << QStringList{u"h-qwen3"_s, u"h-QWEN3"_s, u"h-Qwen3"_s} << QStringList{u"h-q3"_s, u"h-q3-2"_s, u"h-q3-3"_s};
}

void TestExport::keysAreUniqueAndSafe()
{
    QFETCH(QStringList, aliases);
    QFETCH(QStringList, keys);
    const QStringList actual = OpencodeExport::keysFor(aliases);
    QCOMPARE(actual, keys);
    QStringList lower;
    for (const QString &k : actual) {
        QVERIFY2(!SamplerWords::contains(k), qPrintable(k));
        QVERIFY2(!lower.contains(k.toLower()), qPrintable(k));
        lower.append(k.toLower());
    }
}

void TestExport::relayModelList_data()
{
    QTest::addColumn<QString>("alias");
    QTest::addColumn<int>("context");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("loaded");

    QTest::newRow("meta.n_ctx") << u"3090-qwen38-27b"_s << 131072 << u"3090"_s << u"qwen38-27b"_s << true;
    QTest::newRow("-c in args") << u"3090-flint-40b"_s << 65536 << u"3090"_s << u"flint-40b"_s << false;
    QTest::newRow("preset") << u"a9-MiniMax-M2-q4"_s << 8192 << u"a9"_s << u"MiniMax-M2-q4"_s << false;
    QTest::newRow("unknown") << u"a9-tiny"_s << 0 << QString() << QString() << false;
    QTest::newRow("remembered by the relay") << u"a9-q38-27b-128k"_s << 131072 << u"a9"_s << u"q38-27b-128k"_s << false;
}

void TestExport::relayModelList()
{
    QFETCH(QString, alias);
    QFETCH(int, context);
    QFETCH(QString, host);
    QFETCH(QString, key);
    QFETCH(bool, loaded);
    QList<RelayModel> models;
    QString error;
    QVERIFY(RelayModel::parseList(kRelayList, &models, &error));
    QCOMPARE(models.size(), 5);
    const RelayModel *m = RelayModel::find(models, alias);
    QVERIFY(m);
    QCOMPARE(m->contextSize, context);
    QCOMPARE(m->host, host);
    QCOMPARE(m->key, key);
    QCOMPARE(m->loaded, loaded);
}

void TestExport::relayModelListRejectsGarbage()
{
    QList<RelayModel> models;
    QString error;
    QVERIFY(!RelayModel::parseList("<html>", &models, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!RelayModel::parseList(R"({"models":[]})", &models, &error));
    // A plain OpenAI list is fine; entries without an id are skipped.
    QVERIFY(RelayModel::parseList(R"({"data":[{"id":"h-a"},{"object":"model"}]})", &models, &error));
    QCOMPARE(RelayModel::aliases(models), QStringList{u"h-a"_s});
}

void TestExport::outputLimit_data()
{
    QTest::addColumn<int>("context");
    QTest::addColumn<int>("output");
    QTest::newRow("4k") << 4096 << 1024;
    QTest::newRow("64k") << 65536 << 16384;
    QTest::newRow("128k capped") << 131072 << 32000;
    QTest::newRow("1M capped") << 1048576 << 32000;
    QTest::newRow("tiny") << 2 << 1;
}

void TestExport::outputLimit()
{
    QFETCH(int, context);
    QFETCH(int, output);
    QCOMPARE(OpencodeExport::outputLimit(context), output);
}

void TestExport::defaultAliasPrefersALoadedModel()
{
    RelayModel loaded = model(u"h-b"_s);
    loaded.loaded = true;
    QCOMPARE(RelayModel::defaultAlias({model(u"h-a"_s), loaded, model(u"h-c"_s)}), u"h-b"_s);
    QCOMPARE(RelayModel::defaultAlias({model(u"h-a"_s), model(u"h-c"_s)}), u"h-a"_s);
    QCOMPARE(RelayModel::defaultAlias({}), QString());
    const OpencodeExport exporter({u"http://h:1"_s, u"s"_s, QString()}, {model(u"h-qwen-a"_s), loaded});
    QCOMPARE(exporter.config().value("model"_L1).toString(), u"s/h-b"_s);
    QCOMPARE(ClaudeCodeExport(u"http://h:1"_s, RelayModel::defaultAlias({model(u"h-a"_s), loaded}))
                 .settings().value("env"_L1).toObject().value("ANTHROPIC_MODEL"_L1).toString(), u"h-b"_s);
}

void TestExport::opencodeConfig()
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

void TestExport::opencodeUnknownDefaultModel()
{
    const OpencodeExport exporter({u"http://h:1"_s, u"switchyard"_s, u"h-nope"_s}, {model(u"h-a"_s), model(u"h-b"_s)});
    QString error;
    QVERIFY(!exporter.isValid(&error));
    QVERIFY2(error.contains("h-nope"_L1) && error.contains("h-a, h-b"_L1), qPrintable(error));
    const OpencodeExport empty({u"http://h:1"_s, u"switchyard"_s, QString()}, {});
    QVERIFY(!empty.isValid(&error));
}

void TestExport::opencodeMergeKeepsUserSettings()
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

void TestExport::opencodeMergeSetsModelWhenAbsent()
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

void TestExport::opencodeMergeRefusesInvalidFiles_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");

    QTest::newRow("trailing comma") << QByteArray("{\n  \"a\": 1,\n  \"b\": 2,\n}\n") << u"my.json:4:"_s;
    QTest::newRow("comment") << QByteArray("{\n  // mine\n  \"a\": 1\n}\n") << u"JSONC"_s;
    QTest::newRow("empty") << QByteArray() << u"my.json:1:"_s;
    QTest::newRow("array") << QByteArray("[1]") << u"object"_s;
    QTest::newRow("provider not an object") << QByteArray("{\n\"provider\": []\n}") << u"my.json:2:"_s;
}

void TestExport::opencodeMergeRefusesInvalidFiles()
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

void TestExport::claudeCode()
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

void TestExport::shellQuote_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("plain") << u"http://h:1/x"_s << u"http://h:1/x"_s;
    QTest::newRow("space") << u"a b"_s << u"'a b'"_s;
    QTest::newRow("quote") << u"it's"_s << u"'it'\\''s'"_s;
    QTest::newRow("dollar") << u"$HOME"_s << u"'$HOME'"_s;
    QTest::newRow("empty") << QString() << u"''"_s;
}

void TestExport::shellQuote()
{
    QFETCH(QString, value);
    QFETCH(QString, quoted);
    QCOMPARE(ClaudeCodeExport::shellQuote(value), quoted);
}

void TestExport::pi()
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

void TestExport::claudeCodeContextWindow()
{
    // Claude Code 2.1.197 takes CLAUDE_CODE_MAX_CONTEXT_TOKENS as the window of a model not named
    // claude-* (its modelUsage.*.contextWindow; e2e_claude-code), and compacts within
    // CLAUDE_CODE_AUTO_COMPACT_WINDOW.
    const QJsonObject env = ClaudeCodeExport(u"http://h:1"_s, u"h-m"_s, 65536).settings().value("env"_L1).toObject();
    QCOMPARE(env.value("CLAUDE_CODE_MAX_CONTEXT_TOKENS"_L1).toString(), u"65536"_s);
    QCOMPARE(env.value("CLAUDE_CODE_AUTO_COMPACT_WINDOW"_L1).toString(), u"65536"_s);
    QCOMPARE(env.size(), 15);
}

void TestExport::codex()
{
    const CodexExport exporter(u"http://h:1"_s, u"switchyard"_s, u"h-a"_s,
                               {model(u"h-a"_s, 65536), model(u"h-b"_s, 8192), model(u"h-c"_s)});
    const QString toml = exporter.toml();
    for (const QString &line : {u"model = \"h-a\""_s, u"model_provider = \"switchyard\""_s, u"model_context_window = 65536"_s,
                               u"[model_providers.switchyard]"_s, u"base_url = \"http://h:1/v1\""_s,
                               u"env_key = \"SWITCHYARD_API_KEY\""_s, u"wire_api = \"responses\""_s,
                               u"request_max_retries = 1"_s, u"stream_max_retries = 0"_s, u"stream_idle_timeout_ms = 900000"_s,
                               u"#   codex -m h-b -c model_context_window=8192"_s, u"#   codex -m h-c"_s}) {
        QVERIFY2(toml.split(u'\n').contains(line), qPrintable(line + u"\n"_s + toml));
    }
    // The top-level keys come before the first table, or TOML puts them in it.
    QVERIFY(toml.indexOf("model_context_window"_L1) < toml.indexOf(u'['));
    // No window for a model whose context the relay does not know.
    QVERIFY(!CodexExport(u"http://h:1"_s, u"p"_s, u"h-c"_s, {model(u"h-c"_s)}).toml().contains("model_context_window"_L1));
    QCOMPARE(CodexExport::tomlString(u"a\"b\\c"_s), u"\"a\\\"b\\\\c\""_s);
}

void TestExport::codexMerge_data()
{
    QTest::addColumn<QByteArray>("existing");
    QTest::addColumn<QByteArray>("expected");
    const QByteArray table = "[model_providers.switchyard]\nname = \"Switchyard (http://h:1)\"\nbase_url = \"http://h:1/v1\"\n"
                             "env_key = \"SWITCHYARD_API_KEY\"\nwire_api = \"responses\"\nrequest_max_retries = 1\n"
                             "stream_max_retries = 0\nstream_idle_timeout_ms = 900000\n";
    QTest::newRow("empty") << QByteArray()
                           << "model = \"h-a\"\nmodel_provider = \"switchyard\"\nmodel_context_window = 4096\n\n" + table;
    QTest::newRow("the user's model stays (and no window for it), ours is replaced, theirs kept")
        << QByteArray("# mine\nmodel = \"gpt-5\"\napproval_policy = \"never\"\n\n[model_providers.switchyard]\nbase_url = \"old\"\n"
                      "[model_providers.switchyard.http_headers]\nX = \"y\"\n\n[model_providers.other]\nname = \"o\"\n"
                      "prompt = \"\"\"\n[not.a.table]\n\"\"\"\n")
        << "# mine\nmodel = \"gpt-5\"\napproval_policy = \"never\"\n\n"
           "[model_providers.other]\nname = \"o\"\nprompt = \"\"\"\n[not.a.table]\n\"\"\"\n\n" + table;
    QTest::newRow("a quoted header is ours too")
        << QByteArray("model = \"m\"\nmodel_provider = \"x\"\nmodel_context_window = 1\n[ model_providers . \"switchyard\" ]\nname = \"n\"\n")
        << "model = \"m\"\nmodel_provider = \"x\"\nmodel_context_window = 1\n\n" + table;
}

void TestExport::codexMerge()
{
    QFETCH(QByteArray, existing);
    QFETCH(QByteArray, expected);
    const CodexExport exporter(u"http://h:1"_s, u"switchyard"_s, u"h-a"_s, {model(u"h-a"_s, 4096)});
    QByteArray merged;
    QString error;
    QVERIFY2(exporter.merge(existing, u"config.toml"_s, &merged, &error), qPrintable(error));
    QCOMPARE(merged, expected);
    // Merging again changes nothing.
    QByteArray again;
    QVERIFY(exporter.merge(merged, u"config.toml"_s, &again, &error));
    QCOMPARE(again, merged);
    // A multi-line string left open: nothing is changed.
    QVERIFY(!exporter.merge("x = \"\"\"\n[y]\n", u"config.toml"_s, &merged, &error));
    QVERIFY2(error.startsWith("config.toml:"_L1), qPrintable(error));
}

void TestExport::codexCatalog()
{
    const CodexExport exporter(u"http://h:1"_s, u"switchyard"_s, u"h-a"_s, {model(u"h-a"_s, 400000), model(u"h-c"_s)});
    QString error;
    const QByteArray json = exporter.catalogJson(&error);
    QVERIFY2(!json.isEmpty(), qPrintable(error));
    const QJsonArray entries = parseObject(json).value("models"_L1).toArray();
    QCOMPARE(entries.size(), 2);

    // The base prompt is Codex 0.169.0's own, from the resources, byte for byte.
    QFile prompt(QStringLiteral(SWITCHYARD_SOURCE_DIR "/resources/codex/prompt-0.169.0.md"));
    QVERIFY(prompt.open(QIODevice::ReadOnly));
    const QString builtIn = QString::fromUtf8(prompt.readAll());
    QCOMPARE(builtIn.size(), 16979);
    QVERIFY(builtIn.startsWith("You are a coding agent running in the Codex CLI"_L1));
    QCOMPARE(CodexExport::builtInPrompt(&error), builtIn);

    const QJsonObject a = entries.at(0).toObject();
    QCOMPARE(a.value("slug"_L1).toString(), u"h-a"_s);
    QCOMPARE(a.value("display_name"_L1).toString(), u"h-a"_s);
    QCOMPARE(a.value("base_instructions"_L1).toString(), builtIn);
    // The model's own window, above the 272,000 Codex's fallback caps it at.
    QCOMPARE(a.value("context_window"_L1).toInt(), 400000);
    QCOMPARE(a.value("max_context_window"_L1).toInt(), 400000);
    // Every field Codex 0.169 requires of an entry, at the fallback metadata's value.
    QCOMPARE(a.value("supported_reasoning_levels"_L1).toArray(), QJsonArray());
    QCOMPARE(a.value("shell_type"_L1).toString(), u"unified_exec"_s);
    QCOMPARE(a.value("visibility"_L1).toString(), u"none"_s);
    QCOMPARE(a.value("supported_in_api"_L1).toBool(false), true);
    QCOMPARE(a.value("priority"_L1).toInt(), 99);
    QCOMPARE(a.value("support_verbosity"_L1).toBool(true), false);
    QCOMPARE(a.value("truncation_policy"_L1).toObject(),
             (QJsonObject{{u"mode"_s, u"bytes"_s}, {u"limit"_s, 10000}}));
    QCOMPARE(a.value("experimental_supported_tools"_L1).toArray(), QJsonArray());
    QCOMPARE(a.value("effective_context_window_percent"_L1).toInt(), 95);
    QCOMPARE(a.value("default_reasoning_summary"_L1).toString(), u"auto"_s);
    QCOMPARE(a.value("web_search_tool_type"_L1).toString(), u"text"_s);
    QCOMPARE(a.value("input_modalities"_L1).toArray(), (QJsonArray{u"text"_s, u"image"_s}));
    QVERIFY(!a.contains("model_messages"_L1));
    // A model whose context nobody reported gets the fallback's window.
    const QJsonObject c = entries.at(1).toObject();
    QCOMPARE(c.value("slug"_L1).toString(), u"h-c"_s);
    QCOMPARE(c.value("context_window"_L1).toInt(), 272000);
    QCOMPARE(c.value("max_context_window"_L1).toInt(), 272000);
    // The two entries differ only where the models do.
    QJsonObject same = c;
    for (const char *key : {"slug", "display_name", "context_window", "max_context_window"})
        same.insert(QLatin1String(key), a.value(QLatin1String(key)));
    QCOMPARE(same, a);
}

void TestExport::codexCatalogConfig()
{
    CodexExport exporter(u"http://h:1"_s, u"switchyard"_s, u"h-a"_s, {model(u"h-a"_s, 65536), model(u"h-b"_s, 8192)});
    exporter.setCatalogFile(u"/home/u/.codex/switchyard \"models\".json"_s);
    const QString toml = exporter.toml();
    const QStringList lines = toml.split(u'\n');
    QVERIFY2(lines.contains(u"model_catalog_json = \"/home/u/.codex/switchyard \\\"models\\\".json\""_s), qPrintable(toml));
    QVERIFY(toml.indexOf("model_catalog_json"_L1) < toml.indexOf(u'['));
    // Each model's window comes from its entry: no model_context_window, which would apply to
    // every model picked with -m, and no -c in the other models' lines.
    QVERIFY2(!lines.contains(u"model_context_window = 65536"_s), qPrintable(toml));
    QVERIFY2(lines.contains(u"#   codex -m h-b"_s), qPrintable(toml));
    // The comment says whose prompt the catalog carries, and what another Codex gets.
    QVERIFY2(toml.contains("Codex 0.169.0's own base"_L1), qPrintable(toml));
    QVERIFY2(toml.contains("another Codex version"_L1), qPrintable(toml));
}

void TestExport::codexCatalogMerge()
{
    CodexExport exporter(u"http://h:1"_s, u"switchyard"_s, u"h-a"_s, {model(u"h-a"_s, 4096)});
    exporter.setCatalogFile(u"/c/models.json"_s);
    QByteArray merged;
    QString error;
    // The catalog line is added whether or not the file names its own default model.
    QVERIFY2(exporter.merge("model = \"gpt-5\"\n", u"config.toml"_s, &merged, &error), qPrintable(error));
    QVERIFY2(merged.startsWith("model = \"gpt-5\"\nmodel_catalog_json = \"/c/models.json\"\n\n[model_providers.switchyard]\n"),
             merged.constData());
    QVERIFY(exporter.merge(QByteArray(), u"config.toml"_s, &merged, &error));
    QVERIFY2(merged.startsWith("model = \"h-a\"\nmodel_provider = \"switchyard\"\nmodel_catalog_json = \"/c/models.json\"\n\n"),
             merged.constData());
    // Merging again changes nothing.
    QByteArray again;
    QVERIFY2(exporter.merge(merged, u"config.toml"_s, &again, &error), qPrintable(error));
    QCOMPARE(again, merged);
    // Codex reads one catalog: a file with another one is not touched.
    QVERIFY(!exporter.merge("model_catalog_json = \"/mine.json\"\n", u"config.toml"_s, &merged, &error));
    QVERIFY2(error.startsWith("config.toml names a model_catalog_json of its own"_L1), qPrintable(error));
    QVERIFY2(error.contains("/mine.json"_L1), qPrintable(error));
}

void TestExport::codexCatalogCommand()
{
    QTemporaryDir dir;
    const QString list = dir.filePath(u"models.json"_s);
    QFile listFile(list);
    QVERIFY(listFile.open(QIODevice::WriteOnly));
    listFile.write(kRelayList);
    listFile.close();

    const QString catalog = dir.filePath(u"catalog.json"_s);
    CommandResult r = runCommand({u"codex"_s, u"--list"_s, list, u"--catalog"_s, catalog});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(u"model_catalog_json = \""_s + catalog + u'"'), qPrintable(r.out));
    QVERIFY2(r.err.contains(catalog), qPrintable(r.err));
    QFile file(catalog);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray entries = parseObject(file.readAll()).value("models"_L1).toArray();
    file.close();
    QCOMPARE(entries.size(), 5);
    QStringList slugs;
    QList<int> windows;
    for (const QJsonValue &e : entries) {
        slugs.append(e.toObject().value("slug"_L1).toString());
        windows.append(e.toObject().value("context_window"_L1).toInt());
    }
    QCOMPARE(slugs, (QStringList{u"3090-qwen38-27b"_s, u"3090-flint-40b"_s, u"a9-MiniMax-M2-q4"_s, u"a9-tiny"_s, u"a9-q38-27b-128k"_s}));
    QCOMPARE(windows, (QList<int>{131072, 65536, 8192, 272000, 131072}));

    // --models: only those in the catalog too.
    r = runCommand({u"codex"_s, u"--list"_s, list, u"--models"_s, u"a9-tiny"_s, u"--catalog"_s, catalog});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(parseObject(file.readAll()).value("models"_L1).toArray().size(), 1);
    file.close();

    // A relative path is named absolutely: Codex reads it from wherever it is started.
    const QString cwd = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    r = runCommand({u"codex"_s, u"--list"_s, list, u"--catalog"_s, u"rel.json"_s});
    QDir::setCurrent(cwd);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(u"model_catalog_json = \""_s + dir.filePath(u"rel.json"_s) + u'"'), qPrintable(r.out));

    // Codex's alone; an unwritable file is an error that names it, and nothing is printed.
    r = runCommand({u"pi"_s, u"--list"_s, list, u"--catalog"_s, catalog});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--catalog"_L1), qPrintable(r.err));
    const QString bad = dir.filePath(u"no/such/dir/c.json"_s);
    r = runCommand({u"codex"_s, u"--list"_s, list, u"--catalog"_s, bad});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(bad), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestExport::cline()
{
    const ClineExport exporter(u"http://h:1"_s, model(u"h-a"_s, 65536), QDateTime(QDate(2026, 12, 2), QTime(4, 0), Qt::UTC));
    const QJsonObject providers = exporter.providersJson();
    QCOMPARE(providers.value("lastUsedProvider"_L1).toString(), u"openai-compatible"_s);
    const QJsonObject entry = providers.value("providers"_L1).toObject().value("openai-compatible"_L1).toObject();
    QCOMPARE(entry.value("updatedAt"_L1).toString(), u"2026-12-02T04:00:00.000Z"_s);
    QCOMPARE(entry.value("tokenSource"_L1).toString(), u"manual"_s);
    const QJsonObject settings = entry.value("settings"_L1).toObject();
    QCOMPARE(settings.value("provider"_L1).toString(), u"openai-compatible"_s);
    QCOMPARE(settings.value("model"_L1).toString(), u"h-a"_s);
    QCOMPARE(settings.value("baseUrl"_L1).toString(), u"http://h:1/v1"_s);
    QCOMPARE(settings.value("contextWindow"_L1).toInt(), 65536);
    QCOMPARE(settings.value("maxTokens"_L1).toInt(), 16384);
    QCOMPARE(exporter.authCommand(), u"cline auth -p openai-compatible -k switchyard -m h-a -b http://h:1/v1\n"_s);
    QCOMPARE(ClineExport::globalSettings(), (QJsonObject{{"telemetryOptOut"_L1, true}, {"autoUpdateEnabled"_L1, false}}));
    QVERIFY(!ClineExport(u"http://h:1"_s, model(u"h-b"_s)).providerSettings().contains("contextWindow"_L1));
}

void TestExport::clineMerge()
{
    const ClineExport exporter(u"http://h:1"_s, model(u"h-a"_s, 4096));
    const QByteArray mine = R"({"version": 1, "lastUsedProvider": "anthropic", "modes": {"voiceInput": {"providerId": "x", "modelId": "y"}},
 "providers": {"anthropic": {"settings": {"provider": "anthropic", "apiKey": "k"}, "updatedAt": "u", "tokenSource": "manual"}}})";
    QByteArray merged;
    QString error;
    QVERIFY2(exporter.mergeProviders(mine, u"providers.json"_s, &merged, &error), qPrintable(error));
    const QJsonObject o = parseObject(merged);
    QCOMPARE(o.value("lastUsedProvider"_L1).toString(), u"openai-compatible"_s);
    QVERIFY(o.value("modes"_L1).toObject().contains("voiceInput"_L1));
    QVERIFY(o.value("providers"_L1).toObject().contains("anthropic"_L1));
    QCOMPARE(o.value("providers"_L1).toObject().value("openai-compatible"_L1).toObject().value("settings"_L1).toObject()
                 .value("contextWindow"_L1).toInt(), 4096);
    QVERIFY(ClineExport::mergeGlobalSettings(R"({"telemetryOptOut": false, "theme": "dark"})", u"g.json"_s, &merged, &error));
    QCOMPARE(parseObject(merged), (QJsonObject{{"telemetryOptOut"_L1, true}, {"theme"_L1, "dark"_L1}, {"autoUpdateEnabled"_L1, false}}));
    QVERIFY(!exporter.mergeProviders(R"({"providers": []})", u"providers.json"_s, &merged, &error));
    QVERIFY2(error.contains("providers.json:1"_L1) && error.contains("\"providers\""_L1), qPrintable(error));
}

void TestExport::qwen()
{
    const QwenExport exporter(u"http://h:1"_s, model(u"h-a"_s, 32768));
    const QJsonObject settings = exporter.settings();
    const QJsonObject auth = settings.value("security"_L1).toObject().value("auth"_L1).toObject();
    QCOMPARE(auth.value("selectedType"_L1).toString(), u"openai"_s);
    QCOMPARE(auth.value("baseUrl"_L1).toString(), u"http://h:1/v1"_s);
    QVERIFY(!auth.value("apiKey"_L1).toString().isEmpty());
    const QJsonObject model = settings.value("model"_L1).toObject();
    QCOMPARE(model.value("name"_L1).toString(), u"h-a"_s);
    QCOMPARE(model.value("generationConfig"_L1).toObject().value("contextWindowSize"_L1).toInt(), 32768);
    QCOMPARE(settings.value("privacy"_L1).toObject().value("usageStatisticsEnabled"_L1), QJsonValue(false));
    QCOMPARE(settings.value("general"_L1).toObject().value("enableAutoUpdate"_L1), QJsonValue(false));
    QCOMPARE(exporter.shell(), u"export OPENAI_BASE_URL=http://h:1/v1\nexport OPENAI_API_KEY=switchyard\nexport OPENAI_MODEL=h-a\n"_s);
}

void TestExport::qwenMerge()
{
    const QwenExport exporter(u"http://h:1"_s, model(u"h-a"_s, 32768));
    QByteArray merged;
    QString error;
    QVERIFY2(exporter.merge(R"({"ui": {"theme": "x"}, "model": {"name": "old", "sessionTokenLimit": 5}})", u"s.json"_s, &merged,
                            &error), qPrintable(error));
    const QJsonObject o = parseObject(merged);
    QCOMPARE(o.value("ui"_L1).toObject().value("theme"_L1).toString(), u"x"_s);
    QCOMPARE(o.value("model"_L1).toObject().value("name"_L1).toString(), u"h-a"_s);
    QCOMPARE(o.value("model"_L1).toObject().value("sessionTokenLimit"_L1).toInt(), 5);
    QVERIFY(merged.startsWith("{\n  \"ui\""));   // the user's order
    QVERIFY(!exporter.merge("{\"model\": 3}", u"s.json"_s, &merged, &error));
    QVERIFY2(error.contains("s.json:1"_L1), qPrintable(error));
}

void TestExport::command_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("inOut");
    QTest::addColumn<QString>("inErr");

    QTest::newRow("help") << QStringList{u"--help"_s} << 0 << u"claude-code"_s << QString();
    QTest::newRow("no client") << QStringList{} << 2 << QString() << u"opencode, claude-code, pi, codex, cline or qwen"_s;
    QTest::newRow("bad client") << QStringList{u"vim"_s} << 2 << QString() << u"vim"_s;
    QTest::newRow("opencode") << QStringList{u"opencode"_s} << 0 << u"\"3090-q38-27b\""_s << QString();
    QTest::newRow("opencode --models")
        << QStringList{u"opencode"_s, u"--models"_s, u"a9-tiny,3090-flint-40b"_s} << 0 << u"switchyard/a9-tiny"_s << QString();
    QTest::newRow("opencode unknown --models")
        << QStringList{u"opencode"_s, u"--models"_s, u"h-x"_s} << 1 << QString() << u"known: 3090-qwen38-27b"_s;
    QTest::newRow("claude-code default model")
        << QStringList{u"claude-code"_s} << 0 << u"\"ANTHROPIC_MODEL\": \"3090-qwen38-27b\""_s << QString();
    QTest::newRow("claude-code --model --shell")
        << QStringList{u"claude-code"_s, u"--model"_s, u"a9-tiny"_s, u"--shell"_s, u"--base-url"_s, u"http://h:9/v1/"_s}
        << 0 << u"export ANTHROPIC_BASE_URL=http://h:9\n"_s << QString();
    QTest::newRow("claude-code unknown model")
        << QStringList{u"claude-code"_s, u"--model"_s, u"claude-opus"_s} << 1 << QString()
        << u"unknown model claude-opus; known: 3090-qwen38-27b, 3090-flint-40b, a9-MiniMax-M2-q4, a9-tiny, a9-q38-27b-128k"_s;
    QTest::newRow("claude-code tiers")
        << QStringList{u"claude-code"_s, u"--model"_s, u"3090-flint-40b"_s, u"--haiku"_s, u"a9-tiny"_s, u"--shell"_s} << 0
        << u"export ANTHROPIC_DEFAULT_SONNET_MODEL=3090-flint-40b\nexport ANTHROPIC_DEFAULT_HAIKU_MODEL=a9-tiny\n"
           "export ANTHROPIC_SMALL_FAST_MODEL=a9-tiny\nexport CLAUDE_CODE_SUBAGENT_MODEL=3090-flint-40b\n"_s << QString();
    QTest::newRow("claude-code opus tier")
        << QStringList{u"claude-code"_s, u"--opus"_s, u"3090-flint-40b"_s} << 0
        << u"\"ANTHROPIC_DEFAULT_OPUS_MODEL\": \"3090-flint-40b\""_s << QString();
    QTest::newRow("claude-code unknown tier")
        << QStringList{u"claude-code"_s, u"--sonnet"_s, u"claude-sonnet"_s} << 1 << QString()
        << u"unknown model claude-sonnet"_s;
    QTest::newRow("tiers are claude-code's") << QStringList{u"qwen"_s, u"--opus"_s, u"a9-tiny"_s} << 2 << QString()
                                             << u"--opus"_s;
    QTest::newRow("claude-code --merge") << QStringList{u"claude-code"_s, u"--merge"_s, u"x"_s} << 2 << QString()
                                         << u"--merge"_s;
    QTest::newRow("--write without --merge") << QStringList{u"opencode"_s, u"--write"_s} << 2 << QString()
                                             << u"--merge"_s;
    QTest::newRow("pi") << QStringList{u"pi"_s, u"--provider"_s, u"lan"_s} << 0 << u"\"lan\""_s << QString();
    QTest::newRow("claude-code knows the window")
        << QStringList{u"claude-code"_s} << 0 << u"\"CLAUDE_CODE_MAX_CONTEXT_TOKENS\": \"131072\""_s << QString();
    QTest::newRow("codex") << QStringList{u"codex"_s, u"--model"_s, u"3090-flint-40b"_s} << 0
                           << u"model_context_window = 65536"_s << QString();
    QTest::newRow("codex, a model of an engine not running")
        << QStringList{u"codex"_s, u"--model"_s, u"a9-q38-27b-128k"_s} << 0 << u"model_context_window = 131072"_s << QString();
    QTest::newRow("cline") << QStringList{u"cline"_s} << 0 << u"\"contextWindow\": 131072"_s << QString();
    QTest::newRow("cline --shell") << QStringList{u"cline"_s, u"--shell"_s} << 0
                                   << u"cline auth -p openai-compatible -k switchyard -m 3090-qwen38-27b -b http://127.0.0.1:18766/v1\n"_s
                                   << QString();
    QTest::newRow("cline --settings") << QStringList{u"cline"_s, u"--settings"_s} << 0 << u"\"telemetryOptOut\": true"_s << QString();
    QTest::newRow("qwen") << QStringList{u"qwen"_s} << 0 << u"\"contextWindowSize\": 131072"_s << QString();
    QTest::newRow("qwen --shell") << QStringList{u"qwen"_s, u"--shell"_s} << 0 << u"export OPENAI_MODEL=3090-qwen38-27b\n"_s << QString();
    QTest::newRow("--settings is cline's") << QStringList{u"qwen"_s, u"--settings"_s} << 2 << QString() << u"--settings"_s;
    QTest::newRow("--shell with --merge") << QStringList{u"qwen"_s, u"--shell"_s, u"--merge"_s, u"x"_s} << 2 << QString()
                                          << u"--shell"_s;
    QTest::newRow("bad base url") << QStringList{u"pi"_s, u"--base-url"_s, u"ftp://x"_s} << 2 << QString()
                                  << u"ftp://x"_s;
    QTest::newRow("unknown option") << QStringList{u"pi"_s, u"--frobnicate"_s} << 2 << QString() << u"frobnicate"_s;
}

void TestExport::command()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QString, inOut);
    QFETCH(QString, inErr);
    QTemporaryDir dir;
    const QString list = dir.filePath(u"models.json"_s);
    QFile file(list);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kRelayList);
    file.close();
    if (!arguments.contains("--help"_L1) && !arguments.isEmpty())
        arguments << u"--list"_s << list;

    const CommandResult r = runCommand(arguments);
    QVERIFY2(r.code == code, qPrintable(r.err));
    QVERIFY2(r.out.contains(inOut), qPrintable(r.out));
    QVERIFY2(r.err.contains(inErr), qPrintable(r.err));
    if (code == 0 && !arguments.contains("--help"_L1) && !arguments.contains("--shell"_L1) && !arguments.contains("codex"_L1))
        QVERIFY(!parseObject(r.out.toUtf8()).isEmpty());
}

void TestExport::commandWriteIsAtomicAndRefusesInvalidJson()
{
    QTemporaryDir dir;
    const QString list = dir.filePath(u"models.json"_s);
    QFile listFile(list);
    QVERIFY(listFile.open(QIODevice::WriteOnly));
    listFile.write(kRelayList);
    listFile.close();

    const QString target = dir.filePath(u"opencode.json"_s);
    const QByteArray broken = "{\n  \"theme\": \"x\"\n  \"model\": \"y\"\n}\n";
    QFile file(target);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(broken);
    file.close();

    CommandResult r = runCommand({u"opencode"_s, u"--list"_s, list, u"--merge"_s, target, u"--write"_s});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(target + u":3:"_s), qPrintable(r.err));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), broken);
    file.close();

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"theme": "x", "model": "mine/m"})");
    file.close();
    r = runCommand({u"opencode"_s, u"--list"_s, list, u"--merge"_s, target, u"--write"_s});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject written = parseObject(file.readAll());
    QCOMPARE(written.value("theme"_L1).toString(), u"x"_s);
    QCOMPARE(written.value("model"_L1).toString(), u"mine/m"_s);
    QCOMPARE(written.value("provider"_L1).toObject().value("switchyard"_L1).toObject()
                 .value("models"_L1).toObject().size(), 5);
    // A new file is created by --write.
    const QString fresh = dir.filePath(u"new.json"_s);
    r = runCommand({u"opencode"_s, u"--list"_s, list, u"--merge"_s, fresh, u"--write"_s});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(fresh));
    // Without --write a missing file is an error, not an empty merge.
    r = runCommand({u"opencode"_s, u"--list"_s, list, u"--merge"_s, dir.filePath(u"nope.json"_s)});
    QCOMPARE(r.code, 1);
}

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
