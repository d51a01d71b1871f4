#include "export/codexexport.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace switchyard {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("export", text);
}

// A table header's name with quotes and spaces around its parts taken away:
// `[ model_providers . "switchyard" ]` -> model_providers.switchyard.
QString headerName(const QString &line)
{
    static const QRegularExpression header(u"^\\s*\\[\\[?\\s*(.*?)\\s*\\]\\]?\\s*(?:#.*)?$"_s);
    const QRegularExpressionMatch m = header.match(line);
    if (!m.hasMatch())
        return {};
    QStringList parts = m.captured(1).split(u'.');
    for (QString &p : parts) {
        p = p.trimmed();
        if (p.size() >= 2 && (p.startsWith(u'"') || p.startsWith(u'\'')) && p.back() == p.front())
            p = p.mid(1, p.size() - 2);
    }
    return parts.join(u'.');
}

bool isHeader(const QString &line)
{
    const QString t = line.trimmed();
    return t.startsWith(u'[') && !headerName(line).isEmpty();
}

// The bare key a `key = value` line sets, or empty.
QString keyOf(const QString &line)
{
    static const QRegularExpression key(u"^\\s*(?:\"([^\"]+)\"|'([^']+)'|([A-Za-z0-9_-]+))\\s*="_s);
    const QRegularExpressionMatch m = key.match(line);
    if (!m.hasMatch())
        return {};
    for (int i = 1; i <= 3; ++i) {
        if (!m.captured(i).isEmpty())
            return m.captured(i);
    }
    return {};
}

// The window Codex 0.169's fallback metadata assumes for a model it does not know.
constexpr int FallbackContextWindow = 272000;

// One model_catalog_json entry: every field as Codex 0.169.0's fallback metadata
// (model_info_from_slug in codex-rs's models-manager) sets it, so that the request Codex sends is
// the one it sends without the catalog; only the window is the model's own. The e2e test
// (tests/e2e/tests/codex.test.mjs) compares the two requests.
QJsonObject catalogEntry(const RelayModel &model, const QString &prompt)
{
    const int window = model.contextSize > 0 ? model.contextSize : FallbackContextWindow;
    return QJsonObject{
        {u"slug"_s, model.alias},
        {u"display_name"_s, model.alias},
        {u"description"_s, QJsonValue::Null},
        {u"supported_reasoning_levels"_s, QJsonArray()},
        {u"shell_type"_s, u"unified_exec"_s},
        {u"visibility"_s, u"none"_s},
        {u"supported_in_api"_s, true},
        {u"priority"_s, 99},
        {u"additional_speed_tiers"_s, QJsonArray()},
        {u"service_tiers"_s, QJsonArray()},
        {u"availability_nux"_s, QJsonValue::Null},
        {u"upgrade"_s, QJsonValue::Null},
        {u"base_instructions"_s, prompt},
        {u"include_skills_usage_instructions"_s, false},
        {u"include_plugin_usage_instructions"_s, false},
        {u"include_apps_usage_instructions"_s, false},
        {u"default_reasoning_summary"_s, u"auto"_s},
        {u"support_verbosity"_s, false},
        {u"default_verbosity"_s, QJsonValue::Null},
        {u"apply_patch_tool_type"_s, QJsonValue::Null},
        {u"web_search_tool_type"_s, u"text"_s},
        {u"truncation_policy"_s, QJsonObject{{u"mode"_s, u"bytes"_s}, {u"limit"_s, 10000}}},
        {u"supports_image_detail_original"_s, false},
        // Both: model_context_window in config.toml is capped at max_context_window, and the
        // fallback's 272,000 cap is what this lifts.
        {u"context_window"_s, window},
        {u"max_context_window"_s, window},
        {u"comp_hash"_s, QJsonValue::Null},
        {u"effective_context_window_percent"_s, 95},
        {u"experimental_supported_tools"_s, QJsonArray()},
        {u"input_modalities"_s, QJsonArray{u"text"_s, u"image"_s}},
        {u"supports_search_tool"_s, false},
        {u"supports_experimental_context"_s, false},
        {u"use_responses_lite"_s, false},
        {u"supports_reasoning_effort_updates"_s, false},
        {u"node_repl_auto_review_required"_s, false},
        {u"node_repl_disabled"_s, false},
    };
}

} // namespace

