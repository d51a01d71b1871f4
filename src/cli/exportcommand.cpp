#include "cli/exportcommand.h"

#include "export/claudecodeexport.h"
#include "export/clineexport.h"
#include "export/codexexport.h"
#include "export/opencodeexport.h"
#include "export/orderedjson.h"
#include "export/piexport.h"
#include "export/qwenexport.h"
#include "export/relaymodel.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QUrl>

#include <chrono>
#include <functional>
#include <utility>

using namespace Qt::StringLiterals;

namespace switchyard {

namespace {

constexpr std::chrono::seconds FetchTimeout{15};

QString tr(const char *text)
{
    return QCoreApplication::translate("export", text);
}

QString helpText()
{
    return tr(
        "Usage: switchyard export opencode|claude-code|pi|codex|cline|qwen [options]\n"
        "\n"
        "Prints a client config that points at the relay, with the models the relay lists now\n"
        "(GET /v1/models). Nothing is written unless you ask for it with --write.\n"
        "\n"
        "  opencode      an opencode.json with a \"switchyard\" provider for every alias. Model keys\n"
        "                leave out the words opencode chooses samplers by (qwen, minimax-m2, gemini,\n"
        "                kimi-k2.5, deepseek-v4-flash, ...): 3090-qwen38-27b becomes the key 3090-q38-27b\n"
        "                with \"id\": \"3090-qwen38-27b\". Context and output limits come from the host.\n"
        "  claude-code   the \"env\" block for ~/.claude/settings.json: the base URL, a placeholder token,\n"
        "                every model variable Claude Code reads set to one alias, no traffic to the\n"
        "                internet, and no second, non-streaming try of a request that failed.\n"
        "  pi            pi's models.json (~/.pi/agent/models.json) with a \"switchyard\" provider.\n"
        "  codex         a config.toml for Codex ($CODEX_HOME/config.toml, ~/.codex by default): a\n"
        "                [model_providers.switchyard] table on the Responses API, the model and its context\n"
        "                window, and retries that never repeat a refusal. Codex sends $SWITCHYARD_API_KEY\n"
        "                as the key: set it (to anything when the relay wants no key). With --catalog FILE\n"
        "                it also writes Codex's model catalog for the relay's models to FILE and names it\n"
        "                (model_catalog_json): each model's context window, no \"Model metadata not found\"\n"
        "                warning, and Codex 0.169.0's own base prompt (other Codex versions get that one).\n"
        "  cline         Cline's providers.json (~/.cline/data/settings/providers.json): the\n"
        "                openai-compatible provider with the model and its context window; --shell prints\n"
        "                the `cline auth` line instead, --settings its global-settings.json (no telemetry,\n"
        "                no self-update).\n"
        "  qwen          Qwen Code's ~/.qwen/settings.json: OpenAI-compatible auth at the relay, the model and\n"
        "                its context window; --shell prints the OPENAI_* variables instead.\n"
        "\n"
        "Every config names the model's context window when the relay knows it (from its engine's\n"
        "n_ctx, also for an engine that is not running now).\n"
        "\n"
        "Options:\n"
        "  --base-url URL     the relay (default http://127.0.0.1:18766)\n"
        "  --models A,B,...   only these aliases (opencode, pi, codex)\n"
        "  --model ALIAS      the default model (default: the first one loaded now, else the first)\n"
        "  --provider NAME    the provider's name in the config (opencode, pi, codex; default switchyard)\n"
        "  --merge FILE       opencode, codex, cline, qwen: add or replace our provider in an existing\n"
        "                     config and print the result; the default model is set only when absent\n"
        "                     (opencode, codex), everything else is kept as it is\n"
        "  --write            with --merge: write the result back to FILE (atomically) instead\n"
        "  --shell            claude-code, qwen: print `export NAME=value` lines instead of JSON;\n"
        "                     cline: print the `cline auth` line\n"
        "  --settings         cline: print (or --merge into) global-settings.json\n"
        "  --catalog FILE     codex: write the model catalog to FILE (atomically) and name it in the config\n"
        "  --list FILE        read the model list from FILE (a saved /v1/models answer) instead of\n"
        "                     asking the relay\n"
        "  -h, --help         this text\n"
        "\n"
        "Examples:\n"
        "  switchyard export opencode > ~/.config/opencode/opencode.json\n"
        "  switchyard export opencode --merge ~/.config/opencode/opencode.json --write\n"
        "  switchyard export claude-code --model 3090-flint-40b --shell >> ~/.profile\n"
        "  switchyard export pi > ~/.pi/agent/models.json\n"
        "  switchyard export codex --merge ~/.codex/config.toml --write\n"
        "  switchyard export codex --catalog ~/.codex/switchyard-models.json > ~/.codex/config.toml\n"
        "  switchyard export cline > ~/.cline/data/settings/providers.json\n"
        "  switchyard export qwen --merge ~/.qwen/settings.json --write\n")
        + u"\n"_s
        + tr("Claude Code's tiers (claude-code only; a tier left out gets the default model):\n"
             "  --opus ALIAS       its opus model\n"
             "  --sonnet ALIAS     its sonnet model\n"
             "  --haiku ALIAS      its haiku model, also for its small, fast requests\n");
}

// "http://h:1/v1/" -> "http://h:1"
bool normalizeBaseUrl(const QString &text, QString *base, QString *error)
{
    QString s = text.trimmed();
    while (s.endsWith(u'/'))
        s.chop(1);
    if (s.endsWith("/v1"_L1))
        s.chop(3);
    const QUrl url(s, QUrl::StrictMode);
    if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) || url.host().isEmpty()
        || url.hasQuery() || url.hasFragment()) {
        *error = tr("--base-url wants an http:// or https:// URL, not '%1'").arg(text);
        return false;
    }
    *base = s;
    return true;
}

