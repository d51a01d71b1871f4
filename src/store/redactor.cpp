#include "store/redactor.h"

#include <QJsonArray>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// Whether the text holds a word one of the patterns starts with ("bearer", "sk-", "key", "token",
// "authorization"), ignoring ASCII case. One pass over the text: almost no path, model or user
// agent holds one, and five case-insensitive searches cost more than formatting the whole
// journal line. It may say yes too often (the patterns decide), never too rarely.
bool mayHoldSecretWord(QStringView text)
{
    static constexpr QLatin1StringView Words[] = {"bearer"_L1, "sk-"_L1, "key"_L1, "token"_L1, "authorization"_L1};
    const auto folded = [](QChar c) { return char16_t(c.unicode() | 0x20); };   // ASCII letters to lower case
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = folded(text[i]);
        if (c != u'b' && c != u's' && c != u'k' && c != u't' && c != u'a')
            continue;
        for (QLatin1StringView word : Words) {
            if (word.front() != QLatin1Char(char(c)) || n - i < word.size())
                continue;
            qsizetype k = 1;
            while (k < word.size() && folded(text[i + k]) == char16_t(word[k].unicode()))
                ++k;
            if (k == word.size())
                return true;
        }
    }
    return false;
}

} // namespace

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
    if (!mayHoldSecretWord(out))
        return out;
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

QJsonObject Redactor::redact(const QJsonObject &object) const
{
    QJsonObject out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(it.key(), redactValue(it.value()));
    return out;
}

QJsonValue Redactor::redactValue(const QJsonValue &value) const
{
    if (value.isString())
        return redact(value.toString());
    if (value.isObject())
        return redact(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(redactValue(v));
        return out;
    }
    return value;
}

} // namespace switchyard
