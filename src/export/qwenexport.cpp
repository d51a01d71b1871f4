#include "export/qwenexport.h"

#include "export/claudecodeexport.h"
#include "export/orderedjson.h"

using namespace Qt::StringLiterals;

namespace switchyard {

QwenExport::QwenExport(const QString &baseUrl, const RelayModel &model)
    : m_baseUrl(baseUrl)
    , m_model(model)
{
}

QList<QPair<QStringList, QJsonValue>> QwenExport::members() const
{
    QList<QPair<QStringList, QJsonValue>> out{
        {{u"security"_s, u"auth"_s, u"selectedType"_s}, u"openai"_s},
        {{u"security"_s, u"auth"_s, u"apiKey"_s}, u"switchyard"_s},
        {{u"security"_s, u"auth"_s, u"baseUrl"_s}, m_baseUrl + "/v1"_L1},
        {{u"model"_s, u"name"_s}, m_model.alias},
    };
    // Qwen Code otherwise looks the window up by the model's name, and a name it does not know
    // gets its default.
    if (m_model.contextSize > 0)
        out.append({{u"model"_s, u"generationConfig"_s, u"contextWindowSize"_s}, m_model.contextSize});
    out.append({{u"privacy"_s, u"usageStatisticsEnabled"_s}, false});
    out.append({{u"general"_s, u"enableAutoUpdate"_s}, false});
    return out;
}

QJsonObject QwenExport::settings() const
{
    JsonNode root = OrderedJson::fromValue(QJsonObject());
    QString ignored;
    for (const auto &[path, value] : members())
        OrderedJson::setPath(root, path, value, false, QString(), &ignored);
    return OrderedJson::toValue(root).toObject();
}

QString QwenExport::shell() const
{
    QString out;
    const QList<QPair<QString, QString>> variables{
        {u"OPENAI_BASE_URL"_s, m_baseUrl + "/v1"_L1},
        {u"OPENAI_API_KEY"_s, u"switchyard"_s},
        {u"OPENAI_MODEL"_s, m_model.alias},
    };
    for (const auto &[name, value] : variables)
        out += "export "_L1 + name + u'=' + ClaudeCodeExport::shellQuote(value) + u'\n';
    return out;
}

bool QwenExport::merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const
{
    std::optional<JsonNode> root = OrderedJson::parseObject(existing, fileName, error);
    if (!root)
        return false;
    for (const auto &[path, value] : members()) {
        if (!OrderedJson::setPath(*root, path, value, false, fileName, error))
            return false;
    }
    *out = root->toJson();
    return true;
}

} // namespace switchyard
