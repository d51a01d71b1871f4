#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard::fake {

struct FakeInferenceRequest;
struct FakeOptions;

// The slots of every model (llama-server's prompt caches) and the slot API on them:
// GET /slots, POST /slots/{id}?action=save|restore|erase, in the real server's shapes
// (tools/server/server-context.cpp, docs/PROMPT_CACHES.md). A slot remembers the prompt it
// last served as its parts (messages, system, prompt) with their token counts; a new prompt
// reuses the leading parts it shares with a slot, as llama.cpp's cache matching does.
// A save writes a real file of n_tokens * slotBytesPerToken bytes under the save path.
class FakeSlots final
{
public:
    explicit FakeSlots(const FakeOptions &options);

    // A request starts on `model`: the slot it takes and how many of its prompt tokens that
    // slot holds already (never all of them: the last one is always evaluated).
    struct Taken
    {
        int slot = 0;
        int cachedTokens = 0;
    };
    Taken take(const QString &model, const FakeInferenceRequest &request);
    void finish(const QString &model, int slot, int generatedTokens);

    struct Answer
    {
        int status = 200;   // 0: no answer, the connection is dropped (the real server aborted)
        QByteArray body;
    };
    QByteArray listJson(const QString &model, int contextSize) const;
    // POST /slots/{idText}?action=... with `body`; contextSize is the slot's n_ctx.
    Answer action(const QString &model, const QString &idText, const QString &actionName, const QByteArray &body,
                  int contextSize);
    bool isSave(const QString &actionName) const { return actionName == u"save"; }

    void clear(const QString &model);   // its child server went away
    void clearAll();                    // the engine went away

private:
    struct Slot
    {
        QStringList parts;
        QList<int> partTokens;
        int tokens = 0;             // prompt + generated, what a save writes
        int promptTokens = 0;
        int processed = 0;
        int cached = 0;
        int decoded = 0;
        qint64 taskId = -1;
        bool processing = false;
        qint64 lastUsed = 0;
    };
    QList<Slot> &slotsOf(const QString &model);
    Answer save(Slot &slot, int id, const QString &model, const QString &filename);
    Answer restore(Slot &slot, int id, const QString &model, const QString &filename, int contextSize);

    const FakeOptions &m_options;
    QHash<QString, QList<Slot>> m_slots;
    qint64 m_nextTask = 0;
    qint64 m_useCounter = 0;
};

} // namespace switchyard::fake
