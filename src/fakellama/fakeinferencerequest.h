#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard::fake {

// The inference APIs the fake answers.
enum class FakeApi {
    ChatCompletions,  // /v1/chat/completions, /chat/completions
    Completions,      // /v1/completions, /completions (OpenAI text completions)
    NativeCompletion, // /completion (llama.cpp's own)
    Messages,         // /v1/messages (Anthropic)
    Responses,        // /v1/responses (OpenAI Responses)
    CountTokens,      // /v1/messages/count_tokens
};

// What the fake reads from an inference request body.
struct FakeInferenceRequest
{
    FakeApi api = FakeApi::ChatCompletions;
    QString model;
    bool hasModel = false;
    bool stream = false;
    bool includeUsage = false;   // stream_options.include_usage
    int maxTokens = -1;          // -1 = not given
    int promptTokens = 0;        // the fake's deterministic estimate, see estimatePromptTokens()
    bool lateSystemMessage = false;
    // The prompt in parts (each message, system, prompt, input, instructions, compact JSON) with
    // the tokens of each: what a slot's prompt cache can share with the next request.
    QStringList promptParts;
    QList<int> partTokens;

    static FakeInferenceRequest parse(FakeApi api, const QJsonObject &body);

    // Words (whitespace-separated) in every text of the prompt, plus 10 for
    // the chat template. Texts are: messages[].content (strings, or the "text"
    // and "content" of its parts), system, prompt, input, instructions.
    static int estimatePromptTokens(const QJsonObject &body);
    static constexpr int TemplateOverhead = 10;
};

} // namespace switchyard::fake
