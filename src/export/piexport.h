#pragma once

#include "export/relaymodel.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace switchyard {

// pi's models.json for the relay: one "openai-completions" provider with every alias. The
// compat settings keep pi to what llama.cpp reads (max_tokens, no "developer" role, no "store").
class PiExport
{
public:
    PiExport(const QString &baseUrl, const QString &provider, const QList<RelayModel> &models);

    QJsonObject provider() const;
    // {"providers": {NAME: provider()}}
    QJsonObject modelsJson() const;

private:
    QString m_baseUrl;
    QString m_provider;
    QList<RelayModel> m_models;
};

} // namespace switchyard
