#include "fakecompletionformat.h"

#include "fakemodelsjson.h"

#include "common/jsonwriter.h"

#include <QDateTime>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

namespace {

QString randomId(int length = 32)
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString id;
    id.reserve(length);
    for (int i = 0; i < length; ++i)
        id += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(62)]);
    return id;
}

QByteArray dataFrame(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}

QByteArray eventFrame(const char *event, const QByteArray &json)
{
    return QByteArray("event: ") + event + "\ndata: " + json + "\n\n";
}

void writeUsage(JsonWriter &json, const FakeGenerationStats &s)
{
    json.beginObject();
    json.key("completion_tokens").integer(s.completionTokens).key("prompt_tokens").integer(s.promptTokens);
    json.key("total_tokens").integer(s.completionTokens + s.promptTokens);
    json.key("prompt_tokens_details").beginObject().key("cached_tokens").integer(s.cachedTokens).endObject();
    json.endObject();
}

double perTokenMs(double ms, int n)
{
    return n > 0 ? ms / n : 0.0;
}

double perSecond(double ms, int n)
{
    return ms > 0 ? 1e3 * n / ms : 0.0;
}

void writeTimings(JsonWriter &json, const FakeGenerationStats &s)
{
    json.beginObject();
    const int evaluated = s.promptTokens - s.cachedTokens;
    json.key("cache_n").integer(s.cachedTokens).key("prompt_n").integer(evaluated).key("prompt_ms").real(s.promptMs);
    json.key("prompt_per_token_ms").real(perTokenMs(s.promptMs, evaluated));
    json.key("prompt_per_second").real(perSecond(s.promptMs, evaluated));
    json.key("predicted_n").integer(s.completionTokens).key("predicted_ms").real(s.predictedMs);
    json.key("predicted_per_token_ms").real(perTokenMs(s.predictedMs, s.completionTokens));
    json.key("predicted_per_second").real(perSecond(s.predictedMs, s.completionTokens));
    json.endObject();
}

QByteArray usageJson(const FakeGenerationStats &s)
{
    JsonWriter json;
    writeUsage(json, s);
    return json.take();
}

QByteArray timingsJson(const FakeGenerationStats &s)
{
    JsonWriter json;
    writeTimings(json, s);
    return json.take();
}

const char *chatFinish(const FakeGenerationStats &s)
{
    return s.hitLimit ? "length" : "stop";
}

const char *anthropicStop(const FakeGenerationStats &s)
{
    return s.hitLimit ? "max_tokens" : "end_turn";
}

} // namespace

FakeCompletionFormat::FakeCompletionFormat(FakeApi api, const QString &model, bool includeUsage)
    : m_api(api)
    , m_model(model)
    , m_created(QDateTime::currentSecsSinceEpoch())
    , m_includeUsage(includeUsage)
{
    switch (api) {
    case FakeApi::Completions:
        m_id = u"cmpl-"_s + randomId();
        break;
    case FakeApi::Responses:
        m_id = u"resp_"_s + randomId();
        m_itemId = u"msg_"_s + randomId();
        break;
    default:
        m_id = u"chatcmpl-"_s + randomId();
        break;
    }
}

QString FakeCompletionFormat::tokenText(int index)
{
    return u" tok"_s + QString::number(index);
}

QString FakeCompletionFormat::text(int tokenCount)
{
    QString all;
    for (int i = 0; i < tokenCount; ++i)
        all += tokenText(i);
    return all;
}

QByteArray FakeCompletionFormat::contentType(bool stream) const
{
    return stream ? QByteArrayLiteral("text/event-stream") : QByteArrayLiteral("application/json; charset=utf-8");
}

QByteArray FakeCompletionFormat::chatChunk(const QByteArray &choice, const QByteArray &extra) const
{
    JsonWriter json;
    json.beginObject().key("choices").beginArray();
    if (!choice.isEmpty())
        json.raw(choice);
    json.endArray();
    json.key("created").integer(m_created).key("id").string(m_id).key("model").string(m_model);
    json.key("system_fingerprint").string(fakemodelsjson::BuildInfo).key("object").string("chat.completion.chunk");
    json.endObject();
    QByteArray out = json.take();
    if (!extra.isEmpty())
        out.insert(out.size() - 1, "," + extra);
    return dataFrame(out);
}