CodexExport::CodexExport(const QString &baseUrl, const QString &provider, const QString &alias,
                         const QList<RelayModel> &models)
    : m_baseUrl(baseUrl)
    , m_provider(provider)
    , m_alias(alias)
    , m_models(models)
{
}

QString CodexExport::tomlString(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        if (c.unicode() < 0x20) {
            out += u"\\u%1"_s.arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            continue;
        }
        out += c;
    }
    return u'"' + out + u'"';
}

void CodexExport::setCatalogFile(const QString &path)
{
    m_catalogFile = path;
}

QString CodexExport::builtInPrompt(QString *error)
{
    const QString name = u":/codex/prompt-%1.md"_s.arg(QLatin1String(PromptVersion));
    QFile file(name);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read Codex's base prompt %1: %2").arg(name, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

QByteArray CodexExport::catalogJson(QString *error) const
{
    const QString prompt = builtInPrompt(error);
    if (prompt.isEmpty())
        return {};
    QJsonArray entries;
    for (const RelayModel &m : m_models)
        entries.append(catalogEntry(m, prompt));
    return QJsonDocument(QJsonObject{{u"models"_s, entries}}).toJson(QJsonDocument::Indented);
}

QStringList CodexExport::topLevelLines() const
{
    QStringList lines{u"model = "_s + tomlString(m_alias), u"model_provider = "_s + tomlString(m_provider)};
    if (!m_catalogFile.isEmpty())
        return lines;
    // Codex takes a model it has no metadata for as a 272,000-token one (95 % of it usable)
    // unless told; it caps this at that figure.
    if (const RelayModel *m = RelayModel::find(m_models, m_alias); m && m->contextSize > 0)
        lines.append(u"model_context_window = %1"_s.arg(m->contextSize));
    return lines;
}

QString CodexExport::catalogLine() const
{
    return m_catalogFile.isEmpty() ? QString() : u"model_catalog_json = "_s + tomlString(m_catalogFile);
}

QString CodexExport::providerTable() const
{
    static const QRegularExpression bare(u"^[A-Za-z0-9_-]+$"_s);
    const QString name = bare.match(m_provider).hasMatch() ? m_provider : tomlString(m_provider);
    return u"[model_providers.%1]\n"_s.arg(name)
        + u"name = "_s + tomlString(u"Switchyard (%1)"_s.arg(m_baseUrl)) + u'\n'
        + u"base_url = "_s + tomlString(m_baseUrl + "/v1"_L1) + u'\n'
        + u"env_key = \"%1\"\n"_s.arg(QLatin1String(KeyVariable))
        + u"wire_api = \"responses\"\n"_s
        // Codex repeats every answer but a 400 up to stream_max_retries times at the turn, and
        // a 5xx or a dropped connection request_max_retries times per try (30 requests for one
        // 502 by default). The relay's refusals are final and it retries an engine that
        // dropped the connection itself: one more try for a network fault is enough.
        + u"request_max_retries = 1\n"_s
        + u"stream_max_retries = 0\n"_s
        // Codex gives up on a stream after 300 s without an event, and the relay's ": waiting"
        // comments are no events to it: an engine switch or a long prompt takes longer. The
        // relay ends a stream its engine left silent itself (limits.upstream_inactivity_timeout_s).
        + u"stream_idle_timeout_ms = 900000\n"_s;
}

QString CodexExport::toml() const
{
    QString out = u"# Codex: $CODEX_HOME/config.toml (~/.codex/config.toml). Set %1 (any value when the\n"
                  "# relay wants no client key).\n"_s.arg(QLatin1String(KeyVariable));
    if (!m_catalogFile.isEmpty())
        out += catalogComment();
    out += topLevelLines().join(u'\n') + u'\n';
    if (!m_catalogFile.isEmpty())
        out += catalogLine() + u'\n';
    out += u'\n' + providerTable();
    QStringList others;
    for (const RelayModel &m : m_models) {
        if (m.alias == m_alias)
            continue;
        others.append(m.contextSize > 0 && m_catalogFile.isEmpty()
                          ? u"#   codex -m %1 -c model_context_window=%2"_s.arg(m.alias).arg(m.contextSize)
                          : u"#   codex -m %1"_s.arg(m.alias));
    }
    if (!others.isEmpty())
        out += u"\n# The relay's other models:\n"_s + others.join(u'\n') + u'\n';
    return out;
}

QString CodexExport::catalogComment()
{
    return u"# model_catalog_json: Codex's model metadata for the relay's models (their context windows;\n"
           "# no \"Model metadata ... not found\" warning). Each entry carries Codex %1's own base\n"
           "# prompt, so Codex %1 sends what it sends without the catalog; another Codex version\n"
           "# is sent %1's prompt, not its own. The catalog takes the place of Codex's bundled one:\n"
           "# OpenAI's own models get fallback metadata with this config.\n"_s.arg(QLatin1String(PromptVersion));
}

bool CodexExport::merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const
{
    const QStringList lines = QString::fromUtf8(existing).split(u'\n');
    const QString ours = u"model_providers."_s + m_provider;
    QStringList top;
    QStringList rest;
    QStringList topKeys;
    bool inTop = true;
    bool inOurs = false;
    QString openString;   // the delimiter of a multi-line string that is still open
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const bool header = openString.isEmpty() && isHeader(line);
        if (header) {
            inTop = false;
            const QString name = headerName(line);
            inOurs = name == ours || name.startsWith(ours + u'.');
        }
        if (!header && openString.isEmpty() && inTop) {
            if (const QString key = keyOf(line); !key.isEmpty())
                topKeys.append(key);
        }
        for (const QString &delimiter : {u"\"\"\""_s, u"'''"_s}) {
            if (!openString.isEmpty() && openString != delimiter)
                continue;
            if (line.count(delimiter) % 2 == 1)
                openString = openString.isEmpty() ? delimiter : QString();
        }
        if (inTop)
            top.append(line);
        else if (!inOurs)
            rest.append(line);
    }
    if (!openString.isEmpty()) {
        *error = tr("%1: a multi-line string is not closed; nothing was changed").arg(fileName);
        return false;
    }
    while (!top.isEmpty() && top.back().trimmed().isEmpty())
        top.removeLast();
    // The default model and its window go together: a file that names its own model keeps it,
    // and the relay's provider is then there for `codex -m ALIAS -c model_provider=...`.
    if (!topKeys.contains("model"_L1)) {
        for (const QString &line : topLevelLines()) {
            if (!topKeys.contains(keyOf(line)))
                top.append(line);
        }
    }
    // The catalog is for every model of the relay, whichever is the default. Codex reads one
    // catalog file: a file that names another one keeps it, and says so.
    if (!m_catalogFile.isEmpty()) {
        const QString ours = catalogLine();
        const auto named = std::find_if(top.cbegin(), top.cend(),
                                        [](const QString &line) { return keyOf(line) == "model_catalog_json"_L1; });
        if (named == top.cend()) {
            top.append(ours);
        } else if (named->trimmed() != ours) {
            *error = tr("%1 names a model_catalog_json of its own (%2); Codex reads one catalog: leave out "
                        "--catalog, or take that line out")
                         .arg(fileName, named->trimmed());
            return false;
        }
    }
    while (!rest.isEmpty() && rest.back().trimmed().isEmpty())
        rest.removeLast();
    QString text = top.join(u'\n');
    if (!text.isEmpty())
        text += u"\n\n"_s;
    if (!rest.isEmpty())
        text += rest.join(u'\n') + u"\n\n"_s;
    text += providerTable();
    *out = text.toUtf8();
    return true;
}

} // namespace switchyard
