// Host model events: the relabelled frame is one SSE event whose JSON names the alias.
#include "catalog/eventrelabel.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
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
