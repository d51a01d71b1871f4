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
    // The Codex whose built-in base prompt the model catalog carries (resources/codex/).
    static constexpr const char *PromptVersion = "0.169.0";

    CodexExport(const QString &baseUrl, const QString &provider, const QString &alias, const QList<RelayModel> &models);

    // With a catalog file (an absolute path), the config names it as model_catalog_json and no
    // longer sets model_context_window: each model's window comes from its catalog entry.
    void setCatalogFile(const QString &path);
    // Codex's model catalog for the relay's models (the model_catalog_json file): one entry per
    // alias with the values Codex 0.169's fallback metadata uses, the model's context window,
    // and Codex 0.169.0's own base prompt. Empty with *error when the prompt cannot be read.
    QByteArray catalogJson(QString *error) const;
    // Codex 0.169.0's base prompt for a model it has no metadata for (resources/codex/).
    static QString builtInPrompt(QString *error);

    // The provider table alone, `[model_providers.NAME]` and its keys.
    QString providerTable() const;
    // The top-level keys (model, model_provider, and model_context_window or model_catalog_json)
    // as `key = value` lines.
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
    QString catalogLine() const;
    static QString catalogComment();

    QString m_baseUrl;
    QString m_provider;
    QString m_alias;
    QList<RelayModel> m_models;
    QString m_catalogFile;
};

} // namespace switchyard
