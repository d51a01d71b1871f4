#include "export/piexport.h"

#include "export/opencodeexport.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace switchyard {

PiExport::PiExport(const QString &baseUrl, const QString &provider, const QList<RelayModel> &models)
    : m_baseUrl(baseUrl)
    , m_provider(provider)
    , m_models(models)
{
}

QJsonObject PiExport::provider() const
{
    QJsonArray models;
    for (const RelayModel &m : m_models) {
        QJsonObject model{{"id"_L1, m.alias}, {"name"_L1, m.alias}};
        if (m.contextSize > 0) {
            model.insert("contextWindow"_L1, m.contextSize);
            model.insert("maxTokens"_L1, OpencodeExport::outputLimit(m.contextSize));
        }
        models.append(model);
    }
    return QJsonObject{
        {"baseUrl"_L1, m_baseUrl + "/v1"_L1},
        {"api"_L1, "openai-completions"_L1},
        {"apiKey"_L1, "switchyard"_L1},
        {"compat"_L1, QJsonObject{{"supportsDeveloperRole"_L1, false},
                                  {"supportsStore"_L1, false},
                                  {"maxTokensField"_L1, "max_tokens"_L1}}},
        {"models"_L1, models},
    };
}

QJsonObject PiExport::modelsJson() const
{
    return QJsonObject{{"providers"_L1, QJsonObject{{m_provider, provider()}}}};
}

} // namespace switchyard
