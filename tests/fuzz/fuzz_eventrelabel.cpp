// Host model events: the relabelled frame is one SSE event whose JSON names the alias; a load's
// progress read from one is in range and survives the trip through /admin/hosts' JSON.
#include "catalog/eventrelabel.h"
#include "catalog/loadprogress.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const std::optional<ProgressEvent> e = parseProgressEvent(input)) {
        const LoadProgress &p = e->progress;
        if (e->model.isEmpty() || (p.value && (*p.value < 0 || *p.value > 1)) || p.downloadDone < -1)
            abort();
        if (LoadProgress::fromJson(p.toJson()) != p)
            abort();
        LoadProgress known;
        e->applyTo(&known);
    }
    const QByteArray frame = relabelModelEvent(QStringLiteral("h1"), input);
    if (frame.isEmpty())
        return 0;
    if (!frame.startsWith("data: ") || !frame.endsWith("\n\n") || frame.count('\n') != 2)
        abort();   // a newline inside would split the event or inject another
    const QJsonObject o = QJsonDocument::fromJson(frame.mid(6)).object();
    if (!o.value(QLatin1String("model")).toString().startsWith(QLatin1String("h1-")))
        abort();
    return 0;
}
