#include "fakeslots.h"

#include "fakeerrors.h"
#include "fakeinferencerequest.h"
#include "fakeoptions.h"

#include "common/jsonwriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

namespace {

const QByteArray kMagic = QByteArrayLiteral("switchyard-fake-slot 1\n");

// common/common.cpp fs_validate_filename, the parts a test can meet.
bool validFilename(const QString &name)
{
    if (name.isEmpty() || name.size() > 255 || name.startsWith(u'.') || name.endsWith(u'.')
        || name.endsWith(u' ') || name.startsWith(u' '))
        return false;
    for (const QChar c : name) {
        if (c.unicode() < 0x20 || QStringView(u"/\\:*?\"<>|").contains(c))
            return false;
    }
    return true;
}

FakeSlots::Answer error(int status, const QString &message)
{
    return {status, fakeerrors::body(status, message, fakeerrors::typeForStatus(status))};
}

} // namespace

FakeSlots::FakeSlots(const FakeOptions &options)
    : m_options(options)
{
}

QList<FakeSlots::Slot> &FakeSlots::slotsOf(const QString &model)
{
    QList<Slot> &list = m_slots[model];
    if (list.isEmpty())
        list.resize(qMax(1, m_options.slotCount));
    return list;
}

FakeSlots::Taken FakeSlots::take(const QString &model, const FakeInferenceRequest &request)
{
    QList<Slot> &list = slotsOf(model);
    int best = -1;
    int bestCached = -1;
    for (int i = 0; i < list.size(); ++i) {
        const Slot &s = list.at(i);
        if (s.processing)
            continue;
        int k = 0;
        int cached = 0;
        while (k < s.parts.size() && k < request.promptParts.size() && s.parts.at(k) == request.promptParts.at(k))
            cached += request.partTokens.at(k++);
        if (k > 0 && k == request.promptParts.size())
            cached = request.promptTokens;
        cached = qMin(cached, qMax(0, request.promptTokens - 1));
        // The most reused prompt wins; among equals the least recently used slot.
        if (best < 0 || cached > bestCached || (cached == bestCached && s.lastUsed < list.at(best).lastUsed)) {
            best = i;
            bestCached = cached;
        }
    }
    if (best < 0)
        best = 0;   // all busy: llama.cpp would queue; the fake shares
    Slot &s = list[best];
    s.parts = request.promptParts;
    s.partTokens = request.partTokens;
    s.promptTokens = request.promptTokens;
    s.tokens = request.promptTokens;
    s.cached = qMax(0, bestCached);
    s.processed = request.promptTokens - s.cached;
    s.decoded = 0;
    s.taskId = m_nextTask++;
    s.processing = true;
    s.lastUsed = ++m_useCounter;
    return {best, s.cached};
}

void FakeSlots::finish(const QString &model, int slot, int generatedTokens)
{
    QList<Slot> &list = slotsOf(model);
    if (slot < 0 || slot >= list.size())
        return;
    Slot &s = list[slot];
    s.processing = false;
    s.decoded = generatedTokens;
    s.tokens = s.promptTokens + generatedTokens;
}

QByteArray FakeSlots::listJson(const QString &model, int contextSize) const
{
    const QList<Slot> list = m_slots.value(model, QList<Slot>(qMax(1, m_options.slotCount)));
    JsonWriter json;
    json.beginArray();
    for (int i = 0; i < list.size(); ++i) {
        const Slot &s = list.at(i);
        json.beginObject();
        json.key("id").integer(i).key("n_ctx").integer(contextSize);
        json.key("speculative").boolean(false).key("is_processing").boolean(s.processing);
        if (s.taskId >= 0) {
            // As llama.cpp: n_prompt_tokens is what the slot's cache holds (prompt + generated).
            json.key("id_task").integer(int(s.taskId));
            json.key("n_prompt_tokens").integer(s.tokens);
            json.key("n_prompt_tokens_processed").integer(s.processed);
            json.key("n_prompt_tokens_cache").integer(s.cached);
            json.key("next_token").beginArray().beginObject();
            json.key("has_next_token").boolean(s.processing).key("has_new_line").boolean(false);
            json.key("n_remain").integer(-1).key("n_decoded").integer(s.decoded);
            json.endObject().endArray();
        }
        json.endObject();
    }
    json.endArray();
    return json.take();
}

