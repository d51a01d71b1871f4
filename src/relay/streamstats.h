#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <chrono>
#include <optional>

namespace switchyard {

// Token counts and generation speed from what an answer carries: llama.cpp's "timings"
// (predicted_n, predicted_per_second) or "usage" (completion_tokens / Anthropic and Responses API
// output_tokens; the Responses API's in response.completed's "response").
// Only lines that mention one of those words are parsed, so the stream's hot path stays a scan.
class StreamStats
{
public:
    void feed(QByteArrayView chunk);
    // For a non-streamed answer: the whole body at once.
    void feedWholeBody(QByteArrayView body);

    std::optional<qint64> tokens() const { return m_tokens; }
    // The engine's own figure when it gives one, else tokens over the time since the first byte.
    std::optional<double> tokensPerSecond(std::chrono::nanoseconds sinceFirstByte) const;

private:
    void inspectLine(QByteArrayView line);
    void inspectJson(QByteArrayView json);

    QByteArray m_partialLine;
    std::optional<qint64> m_tokens;
    std::optional<double> m_perSecond;
};

} // namespace switchyard
