#pragma once

#include "export/relaymodel.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace switchyard {

// Codex's config.toml for the relay ($CODEX_HOME/config.toml, ~/.codex by default): one
// [model_providers.NAME] table on the Responses API (the only one Codex 0.169 speaks), the
// default model with its context window, and retries that never repeat a refusal.
class CodexExport
{
public:
    // The environment variable Codex sends as the bearer token (any value for a relay without
    // client keys; Codex refuses to start when it is not set).
    static constexpr const char *KeyVariable = "SWITCHYARD_API_KEY";

    CodexExport(const QString &baseUrl, const QString &provider, const QString &alias, const QList<RelayModel> &models);

    // The provider table alone, `[model_providers.NAME]` and its keys.
    QString providerTable() const;
    // The top-level keys (model, model_provider, model_context_window) as `key = value` lines.
    QStringList topLevelLines() const;
    // A whole config.toml: the top-level keys, the provider table, and the other models as a
    // comment that says how to pick one.
    QString toml() const;
    // The user's config.toml with our provider table added or replaced (its sub-tables too), the
    // top-level keys added only when it names no model of its own, and every other line kept. fileName is
    // for errors; false with *error when the file is not TOML this can edit safely.
    bool merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const;

    static QString tomlString(const QString &text);

private:
    QString m_baseUrl;
    QString m_provider;
    QString m_alias;
    QList<RelayModel> m_models;
};

} // namespace switchyard
