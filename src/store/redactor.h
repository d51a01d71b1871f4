#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace switchyard {

// Removes credentials from text before it is stored or shown: every configured secret (the
// relay's own tokens, upstream API keys), any "Bearer <token>", anything shaped like an
// OpenAI/Anthropic key ("sk-..."), and the value of "api_key=..." / "x-api-key: ..." pairs.
// Each becomes "[redacted]". Text a client controls (paths, user agents, errors quoting a
// header) is where such values leak.
class Redactor
{
public:
    Redactor();

    // Replaces the configured secrets; empty strings are ignored.
    void setSecrets(const QStringList &secrets);
    QStringList secrets() const { return m_secrets; }

    QString redact(const QString &text) const;
    // Every string in it, at any depth (a record's facts quote engine output and errors too).
    QJsonObject redact(const QJsonObject &object) const;

    static QString placeholder();

private:
    QJsonValue redactValue(const QJsonValue &value) const;

    QStringList m_secrets;        // longest first, so a secret containing another goes whole
    QRegularExpression m_bearer;
    QRegularExpression m_keyShaped;
    QRegularExpression m_keyValue;
};

} // namespace switchyard
