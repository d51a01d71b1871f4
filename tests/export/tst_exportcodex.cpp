// The client configs for Codex (with its model catalog), Cline and Qwen Code, new and merged,
// built from a model list without any network.
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

class TestExportCodex : public QObject
{
    Q_OBJECT

private slots:
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
};

void TestExportCodex::codex()
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

void TestExportCodex::codexMerge_data()
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

void TestExportCodex::codexMerge()
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

void TestExportCodex::codexCatalog()
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

void TestExportCodex::codexCatalogConfig()
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

void TestExportCodex::codexCatalogMerge()
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

void TestExportCodex::codexCatalogCommand()
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

void TestExportCodex::cline()
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

void TestExportCodex::clineMerge()
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

void TestExportCodex::qwen()
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

void TestExportCodex::qwenMerge()
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

QTEST_GUILESS_MAIN(TestExportCodex)

#include "tst_exportcodex.moc"
