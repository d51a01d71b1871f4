// What every client export shares, built from a model list without any network: the model list
// read from the relay, keys safe from sampler words, output limits, the default alias, shell
// quoting, and the `switchyard export` command.
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

class TestExportCommon : public QObject
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
    void shellQuote_data();
    void shellQuote();
    void command_data();
    void command();
    void commandWriteIsAtomicAndRefusesInvalidJson();
};

void TestExportCommon::samplerWords_data()
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

void TestExportCommon::samplerWords()
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

void TestExportCommon::safeKeyNeverContainsAWord()
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

void TestExportCommon::keysAreUniqueAndSafe_data()
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

void TestExportCommon::keysAreUniqueAndSafe()
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

void TestExportCommon::relayModelList_data()
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

void TestExportCommon::relayModelList()
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

void TestExportCommon::relayModelListRejectsGarbage()
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

void TestExportCommon::outputLimit_data()
{
    QTest::addColumn<int>("context");
    QTest::addColumn<int>("output");
    QTest::newRow("4k") << 4096 << 1024;
    QTest::newRow("64k") << 65536 << 16384;
    QTest::newRow("128k capped") << 131072 << 32000;
    QTest::newRow("1M capped") << 1048576 << 32000;
    QTest::newRow("tiny") << 2 << 1;
}

void TestExportCommon::outputLimit()
{
    QFETCH(int, context);
    QFETCH(int, output);
    QCOMPARE(OpencodeExport::outputLimit(context), output);
}

void TestExportCommon::defaultAliasPrefersALoadedModel()
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

void TestExportCommon::shellQuote_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("plain") << u"http://h:1/x"_s << u"http://h:1/x"_s;
    QTest::newRow("space") << u"a b"_s << u"'a b'"_s;
    QTest::newRow("quote") << u"it's"_s << u"'it'\\''s'"_s;
    QTest::newRow("dollar") << u"$HOME"_s << u"'$HOME'"_s;
    QTest::newRow("empty") << QString() << u"''"_s;
}

void TestExportCommon::shellQuote()
{
    QFETCH(QString, value);
    QFETCH(QString, quoted);
    QCOMPARE(ClaudeCodeExport::shellQuote(value), quoted);
}

void TestExportCommon::command_data()
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

void TestExportCommon::command()
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

void TestExportCommon::commandWriteIsAtomicAndRefusesInvalidJson()
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

QTEST_GUILESS_MAIN(TestExportCommon)

#include "tst_exportcommon.moc"
