#include "export/clineexport.h"

#include "export/claudecodeexport.h"
#include "export/opencodeexport.h"
#include "export/orderedjson.h"

using namespace Qt::StringLiterals;

namespace switchyard {

ClineExport::ClineExport(const QString &baseUrl, const RelayModel &model, QDateTime now)
    : m_baseUrl(baseUrl)
    , m_model(model)
    , m_now(std::move(now))
{
}

QJsonObject ClineExport::providerSettings() const
{
    QJsonObject settings{
        {"provider"_L1, QLatin1String(ProviderId)},
        {"apiKey"_L1, "switchyard"_L1},
        {"model"_L1, m_model.alias},
        {"baseUrl"_L1, m_baseUrl + "/v1"_L1},
    };
    // Without these Cline takes any model for a 128,000-token one.
    if (m_model.contextSize > 0) {
        settings.insert("contextWindow"_L1, m_model.contextSize);
        settings.insert("maxTokens"_L1, OpencodeExport::outputLimit(m_model.contextSize));
    }
    return settings;
}

QJsonObject ClineExport::providerEntry() const
{
    return QJsonObject{{"settings"_L1, providerSettings()},
                       {"updatedAt"_L1, m_now.toUTC().toString(Qt::ISODateWithMs)},
                       {"tokenSource"_L1, "manual"_L1}};
}

QJsonObject ClineExport::providersJson() const
{
    return QJsonObject{
        {"version"_L1, 1},
        {"lastUsedProvider"_L1, QLatin1String(ProviderId)},
        {"modes"_L1, QJsonObject()},
        {"providers"_L1, QJsonObject{{QLatin1String(ProviderId), providerEntry()}}},
    };
}

QJsonObject ClineExport::globalSettings()
{
    return QJsonObject{{"telemetryOptOut"_L1, true}, {"autoUpdateEnabled"_L1, false}};
}

QString ClineExport::authCommand() const
{
    return u"cline auth -p %1 -k switchyard -m %2 -b %3\n"_s.arg(
        QLatin1String(ProviderId), ClaudeCodeExport::shellQuote(m_model.alias),
        ClaudeCodeExport::shellQuote(m_baseUrl + "/v1"_L1));
}

bool ClineExport::mergeProviders(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const
{
    std::optional<JsonNode> root = OrderedJson::parseObject(existing, fileName, error);
    if (!root)
        return false;
    const bool ok = OrderedJson::setPath(*root, {u"version"_s}, 1, true, fileName, error)
        && OrderedJson::setPath(*root, {u"lastUsedProvider"_s}, QLatin1String(ProviderId), false, fileName, error)
        && OrderedJson::setPath(*root, {u"modes"_s}, QJsonObject(), true, fileName, error)
        && OrderedJson::setPath(*root, {u"providers"_s, QLatin1String(ProviderId)}, providerEntry(), false, fileName, error);
    if (!ok)
        return false;
    *out = root->toJson();
    return true;
}

bool ClineExport::mergeGlobalSettings(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error)
{
    std::optional<JsonNode> root = OrderedJson::parseObject(existing, fileName, error);
    if (!root)
        return false;
    const QJsonObject settings = globalSettings();
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        if (!OrderedJson::setPath(*root, {it.key()}, it.value(), false, fileName, error))
            return false;
    }
    *out = root->toJson();
    return true;
}

} // namespace switchyard