FakeSlots::Answer FakeSlots::action(const QString &model, const QString &idText, const QString &actionName,
                                    const QByteArray &body, int contextSize)
{
    if (m_options.slotSavePath.isEmpty())
        return error(501, u"This server does not support slots action. Start it with `--slot-save-path`"_s);
    bool ok = false;
    const int id = idText.toInt(&ok);
    if (!ok)
        return error(400, u"Invalid slot ID"_s);
    if (actionName != u"save" && actionName != u"restore" && actionName != u"erase")
        return error(400, u"Invalid action"_s);
    QList<Slot> &list = slotsOf(model);
    const QString filename = QJsonDocument::fromJson(body).object().value(u"filename"_s).toString();
    if (actionName != u"erase" && !validFilename(filename))
        return error(400, u"Invalid filename"_s);
    if (id >= list.size() && actionName == u"save") {
        // The real server saves a slot number it does not have with 200 (seen with llama.cpp
        // de3ff81: slot 99 of 4); here it is an empty slot.
        Slot none;
        return save(none, id, model, filename);
    }
    if (id < 0 || id >= list.size())
        return error(400, u"Invalid slot ID"_s);
    Slot &slot = list[id];
    if (actionName == u"save")
        return save(slot, id, model, filename);
    if (actionName == u"restore")
        return restore(slot, id, model, filename, contextSize);
    const int erased = slot.tokens;
    slot = Slot{};
    JsonWriter json;
    json.beginObject().key("id_slot").integer(id).key("n_erased").integer(erased).endObject();
    return {200, json.take()};
}

FakeSlots::Answer FakeSlots::save(Slot &slot, int id, const QString &model, const QString &filename)
{
    QJsonObject head{{u"model"_s, model}, {u"tokens"_s, slot.tokens}, {u"parts"_s, QJsonArray::fromStringList(slot.parts)}};
    QJsonArray partTokens;
    for (int n : std::as_const(slot.partTokens))
        partTokens.append(n);
    head.insert(u"part_tokens"_s, partTokens);
    QByteArray bytes = kMagic + QJsonDocument(head).toJson(QJsonDocument::Compact) + '\n';
    const qint64 size = qMax<qint64>(bytes.size(), qint64(slot.tokens) * m_options.slotBytesPerToken);
    bytes.append(QByteArray(size - bytes.size(), '\0'));
    QSaveFile file(QDir(m_options.slotSavePath).filePath(filename));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return error(500, u"Unable to save slot"_s);
    JsonWriter json;
    json.beginObject().key("id_slot").integer(id).key("filename").string(filename);
    json.key("n_saved").integer(slot.tokens).key("n_written").integer(bytes.size());
    json.key("timings").beginObject().key("save_ms").real(double(m_options.slotSaveDelay.count())).endObject();
    json.endObject();
    return {200, json.take()};
}

FakeSlots::Answer FakeSlots::restore(Slot &slot, int id, const QString &model, const QString &filename,
                                     int contextSize)
{
    QFile file(QDir(m_options.slotSavePath).filePath(filename));
    QByteArray bytes;
    if (file.open(QIODevice::ReadOnly))
        bytes = file.readAll();
    const qsizetype eol = bytes.indexOf('\n', kMagic.size());
    const QJsonObject head = bytes.startsWith(kMagic) && eol > 0
        ? QJsonDocument::fromJson(bytes.mid(kMagic.size(), eol - kMagic.size())).object()
        : QJsonObject();
    // A file of another model does not load into this one's KV cache.
    if (head.value(u"model"_s).toString() != model) {
        slot = Slot{};
        return error(400, u"Unable to restore slot: No available space in KV cache or invalid slot save file"_s);
    }
    const int tokens = head.value(u"tokens"_s).toInt();
    if (tokens > contextSize) {
        slot = Slot{};
        return error(400, u"Unable to restore slot: Restored prompt does not fit in the slot context"_s);
    }
    // A file cut short: llama.cpp (de3ff81) reads the KV state its header announces and aborts
    // on GGML_ASSERT(nread <= state_size); the client gets no answer (status 0: dropped).
    if (bytes.size() < qint64(tokens) * m_options.slotBytesPerToken) {
        slot = Slot{};
        return {0, QByteArrayLiteral("GGML_ASSERT(nread <= state_size) failed")};
    }
    Slot restored;
    for (const QJsonValue &v : head.value(u"parts"_s).toArray())
        restored.parts.append(v.toString());
    for (const QJsonValue &v : head.value(u"part_tokens"_s).toArray())
        restored.partTokens.append(v.toInt());
    restored.tokens = tokens;
    restored.promptTokens = tokens;
    // llama.cpp's /slots shows a restored slot's numbers only once a task ran on it.
    restored.taskId = -1;
    restored.lastUsed = ++m_useCounter;
    slot = restored;
    JsonWriter json;
    json.beginObject().key("id_slot").integer(id).key("filename").string(filename);
    json.key("n_restored").integer(tokens).key("n_read").integer(bytes.size());
    json.key("timings").beginObject().key("restore_ms").real(double(m_options.slotRestoreDelay.count())).endObject();
    json.endObject();
    return {200, json.take()};
}

void FakeSlots::clear(const QString &model)
{
    m_slots.remove(model);
}

void FakeSlots::clearAll()
{
    m_slots.clear();
}

} // namespace switchyard::fake
