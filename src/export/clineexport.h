#pragma once

#include "export/relaymodel.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace switchyard {

// Cline's CLI (3.x) for the relay: its "openai-compatible" provider in
// ~/.cline/data/settings/providers.json (what `cline auth -p openai-compatible` writes, plus the
// model's context window, which that command cannot set), the `cline auth` line itself, and
// global-settings.json with telemetry and the self-update off.
class ClineExport
{
public:
    static constexpr const char *ProviderId = "openai-compatible";

    ClineExport(const QString &baseUrl, const RelayModel &model, QDateTime now = QDateTime::currentDateTimeUtc());

    // The provider's "settings" object.
    QJsonObject providerSettings() const;
    // A whole providers.json with the provider, used from now on.
    QJsonObject providersJson() const;
    static QJsonObject globalSettings();
    // `cline auth -p openai-compatible -k KEY -m MODEL -b URL`, one line.
    QString authCommand() const;

    // An existing providers.json with our provider added or replaced and made the one in use.
    bool mergeProviders(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const;
    // An existing global-settings.json with the two switches set.
    static bool mergeGlobalSettings(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error);

private:
    QJsonObject providerEntry() const;

    QString m_baseUrl;
    RelayModel m_model;
    QDateTime m_now;
};

} // namespace switchyard