bool fetchModels(const QString &base, QByteArray *body, QString *error)
{
    QNetworkAccessManager manager;
    QNetworkRequest request(QUrl(base + "/v1/models"_L1));
    request.setTransferTimeout(int(std::chrono::milliseconds(FetchTimeout).count()));
    request.setHeader(QNetworkRequest::UserAgentHeader, QString::fromLatin1("switchyard-export/" SWITCHYARD_VERSION));
    // A relay with client keys answers the list only with one (docs/SECURITY.md).
    if (const QByteArray key = qgetenv("SWITCHYARD_API_KEY"); !key.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + key);
    QNetworkReply *reply = manager.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError && status == 0) {
        *error = tr("cannot read the model list from %1/v1/models: %2 (is the relay running? see --base-url)")
                     .arg(base, reply->errorString());
        return false;
    }
    if (status == 401) {
        *error = tr("%1/v1/models answered HTTP 401: the relay wants a client key; set SWITCHYARD_API_KEY").arg(base);
        return false;
    }
    if (status != 200) {
        *error = tr("%1/v1/models answered HTTP %2").arg(base).arg(status);
        return false;
    }
    *body = reply->readAll();
    return true;
}

bool readFile(const QString &path, QByteArray *data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    *data = file.readAll();
    return true;
}

QStringList splitList(const QString &value)
{
    QStringList out;
    const QStringList parts = value.split(u',');
    for (const QString &p : parts) {
        if (!p.trimmed().isEmpty())
            out.append(p.trimmed());
    }
    return out;
}

QByteArray indented(const QJsonObject &object)
{
    return OrderedJson::fromValue(object).toJson();
}

} // namespace

