#include "store/redactor.h"

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

Redactor::Redactor()
    : m_bearer(u"\\bbearer\\s+[^\\s\"',;]+"_s, QRegularExpression::CaseInsensitiveOption)
    // sk-..., sk-ant-..., sk-proj-...: at least 8 key characters, so "sk-" in a word stays.
    , m_keyShaped(u"\\bsk-[A-Za-z0-9_\\-]{8,}"_s)
    // The name stays, so a reader can still tell which header or parameter carried it.
    , m_keyValue(u"\\b(x-api-key|api[_-]?key|access[_-]?token|auth[_-]?token|authorization)"
                 "([\"']?\\s*[:=]\\s*[\"']?)(?!\\[redacted\\])(?:(?:basic|digest|token)\\s+)?[^\\s\"'&,;]+"_s,
                 QRegularExpression::CaseInsensitiveOption)
{
    m_bearer.optimize();
    m_keyShaped.optimize();
    m_keyValue.optimize();
}

void Redactor::setSecrets(const QStringList &secrets)
{
    m_secrets.clear();
    for (const QString &s : secrets) {
        if (!s.isEmpty() && !m_secrets.contains(s))
            m_secrets.append(s);
    }
    std::sort(m_secrets.begin(), m_secrets.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

QString Redactor::placeholder()
{
    return u"[redacted]"_s;
}

QString Redactor::redact(const QString &text) const
{
    if (text.isEmpty())
        return text;
    QString out = text;
    const QString mark = placeholder();
    for (const QString &secret : m_secrets)
        out.replace(secret, mark);
    // Cheap checks first: almost every path and user agent has none of these.
    if (out.contains(u"bearer"_s, Qt::CaseInsensitive))
        out.replace(m_bearer, mark);
    if (out.contains(u"sk-"_s))
        out.replace(m_keyShaped, mark);
    if (out.contains(u"key"_s, Qt::CaseInsensitive) || out.contains(u"token"_s, Qt::CaseInsensitive)
            || out.contains(u"authorization"_s, Qt::CaseInsensitive))
        out.replace(m_keyValue, u"\\1\\2"_s + mark);
    return out;
}

} // namespace switchyard
