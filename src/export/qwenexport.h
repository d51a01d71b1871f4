#pragma once

#include "export/relaymodel.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace switchyard {

// Qwen Code for the relay: ~/.qwen/settings.json with OpenAI-compatible auth pointed at the
// relay, the model and its context window (model.generationConfig.contextWindowSize), usage
// statistics and the self-update off; or the environment variables it reads instead.
class QwenExport
{
public:
    QwenExport(const QString &baseUrl, const RelayModel &model);

    QJsonObject settings() const;
    // OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL: `export NAME=value` lines. The context
    // window has no variable: it is in settings() only.
    QString shell() const;
    // The user's settings.json with our members set and everything else kept.
    bool merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const;

private:
    // Every member the export sets, as a path and its value.
    QList<QPair<QStringList, QJsonValue>> members() const;

    QString m_baseUrl;
    RelayModel m_model;
};

} // namespace switchyard
