#include "export/claudecodeexport.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace switchyard {

ClaudeCodeExport::ClaudeCodeExport(const QString &baseUrl, const QString &alias, int contextSize, const Tiers &tiers)
{
    const auto tier = [&alias](const QString &chosen) { return chosen.isEmpty() ? alias : chosen; };
    m_variables = {
        {u"ANTHROPIC_BASE_URL"_s, baseUrl},
        // A token rather than ANTHROPIC_API_KEY: Claude Code asks before it uses a custom API
        // key in an interactive session, but sends a token as it is (Authorization: Bearer).
        {u"ANTHROPIC_AUTH_TOKEN"_s, u"switchyard"_s},
        {u"ANTHROPIC_MODEL"_s, alias},
        {u"ANTHROPIC_DEFAULT_OPUS_MODEL"_s, tier(tiers.opus)},
        {u"ANTHROPIC_DEFAULT_SONNET_MODEL"_s, tier(tiers.sonnet)},
        {u"ANTHROPIC_DEFAULT_HAIKU_MODEL"_s, tier(tiers.haiku)},
        {u"ANTHROPIC_SMALL_FAST_MODEL"_s, tier(tiers.haiku)},
        {u"CLAUDE_CODE_SUBAGENT_MODEL"_s, alias},
        {u"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"_s, u"1"_s},
        {u"DISABLE_TELEMETRY"_s, u"1"_s},
        {u"DISABLE_ERROR_REPORTING"_s, u"1"_s},
        {u"DISABLE_AUTOUPDATER"_s, u"1"_s},
        // A streaming request that ends in an error event (the relay's refusal after its early
        // 200: a switch that failed, a lease taken while waiting) is otherwise sent once more
        // without streaming, and waits through the same switch again. It does not stop the
        // repeat after a 404: Claude Code's check for that status reads no setting.
        {u"CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK"_s, u"1"_s},
    };
    if (contextSize > 0) {
        // Claude Code takes a model whose name it does not know for a 200,000-token one
        // (2.1.197; 1,000,000 in 2.1.332) and compacts only near that. The first variable is
        // its window for a model not named claude-* (reported as modelUsage.*.contextWindow);
        // the second is where it compacts, capped at that window (below 100,000 it is read as
        // 100,000, so the first is what counts for a small context).
        const QString tokens = QString::number(contextSize);
        m_variables.append({u"CLAUDE_CODE_MAX_CONTEXT_TOKENS"_s, tokens});
        m_variables.append({u"CLAUDE_CODE_AUTO_COMPACT_WINDOW"_s, tokens});
    }
}

QJsonObject ClaudeCodeExport::settings() const
{
    QJsonObject env;
    for (const auto &[name, value] : m_variables)
        env.insert(name, value);
    return QJsonObject{{"env"_L1, env}};
}

QString ClaudeCodeExport::shellQuote(const QString &value)
{
    static const QRegularExpression plain(u"^[A-Za-z0-9_./:@%+=,-]+$"_s);
    if (plain.match(value).hasMatch())
        return value;
    QString quoted = value;
    quoted.replace(u'\'', "'\\''"_L1);
    return u'\'' + quoted + u'\'';
}

QString ClaudeCodeExport::shell() const
{
    QString out;
    for (const auto &[name, value] : m_variables)
        out += "export "_L1 + name + u'=' + shellQuote(value) + u'\n';
    return out;
}

} // namespace switchyard