QByteArray FakeCompletionFormat::completionChunk(const QString &text, const char *finishReason,
                                                 const QByteArray &extra) const
{
    JsonWriter json;
    json.beginObject().key("choices").beginArray().beginObject();
    json.key("text").string(text).key("index").integer(0).key("logprobs").null();
    json.key("finish_reason");
    if (finishReason)
        json.string(finishReason);
    else
        json.null();
    json.endObject().endArray();
    json.key("created").integer(m_created).key("model").string(m_model);
    json.key("system_fingerprint").string(fakemodelsjson::BuildInfo).key("object").string("text_completion");
    json.key("id").string(m_id);
    json.endObject();
    QByteArray out = json.take();
    if (!extra.isEmpty())
        out.insert(out.size() - 1, "," + extra);
    return out;
}

QByteArray FakeCompletionFormat::nativeFinal(const FakeGenerationStats &s, const QString &content) const
{
    JsonWriter json;
    json.beginObject();
    json.key("index").integer(0).key("content").string(content).key("tokens").beginArray().endArray();
    json.key("id_slot").integer(0).key("stop").boolean(true).key("model").string(m_model);
    json.key("tokens_predicted").integer(s.completionTokens).key("tokens_evaluated").integer(s.promptTokens);
    json.key("generation_settings").beginObject().endObject();
    json.key("prompt").string("").key("has_new_line").boolean(false).key("truncated").boolean(false);
    json.key("stop_type").string(s.hitLimit ? "limit" : "eos").key("stopping_word").string("");
    json.key("tokens_cached").integer(s.promptTokens + s.completionTokens);
    json.key("timings");
    writeTimings(json, s);
    json.endObject();
    return json.take();
}

QByteArray FakeCompletionFormat::messageItem(const char *status, const QString &text) const
{
    JsonWriter json;
    json.beginObject();
    json.key("type").string("message").key("id").string(m_itemId).key("status").string(status);
    json.key("role").string("assistant").key("content").beginArray();
    if (qstrcmp(status, "completed") == 0) {
        json.beginObject().key("type").string("output_text").key("text").string(text);
        json.key("annotations").beginArray().endArray().endObject();
    }
    json.endArray().endObject();
    return json.take();
}

QByteArray FakeCompletionFormat::responseObject(const char *status, const FakeGenerationStats *stats) const
{
    JsonWriter json;
    json.beginObject();
    json.key("id").string(m_id).key("object").string("response").key("created_at").integer(m_created);
    json.key("status").string(status).key("model").string(m_model);
    json.key("output").beginArray();
    if (stats)
        json.raw(messageItem("completed", text(stats->completionTokens)));
    json.endArray();
    if (stats) {
        json.key("usage").beginObject();
        json.key("input_tokens").integer(stats->promptTokens).key("output_tokens").integer(stats->completionTokens);
        json.key("total_tokens").integer(stats->promptTokens + stats->completionTokens);
        json.endObject();
    }
    json.endObject();
    return json.take();
}

