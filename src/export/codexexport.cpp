#include "export/codexexport.h"

#include <QCoreApplication>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace switchyard {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("export", text);
}

// A table header's name with quotes and spaces around its parts taken away:
// `[ model_providers . "switchyard" ]` -> model_providers.switchyard.
QString headerName(const QString &line)
{
    static const QRegularExpression header(u"^\\s*\\[\\[?\\s*(.*?)\\s*\\]\\]?\\s*(?:#.*)?$"_s);
    const QRegularExpressionMatch m = header.match(line);
    if (!m.hasMatch())
        return {};
    QStringList parts = m.captured(1).split(u'.');
    for (QString &p : parts) {
        p = p.trimmed();
        if (p.size() >= 2 && (p.startsWith(u'"') || p.startsWith(u'\'')) && p.back() == p.front())
            p = p.mid(1, p.size() - 2);
    }
    return parts.join(u'.');
}

bool isHeader(const QString &line)
{
    const QString t = line.trimmed();
    return t.startsWith(u'[') && !headerName(line).isEmpty();
}

// The bare key a `key = value` line sets, or empty.
QString keyOf(const QString &line)
{
    static const QRegularExpression key(u"^\\s*(?:\"([^\"]+)\"|'([^']+)'|([A-Za-z0-9_-]+))\\s*="_s);
    const QRegularExpressionMatch m = key.match(line);
    if (!m.hasMatch())
        return {};
    for (int i = 1; i <= 3; ++i) {
        if (!m.captured(i).isEmpty())
            return m.captured(i);
    }
    return {};
}

} // namespace

CodexExport::CodexExport(const QString &baseUrl, const QString &provider, const QString &alias,
                         const QList<RelayModel> &models)
    : m_baseUrl(baseUrl)
    , m_provider(provider)
    , m_alias(alias)
    , m_models(models)
{
}

QString CodexExport::tomlString(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        if (c.unicode() < 0x20) {
            out += u"\\u%1"_s.arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            continue;
        }
        out += c;
    }
    return u'"' + out + u'"';
}

QStringList CodexExport::topLevelLines() const
{
    QStringList lines{u"model = "_s + tomlString(m_alias), u"model_provider = "_s + tomlString(m_provider)};
    // Codex takes a model it has no metadata for as a 272,000-token one (95 % of it usable)
    // unless told; it caps this at that figure.
    if (const RelayModel *m = RelayModel::find(m_models, m_alias); m && m->contextSize > 0)
        lines.append(u"model_context_window = %1"_s.arg(m->contextSize));
    return lines;
}

QString CodexExport::providerTable() const
{
    static const QRegularExpression bare(u"^[A-Za-z0-9_-]+$"_s);
    const QString name = bare.match(m_provider).hasMatch() ? m_provider : tomlString(m_provider);
    return u"[model_providers.%1]\n"_s.arg(name)
        + u"name = "_s + tomlString(u"Switchyard (%1)"_s.arg(m_baseUrl)) + u'\n'
        + u"base_url = "_s + tomlString(m_baseUrl + "/v1"_L1) + u'\n'
        + u"env_key = \"%1\"\n"_s.arg(QLatin1String(KeyVariable))
        + u"wire_api = \"responses\"\n"_s
        // Codex repeats every answer but a 400 up to stream_max_retries times at the turn, and
        // a 5xx or a dropped connection request_max_retries times per try (30 requests for one
        // 502 by default). The relay's refusals are final and it retries an engine that
        // dropped the connection itself: one more try for a network fault is enough.
        + u"request_max_retries = 1\n"_s
        + u"stream_max_retries = 0\n"_s
        // Codex gives up on a stream after 300 s without an event, and the relay's ": waiting"
        // comments are no events to it: an engine switch or a long prompt takes longer. The
        // relay ends a stream its engine left silent itself (limits.upstream_inactivity_timeout_s).
        + u"stream_idle_timeout_ms = 900000\n"_s;
}

QString CodexExport::toml() const
{
    QString out = u"# Codex: $CODEX_HOME/config.toml (~/.codex/config.toml). Set %1 (any value when the\n"
                  "# relay wants no client key).\n"_s.arg(QLatin1String(KeyVariable));
    out += topLevelLines().join(u'\n') + u"\n\n"_s + providerTable();
    QStringList others;
    for (const RelayModel &m : m_models) {
        if (m.alias == m_alias)
            continue;
        others.append(m.contextSize > 0 ? u"#   codex -m %1 -c model_context_window=%2"_s.arg(m.alias).arg(m.contextSize)
                                        : u"#   codex -m %1"_s.arg(m.alias));
    }
    if (!others.isEmpty())
        out += u"\n# The relay's other models:\n"_s + others.join(u'\n') + u'\n';
    return out;
}

bool CodexExport::merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const
{
    const QStringList lines = QString::fromUtf8(existing).split(u'\n');
    const QString ours = u"model_providers."_s + m_provider;
    QStringList top;
    QStringList rest;
    QStringList topKeys;
    bool inTop = true;
    bool inOurs = false;
    QString openString;   // the delimiter of a multi-line string that is still open
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const bool header = openString.isEmpty() && isHeader(line);
        if (header) {
            inTop = false;
            const QString name = headerName(line);
            inOurs = name == ours || name.startsWith(ours + u'.');
        }
        if (!header && openString.isEmpty() && inTop) {
            if (const QString key = keyOf(line); !key.isEmpty())
                topKeys.append(key);
        }
        for (const QString &delimiter : {u"\"\"\""_s, u"'''"_s}) {
            if (!openString.isEmpty() && openString != delimiter)
                continue;
            if (line.count(delimiter) % 2 == 1)
                openString = openString.isEmpty() ? delimiter : QString();
        }
        if (inTop)
            top.append(line);
        else if (!inOurs)
            rest.append(line);
    }
    if (!openString.isEmpty()) {
        *error = tr("%1: a multi-line string is not closed; nothing was changed").arg(fileName);
        return false;
    }
    while (!top.isEmpty() && top.back().trimmed().isEmpty())
        top.removeLast();
    // The default model and its window go together: a file that names its own model keeps it,
    // and the relay's provider is then there for `codex -m ALIAS -c model_provider=...`.
    if (!topKeys.contains("model"_L1)) {
        for (const QString &line : topLevelLines()) {
            if (!topKeys.contains(keyOf(line)))
                top.append(line);
        }
    }
    while (!rest.isEmpty() && rest.back().trimmed().isEmpty())
        rest.removeLast();
    QString text = top.join(u'\n');
    if (!text.isEmpty())
        text += u"\n\n"_s;
    if (!rest.isEmpty())
        text += rest.join(u'\n') + u"\n\n"_s;
    text += providerTable();
    *out = text.toUtf8();
    return true;
}

} // namespace switchyard
