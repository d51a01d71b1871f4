#pragma once

#include "fakeinferencerequest.h"

#include <QByteArray>
#include <QString>

namespace switchyard::fake {

// Numbers a finished generation reports (usage, timings, finish reason).
struct FakeGenerationStats
{
    int promptTokens = 0;
    int cachedTokens = 0;   // of promptTokens, reused from the slot's prompt cache
    int completionTokens = 0;
    bool hitLimit = true;   // "length"/"max_tokens"; false = the model stopped by itself
    double promptMs = 0;
    double predictedMs = 0;
};

// The bytes of one answer in one API's format, event by event, as llama.cpp
// frames them (transcripts 12-14, 21, 22). It knows nothing of time or sockets.
class FakeCompletionFormat final
{
public:
    FakeCompletionFormat() = default;
    FakeCompletionFormat(FakeApi api, const QString &model, bool includeUsage);

    FakeApi api() const { return m_api; }
    QByteArray contentType(bool stream) const;

    // Streams: opening events, one event per token, closing events, the final marker.
    QByteArray opening(int promptTokens) const;
    QByteArray token(int index, int promptTokens) const;
    QByteArray closing(const FakeGenerationStats &stats) const;
    QByteArray done() const; // "data: [DONE]\n\n" where the API has it, else empty
    QByteArray streamError(int code, const QString &message, const char *type) const;

    // A whole non-streamed answer.
    QByteArray body(const FakeGenerationStats &stats) const;

    // The deterministic text: token i is " tok<i>".
    static QString tokenText(int index);
    static QString text(int tokenCount);

private:
    QByteArray chatChunk(const QByteArray &choice, const QByteArray &extra = {}) const;
    QByteArray completionChunk(const QString &text, const char *finishReason, const QByteArray &extra) const;
    QByteArray nativeFinal(const FakeGenerationStats &stats, const QString &content) const;
    QByteArray responseObject(const char *status, const FakeGenerationStats *stats) const;
    QByteArray messageItem(const char *status, const QString &text) const;

    FakeApi m_api = FakeApi::ChatCompletions;
    QString m_model;
    QString m_id;
    QString m_itemId;
    qint64 m_created = 0;
    bool m_includeUsage = false;
};

} // namespace switchyard::fake