int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption baseUrlOption(u"base-url"_s, QString(), u"URL"_s, u"http://127.0.0.1:18766"_s);
    const QCommandLineOption modelsOption(u"models"_s, QString(), u"A,B"_s);
    const QCommandLineOption modelOption(u"model"_s, QString(), u"ALIAS"_s);
    const QCommandLineOption providerOption(u"provider"_s, QString(), u"NAME"_s, u"switchyard"_s);
    const QCommandLineOption mergeOption(u"merge"_s, QString(), u"FILE"_s);
    const QCommandLineOption writeOption(u"write"_s, QString());
    const QCommandLineOption shellOption(u"shell"_s, QString());
    const QCommandLineOption settingsOption(u"settings"_s, QString());
    const QCommandLineOption listOption(u"list"_s, QString(), u"FILE"_s);
    const QCommandLineOption catalogOption(u"catalog"_s, QString(), u"FILE"_s);
    const QCommandLineOption helpOption(QStringList{u"h"_s, u"help"_s}, QString());
    const QCommandLineOption opusOption(u"opus"_s, QString(), u"ALIAS"_s);
    const QCommandLineOption sonnetOption(u"sonnet"_s, QString(), u"ALIAS"_s);
    const QCommandLineOption haikuOption(u"haiku"_s, QString(), u"ALIAS"_s);
    parser.addOptions({baseUrlOption, modelsOption, modelOption, providerOption, mergeOption, writeOption,
                       shellOption, settingsOption, listOption, catalogOption, helpOption, opusOption,
                       sonnetOption, haikuOption});

    auto fail = [&err](const QString &message) {
        err << "switchyard export: " << message << Qt::endl;
        return 1;
    };
    auto usage = [&err](const QString &message) {
        err << "switchyard export: " << message << Qt::endl
            << tr("see switchyard export --help") << Qt::endl;
        return 2;
    };

    if (!parser.parse(QStringList{u"switchyard export"_s} + arguments))
        return usage(parser.errorText());
    if (parser.isSet(helpOption)) {
        out << helpText();
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usage(tr("name one client: opencode, claude-code, pi, codex, cline or qwen"));
    const QString client = positional.first();
    const QStringList clientNames{u"opencode"_s, u"claude-code"_s, u"pi"_s, u"codex"_s, u"cline"_s, u"qwen"_s};
    if (!clientNames.contains(client))
        return usage(tr("unknown client %1: use opencode, claude-code, pi, codex, cline or qwen").arg(client));

    auto notFor = [&](const QCommandLineOption &option, const QStringList &clients) {
        return parser.isSet(option) && !clients.contains(client);
    };
    const QStringList mergeable{u"opencode"_s, u"codex"_s, u"cline"_s, u"qwen"_s};
    for (const auto &[option, forClients] : {std::pair{&modelsOption, QStringList{u"opencode"_s, u"pi"_s, u"codex"_s}},
                                             std::pair{&providerOption, QStringList{u"opencode"_s, u"pi"_s, u"codex"_s}},
                                             std::pair{&mergeOption, mergeable},
                                             std::pair{&writeOption, mergeable},
                                             std::pair{&shellOption, QStringList{u"claude-code"_s, u"cline"_s, u"qwen"_s}},
                                             std::pair{&settingsOption, QStringList{u"cline"_s}},
                                             std::pair{&catalogOption, QStringList{u"codex"_s}},
                                             std::pair{&opusOption, QStringList{u"claude-code"_s}},
                                             std::pair{&sonnetOption, QStringList{u"claude-code"_s}},
                                             std::pair{&haikuOption, QStringList{u"claude-code"_s}}}) {
        if (notFor(*option, forClients))
            return usage(tr("--%1 is not an option of export %2").arg(option->names().first(), client));
    }
    if (parser.isSet(writeOption) && !parser.isSet(mergeOption))
        return usage(tr("--write needs --merge FILE (the file to write back)"));
    if (parser.isSet(shellOption) && parser.isSet(mergeOption))
        return usage(tr("--shell prints lines to paste, it cannot be merged into a file"));
    const QString providerName = parser.value(providerOption).trimmed();
    if (providerName.isEmpty() || providerName.contains(u'/'))
        return usage(tr("--provider wants a name without '/'"));

    QString base;
    QString error;
    if (!normalizeBaseUrl(parser.value(baseUrlOption), &base, &error))
        return usage(error);

    QByteArray listJson;
    if (parser.isSet(listOption) ? !readFile(parser.value(listOption), &listJson, &error)
                                 : !fetchModels(base, &listJson, &error))
        return fail(error);
    QList<RelayModel> models;
    if (!RelayModel::parseList(listJson, &models, &error))
        return fail(error);
    if (models.isEmpty())
        return fail(tr("the relay at %1 lists no models").arg(base));

    const QStringList known = RelayModel::aliases(models);
    if (parser.isSet(modelsOption)) {
        QStringList unknown;
        models = RelayModel::select(models, splitList(parser.value(modelsOption)), &unknown);
        if (!unknown.isEmpty())
            return fail(tr("unknown model %1; known: %2").arg(unknown.join(u", "_s), known.join(u", "_s)));
        if (models.isEmpty())
            return usage(tr("--models names no model"));
    }
    QString alias = parser.value(modelOption).trimmed();
    if (alias.isEmpty())
        alias = RelayModel::defaultAlias(models);
    if (!RelayModel::find(models, alias)) {
        return fail(tr("unknown model %1; known: %2")
                        .arg(alias, RelayModel::aliases(models).join(u", "_s)));
    }

    const RelayModel &model = *RelayModel::find(models, alias);
    const bool shell = parser.isSet(shellOption);
    if (client == "claude-code"_L1) {
        ClaudeCodeExport::Tiers tiers{parser.value(opusOption).trimmed(), parser.value(sonnetOption).trimmed(),
                                      parser.value(haikuOption).trimmed()};
        for (const QString &tier : {tiers.opus, tiers.sonnet, tiers.haiku}) {
            if (!tier.isEmpty() && !RelayModel::find(models, tier))
                return fail(tr("unknown model %1; known: %2").arg(tier, known.join(u", "_s)));
        }
        const ClaudeCodeExport exporter(base, alias, model.contextSize, tiers);
        out << (shell ? exporter.shell() : QString::fromUtf8(indented(exporter.settings())));
        return 0;
    }
    if (client == "pi"_L1) {
        out << indented(PiExport(base, providerName, models).modelsJson());
        return 0;
    }

    // What is printed without --merge, and how a file is merged with it.
    QByteArray fresh;
    std::function<bool(const QByteArray &, QByteArray *)> merge;
    const QString path = parser.value(mergeOption);
    if (client == "codex"_L1) {
        CodexExport exporter(base, providerName, alias, models);
        if (parser.isSet(catalogOption)) {
            // Codex reads the file from wherever it is started: the config names it absolutely.
            const QString catalogPath = QFileInfo(parser.value(catalogOption)).absoluteFilePath();
            const QByteArray catalog = exporter.catalogJson(&error);
            if (catalog.isEmpty())
                return fail(error);
            QSaveFile file(catalogPath);
            if (!file.open(QIODevice::WriteOnly) || file.write(catalog) != catalog.size() || !file.commit())
                return fail(tr("cannot write %1: %2").arg(catalogPath, file.errorString()));
            err << tr("wrote %1 (Codex's model catalog)").arg(catalogPath)
                << Qt::endl;
            exporter.setCatalogFile(catalogPath);
        }
        fresh = exporter.toml().toUtf8();
        merge = [exporter, path, &error](const QByteArray &existing, QByteArray *merged) {
            return exporter.merge(existing, path, merged, &error);
        };
    } else if (client == "cline"_L1) {
        const ClineExport exporter(base, model);
        if (shell) {
            out << exporter.authCommand();
            return 0;
        }
        if (parser.isSet(settingsOption)) {
            fresh = indented(ClineExport::globalSettings());
            merge = [path, &error](const QByteArray &existing, QByteArray *merged) {
                return ClineExport::mergeGlobalSettings(existing, path, merged, &error);
            };
        } else {
            fresh = indented(exporter.providersJson());
            merge = [exporter, path, &error](const QByteArray &existing, QByteArray *merged) {
                return exporter.mergeProviders(existing, path, merged, &error);
            };
        }
    } else if (client == "qwen"_L1) {
        const QwenExport exporter(base, model);
        if (shell) {
            out << exporter.shell();
            return 0;
        }
        fresh = indented(exporter.settings());
        merge = [exporter, path, &error](const QByteArray &existing, QByteArray *merged) {
            return exporter.merge(existing, path, merged, &error);
        };
    } else {
        const OpencodeExport exporter(OpencodeExport::Options{base, providerName, alias}, models);
        if (!exporter.isValid(&error))
            return fail(error);
        fresh = indented(exporter.config());
        merge = [exporter, path, &error](const QByteArray &existing, QByteArray *merged) {
            return exporter.merge(existing, path, merged, &error);
        };
    }
    if (!parser.isSet(mergeOption)) {
        out << fresh;
        return 0;
    }
    QByteArray existing;
    if (QFileInfo::exists(path)) {
        if (!readFile(path, &existing, &error))
            return fail(error);
    } else if (!parser.isSet(writeOption)) {
        return fail(tr("%1 does not exist (leave out --merge to print a new config)").arg(path));
    } else {
        existing = client == "codex"_L1 ? QByteArray() : QByteArray("{}");
    }
    QByteArray merged;
    if (!merge(existing, &merged))
        return fail(error);
    if (!parser.isSet(writeOption)) {
        out << merged;
        return 0;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(merged) != merged.size() || !file.commit())
        return fail(tr("cannot write %1: %2").arg(path, file.errorString()));
    err << tr("wrote %1 for %2").arg(path, client) << Qt::endl;
    return 0;
}

} // namespace switchyard
