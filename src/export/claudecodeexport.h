#pragma once

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

namespace switchyard {

// Claude Code's environment for the relay: the base URL, a placeholder token, and every model
// variable it reads (default, opus, sonnet, haiku, small/fast, subagent) set to one alias, so
// its side requests never make a one-model llama.cpp router swap models (unless tiers name
// other aliases: each of opus, sonnet and haiku may have its own); plus the switches
// that keep it from calling the internet, the one that keeps it from sending a failed
// streaming request again without streaming, and the model's context window when it is known.
class ClaudeCodeExport
{
public:
    using Variables = QList<QPair<QString, QString>>;

    // Claude Code's model tiers; an empty one gets the default alias.
    struct Tiers
    {
        QString opus;
        QString sonnet;
        QString haiku;   // also its small, fast requests
    };

    // contextSize: the default model's n_ctx in tokens; 0 = unknown (no window variables then).
    ClaudeCodeExport(const QString &baseUrl, const QString &alias, int contextSize = 0, const Tiers &tiers = {});

    // In a fixed order.
    const Variables &variables() const { return m_variables; }
    // {"env": {...}} for ~/.claude/settings.json.
    QJsonObject settings() const;
    // `export NAME='value'` lines for a POSIX shell.
    QString shell() const;

    static QString shellQuote(const QString &value);

private:
    Variables m_variables;
};

} // namespace switchyard
