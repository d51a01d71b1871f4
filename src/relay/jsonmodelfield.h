#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

namespace switchyard {

// Finds the top-level "model" member of a JSON request body without parsing the whole body
// (Claude Code sends ~76 KB per turn), so it can be read and replaced in place; every other
// byte goes upstream untouched.
struct JsonModelField
{
    enum class Result { Found, Missing, NotAString, NotAnObject, Malformed };

    Result result = Result::Missing;
    QString value;             // decoded
    qsizetype start = -1;      // the string literal's opening quote
    qsizetype end = -1;        // one past its closing quote
    bool stream = false;       // the body has a top-level "stream": true
    // The top-level "max_tokens" (or "max_completion_tokens", "max_output_tokens") when it is a
    // number; -1 when there is none. A side call asks for few (RequestClass).
    qint64 maxTokens = -1;
    bool tools = false;        // the body has a non-empty top-level "tools" array
    // Which conversation the request continues, for sending its turns to the same replica: a hash
    // of its system prompt ("system", "instructions") and of its "messages" (or "input") up to
    // the first user message, of which only the first FirstUserBytes count, all without their
    // "cache_control" members (clients move cache markers to the newest message). 0: the body
    // holds no such list. The relay adds the client key (ReplicaRouter::conversationKey).
    quint64 conversation = 0;
    static constexpr qsizetype FirstUserBytes = 2048;

    static JsonModelField find(QByteArrayView json);
    // A copy of json with the model's value replaced by newValue (JSON-escaped).
    QByteArray replaced(QByteArrayView json, const QString &newValue) const;
    // newValue as the JSON string literal that takes the place of [start, end).
    static QByteArray literal(const QString &newValue);
};

} // namespace switchyard
