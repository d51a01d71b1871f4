#include "export/opencodeexport.h"

#include "config/jsonnode.h"
#include "export/orderedjson.h"
#include "export/samplerwords.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace switchyard {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("export", text);
}

int lineAt(const QByteArray &text, int offset)
{
    offset = std::clamp(offset, 0, int(text.size()));
    return int(text.left(offset).count('\n')) + 1;
}

} // namespace

OpencodeExport::OpencodeExport(Options options, const QList<RelayModel> &models)
    : m_options(std::move(options))
{
    const QStringList keys = keysFor(RelayModel::aliases(models));
    for (qsizetype i = 0; i < models.size(); ++i)
        m_entries.append(Entry{keys.at(i), models.at(i)});
}

QStringList OpencodeExport::keysFor(const QStringList &aliases)
{
    QStringList keys;
    QSet<QString> used;
    // Aliases that need no change keep their name, so they are taken first.
    for (const QString &alias : aliases) {
        if (!SamplerWords::contains(alias))
            used.insert(alias.toLower());
    }
    for (const QString &alias : aliases) {
        if (!SamplerWords::contains(alias)) {
            keys.append(alias);
            continue;
        }
        const QString base = SamplerWords::safeKey(alias);
        QString key = base;
        for (int n = 2; used.contains(key.toLower()); ++n)
            key = base + u'-' + QString::number(n);
        used.insert(key.toLower());
        keys.append(key);
    }
    return keys;
}

int OpencodeExport::outputLimit(int contextSize)
{
    return std::max(1, std::min(contextSize / 4, 32000));
}

QString OpencodeExport::defaultAlias() const
{
    if (!m_options.model.isEmpty())
        return m_options.model;
    QList<RelayModel> models;
    for (const Entry &e : m_entries)
        models.append(e.model);
    return RelayModel::defaultAlias(models);
}

bool OpencodeExport::isValid(QString *error) const
{
    if (m_entries.isEmpty()) {
        *error = tr("the relay lists no models");
        return false;
    }
    if (keyFor(defaultAlias()).isEmpty()) {
        QStringList known;
        for (const Entry &e : m_entries)
            known.append(e.model.alias);
        *error = tr("unknown model %1; known: %2").arg(defaultAlias(), known.join(u", "_s));
        return false;
    }
    return true;
}

QString OpencodeExport::keyFor(const QString &alias) const
{
    for (const Entry &e : m_entries) {
        if (e.model.alias == alias)
            return e.key;
    }
    return {};
}

QString OpencodeExport::modelRef(const QString &alias) const
{
    return m_options.provider + u'/' + keyFor(alias);
}

QJsonObject OpencodeExport::provider() const
{
    QJsonObject models;
    for (const Entry &e : m_entries) {
        QJsonObject model{{"id"_L1, e.model.alias}, {"name"_L1, e.model.alias}};
        if (e.model.contextSize > 0) {
            model.insert("limit"_L1, QJsonObject{{"context"_L1, e.model.contextSize},
                                                 {"output"_L1, outputLimit(e.model.contextSize)}});
        }
        // opencode 1.18.33 reads the sampler words from the id it sends, not from the key: a null
        // top_p overrides its choice and reads as "not set" to llama.cpp, so the host's preset
        // holds. "qwen" it reads from the key only, which has none: no null needed there.
        if (SamplerWords::choosesTopP(e.model.alias))
            model.insert("options"_L1, QJsonObject{{"top_p"_L1, QJsonValue(QJsonValue::Null)}});
        models.insert(e.key, model);
    }
    return QJsonObject{
        {"npm"_L1, "@ai-sdk/openai-compatible"_L1},
        {"name"_L1, tr("Switchyard (%1)").arg(m_options.baseUrl)},
        {"options"_L1, QJsonObject{{"baseURL"_L1, m_options.baseUrl + "/v1"_L1}, {"apiKey"_L1, "switchyard"_L1}}},
        {"models"_L1, models},
    };
}

QJsonObject OpencodeExport::config() const
{
    const QString ref = modelRef(defaultAlias());
    return QJsonObject{
        {"$schema"_L1, "https://opencode.ai/config.json"_L1},
        {"provider"_L1, QJsonObject{{m_options.provider, provider()}}},
        {"model"_L1, ref},
        {"small_model"_L1, ref},
        {"autoupdate"_L1, false},
        {"share"_L1, "disabled"_L1},
    };
}

bool OpencodeExport::merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const
{
    QJsonParseError parseError;
    std::optional<JsonNode> root = JsonNode::parse(existing, &parseError);
    if (!root) {
        const int line = lineAt(existing, parseError.offset);
        QString message = tr("%1:%2: not valid JSON (%3); nothing was changed")
                              .arg(fileName).arg(line).arg(parseError.errorString());
        if (existing.contains("//") || existing.contains("/*"))
            message += u"\n"_s + tr("comments (JSONC) cannot be merged: remove them, or add the provider by hand "
                                    "from `switchyard export opencode`");
        *error = message;
        return false;
    }
    if (!root->isObject()) {
        *error = tr("%1:%2: expected a JSON object at the top; nothing was changed").arg(fileName).arg(root->line);
        return false;
    }
    JsonNode *providers = OrderedJson::member(*root, u"provider");
    if (providers && !providers->isObject()) {
        *error = tr("%1:%2: \"provider\" is not an object; nothing was changed").arg(fileName).arg(providers->line);
        return false;
    }
    if (!providers) {
        root->children.push_back(OrderedJson::fromValue(QJsonObject(), u"provider"_s));
        providers = &root->children.back();
    }
    OrderedJson::setMember(*providers, m_options.provider, provider());
    const QString ref = modelRef(defaultAlias());
    for (const QString &key : {u"model"_s, u"small_model"_s}) {
        if (!OrderedJson::member(*root, key))
            OrderedJson::setMember(*root, key, ref);
    }
    *out = root->toJson();
    return true;
}

} // namespace switchyard