QByteArray FakeCompletionFormat::opening(int promptTokens) const
{
    switch (m_api) {
    case FakeApi::ChatCompletions:
        return chatChunk(R"({"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}})");
    case FakeApi::Messages: {
        JsonWriter json;
        json.beginObject().key("type").string("message_start").key("message").beginObject();
        json.key("id").string(m_id).key("type").string("message").key("role").string("assistant");
        json.key("content").beginArray().endArray().key("model").string(m_model);
        json.key("stop_reason").null().key("stop_sequence").null();
        json.key("usage").beginObject().key("cache_read_input_tokens").integer(0);
        json.key("input_tokens").integer(promptTokens).key("output_tokens").integer(0).endObject();
        json.endObject().endObject();
        return eventFrame("message_start", json.take())
            + eventFrame("content_block_start",
                         R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})");
    }
    case FakeApi::Responses: {
        JsonWriter item;
        item.beginObject().key("type").string("response.output_item.added").key("output_index").integer(0);
        item.key("item").raw(messageItem("in_progress", {})).endObject();
        JsonWriter part;
        part.beginObject().key("type").string("response.content_part.added").key("item_id").string(m_itemId);
        part.key("output_index").integer(0).key("content_index").integer(0);
        part.key("part").beginObject().key("type").string("output_text").key("text").string("");
        part.key("annotations").beginArray().endArray().endObject().endObject();
        return eventFrame("response.created",
                          R"({"type":"response.created","response":)" + responseObject("in_progress", nullptr) + '}')
            + eventFrame("response.in_progress",
                         R"({"type":"response.in_progress","response":)" + responseObject("in_progress", nullptr)
                             + '}')
            + eventFrame("response.output_item.added", item.take())
            + eventFrame("response.content_part.added", part.take());
    }
    case FakeApi::Completions:
    case FakeApi::NativeCompletion:
    case FakeApi::CountTokens:
        break;
    }
    return {};
}

QByteArray FakeCompletionFormat::token(int index, int promptTokens) const
{
    const QString piece = tokenText(index);
    JsonWriter json;
    switch (m_api) {
    case FakeApi::ChatCompletions:
        json.beginObject().key("finish_reason").null().key("index").integer(0);
        json.key("delta").beginObject().key("content").string(piece).endObject().endObject();
        return chatChunk(json.take());
    case FakeApi::Completions:
        return dataFrame(completionChunk(piece, nullptr, {}));
    case FakeApi::NativeCompletion:
        json.beginObject().key("index").integer(0).key("content").string(piece);
        json.key("tokens").beginArray().endArray().key("stop").boolean(false).key("id_slot").integer(-1);
        json.key("tokens_predicted").integer(index + 1).key("tokens_evaluated").integer(promptTokens);
        json.endObject();
        return dataFrame(json.take());
    case FakeApi::Messages:
        json.beginObject().key("type").string("content_block_delta").key("index").integer(0);
        json.key("delta").beginObject().key("type").string("text_delta").key("text").string(piece);
        json.endObject().endObject();
        return eventFrame("content_block_delta", json.take());
    case FakeApi::Responses:
        json.beginObject().key("type").string("response.output_text.delta").key("item_id").string(m_itemId);
        json.key("output_index").integer(0).key("content_index").integer(0).key("delta").string(piece);
        json.endObject();
        return eventFrame("response.output_text.delta", json.take());
    case FakeApi::CountTokens:
        break;
    }
    return {};
}

