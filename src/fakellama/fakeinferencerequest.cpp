#include "fakeinferencerequest.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

namespace {

int countWords(const QString &text)
{
    int words = 0;
    bool inWord = false;
    for (const QChar c : text) {
        if (c.isSpace()) {
            inWord = false;
        } else if (!inWord) {
            inWord = true;
            ++words;
        }
    }
    return words;
}

// Strings anywhere below; in objects only under "text" and "content", so
// roles, types, ids and tool schemas do not count.
int countWords(const QJsonValue &value)
{
    if (value.isString())
        return countWords(value.toString());
    int words = 0;
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            words += countWords(item);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        words += countWords(object.value(u"text"_s));
        words += countWords(object.value(u"content"_s));
    }
    return words;
}

int firstInt(const QJsonObject &body, std::initializer_list<QString> keys)
{
    for (const QString &key : keys) {
        const QJsonValue v = body.value(key);
        if (v.isDouble())
            return v.toInt();
    }
    return -1;
}

} // namespace

FakeInferenceRequest FakeInferenceRequest::parse(FakeApi api, const QJsonObject &body)
{
    FakeInferenceRequest request;
    request.api = api;
    const QJsonValue model = body.value(u"model"_s);
    request.hasModel = model.isString() && !model.toString().isEmpty();
    request.model = model.toString();
    request.stream = body.value(u"stream"_s).toBool();
    request.includeUsage = body.value(u"stream_options"_s).toObject().value(u"include_usage"_s).toBool();
    request.promptTokens = estimatePromptTokens(body);
    for (const QString &key : {u"system"_s, u"instructions"_s, u"messages"_s, u"prompt"_s, u"input"_s}) {
        const QJsonValue value = body.value(key);
        const QJsonArray items = value.isArray() && key != u"prompt" ? value.toArray() : QJsonArray{value};
        for (const QJsonValue &item : items) {
            if (item.isUndefined() || item.isNull())
                continue;
            request.promptParts.append(key + u':'
                                       + QString::fromUtf8(QJsonDocument(QJsonArray{item}).toJson(QJsonDocument::Compact)));
            request.partTokens.append(countWords(item));
        }
    }

    switch (api) {
    case FakeApi::NativeCompletion:
        // llama.cpp lets n_predict win over max_tokens.
        request.maxTokens = firstInt(body, {u"n_predict"_s, u"max_tokens"_s});
        break;
    case FakeApi::Responses:
        request.maxTokens = firstInt(body, {u"max_output_tokens"_s});
        break;
    default:
        request.maxTokens = firstInt(body, {u"max_completion_tokens"_s, u"max_tokens"_s, u"n_predict"_s});
        break;
    }

    // With Anthropic's top-level "system" first, a system message anywhere in
    // messages comes after it.
    const bool systemFirst = api == FakeApi::Messages && body.contains(u"system"_s);
    const QJsonArray messages = body.value(u"messages"_s).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const bool later = i > 0 || systemFirst;
        if (later && messages.at(i).toObject().value(u"role"_s).toString() == u"system")
            request.lateSystemMessage = true;
    }
    return request;
}

int FakeInferenceRequest::estimatePromptTokens(const QJsonObject &body)
{
    int words = 0;
    for (const QString &key : {u"messages"_s, u"system"_s, u"prompt"_s, u"input"_s, u"instructions"_s})
        words += countWords(body.value(key));
    return words + TemplateOverhead;
}

} // namespace switchyard::fake
