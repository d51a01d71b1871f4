#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <chrono>
#include <optional>

namespace switchyard {

// Token counts and generation speed from what an answer carries: llama.cpp's "timings"
// (predicted_n, predicted_per_second) or "usage" (completion_tokens / Anthropic and Responses API
// output_tokens; the Responses API's in response.completed's "response").
// The prompt's size (tokens in) from the same places: timings' prompt_n + cache_n, usage's
// prompt_tokens, or Anthropic's input_tokens + cache_read_input_tokens + cache_creation_input_tokens
// (at the top or, in message_start, in "message"): the whole prompt, the cached part included.
// Only lines that mention one of those words are parsed, so the stream's hot path stays a scan.
class StreamStats
{
public:
    void feed(QByteArrayView chunk);
    // For a non-streamed answer: the whole body at once.
    void feedWholeBody(QByteArrayView body);

    std::optional<qint64> tokens() const { return m_tokens; }
    std::optional<qint64> promptTokens() const { return m_promptTokens; }
    // The engine's own figure when it gives one, else tokens over the time since the first byte.
    std::optional<double> tokensPerSecond(std::chrono::nanoseconds sinceFirstByte) const;

private:
    void inspectLine(QByteArrayView line);
    void inspectJson(QByteArrayView json);
    void inspectPrompt(QByteArrayView timings, QByteArrayView usage);

    QByteArray m_partialLine;
    std::optional<qint64> m_tokens;
    std::optional<qint64> m_promptTokens;
    std::optional<double> m_perSecond;
};

} // namespace switchyard