QByteArray FakeCompletionFormat::closing(const FakeGenerationStats &s) const
{
    switch (m_api) {
    case FakeApi::ChatCompletions: {
        const QByteArray finish =
            R"({"finish_reason":")" + QByteArray(chatFinish(s)) + R"(","index":0,"delta":{}})";
        // Without include_usage the timings ride on the finish chunk (transcript 13);
        // with it they move to the usage chunk (transcript 14).
        if (!m_includeUsage)
            return chatChunk(finish, R"("timings":)" + timingsJson(s));
        return chatChunk(finish) + chatChunk({}, R"("usage":)" + usageJson(s) + R"(,"timings":)" + timingsJson(s));
    }
    case FakeApi::Completions: {
        QByteArray extra;
        if (m_includeUsage)
            extra = R"("usage":)" + usageJson(s) + ',';
        extra += R"("timings":)" + timingsJson(s);
        return dataFrame(completionChunk({}, chatFinish(s), extra));
    }
    case FakeApi::NativeCompletion:
        return dataFrame(nativeFinal(s, {}));
    case FakeApi::Messages: {
        JsonWriter json;
        json.beginObject().key("type").string("message_delta");
        json.key("delta").beginObject().key("stop_reason").string(anthropicStop(s)).key("stop_sequence").null();
        json.endObject();
        json.key("usage").beginObject().key("output_tokens").integer(s.completionTokens).endObject();
        json.endObject();
        return eventFrame("content_block_stop", R"({"type":"content_block_stop","index":0})")
            + eventFrame("message_delta", json.take())
            + eventFrame("message_stop", R"({"type":"message_stop"})");
    }
    case FakeApi::Responses: {
        const QString all = text(s.completionTokens);
        JsonWriter textDone;
        textDone.beginObject().key("type").string("response.output_text.done").key("item_id").string(m_itemId);
        textDone.key("output_index").integer(0).key("content_index").integer(0).key("text").string(all);
        textDone.endObject();
        JsonWriter partDone;
        partDone.beginObject().key("type").string("response.content_part.done").key("item_id").string(m_itemId);
        partDone.key("output_index").integer(0).key("content_index").integer(0);
        partDone.key("part").beginObject().key("type").string("output_text").key("text").string(all);
        partDone.key("annotations").beginArray().endArray().endObject().endObject();
        JsonWriter itemDone;
        itemDone.beginObject().key("type").string("response.output_item.done").key("output_index").integer(0);
        itemDone.key("item").raw(messageItem("completed", all)).endObject();
        return eventFrame("response.output_text.done", textDone.take())
            + eventFrame("response.content_part.done", partDone.take())
            + eventFrame("response.output_item.done", itemDone.take())
            + eventFrame("response.completed",
                         R"({"type":"response.completed","response":)" + responseObject("completed", &s) + '}');
    }
    case FakeApi::CountTokens:
        break;
    }
    return {};
}

QByteArray FakeCompletionFormat::done() const
{
    if (m_api == FakeApi::ChatCompletions || m_api == FakeApi::Completions)
        return QByteArrayLiteral("data: [DONE]\n\n");
    return {};
}

QByteArray FakeCompletionFormat::streamError(int code, const QString &message, const char *type) const
{
    JsonWriter json;
    json.beginObject().key("code").integer(code).key("message").string(message).key("type").string(type);
    json.endObject();
    const QByteArray error = json.take();
    if (m_api == FakeApi::Messages || m_api == FakeApi::Responses)
        return eventFrame("error", error);
    return dataFrame(R"({"error":)" + error + '}');
}

QByteArray FakeCompletionFormat::body(const FakeGenerationStats &s) const
{
    const QString all = text(s.completionTokens);
    JsonWriter json;
    switch (m_api) {
    case FakeApi::ChatCompletions:
        json.beginObject().key("choices").beginArray().beginObject();
        json.key("finish_reason").string(chatFinish(s)).key("index").integer(0);
        json.key("message").beginObject().key("role").string("assistant").key("content").string(all).endObject();
        json.endObject().endArray();
        json.key("created").integer(m_created).key("model").string(m_model);
        json.key("system_fingerprint").string(fakemodelsjson::BuildInfo).key("object").string("chat.completion");
        json.key("usage");
        writeUsage(json, s);
        json.key("id").string(m_id).key("timings");
        writeTimings(json, s);
        json.endObject();
        return json.take();
    case FakeApi::Completions:
        return completionChunk(all, chatFinish(s),
                               R"("usage":)" + usageJson(s) + R"(,"timings":)" + timingsJson(s));
    case FakeApi::NativeCompletion:
        return nativeFinal(s, all);
    case FakeApi::Messages:
        json.beginObject().key("id").string(m_id).key("type").string("message").key("role").string("assistant");
        json.key("content").beginArray().beginObject().key("type").string("text").key("text").string(all);
        json.endObject().endArray();
        json.key("model").string(m_model).key("stop_reason").string(anthropicStop(s)).key("stop_sequence").null();
        json.key("usage").beginObject().key("cache_read_input_tokens").integer(0);
        json.key("input_tokens").integer(s.promptTokens).key("output_tokens").integer(s.completionTokens);
        json.endObject().endObject();
        return json.take();
    case FakeApi::Responses:
        return responseObject("completed", &s);
    case FakeApi::CountTokens:
        json.beginObject().key("input_tokens").integer(s.promptTokens).endObject();
        return json.take();
    }
    return {};
}

} // namespace switchyard::fake
