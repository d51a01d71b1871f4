// Upstream error bodies on /v1/messages: a rewrite, when there is one, is a valid Anthropic error.
#include "relay/errorrewrite.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int status = 400 + data[0] % 200;
    const QByteArray body(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    const auto rewritten = ErrorRewrite::forAnthropic(status, body);
    if (!rewritten)
        return 0;
    const QJsonObject o = QJsonDocument::fromJson(rewritten->body).object();
    if (rewritten->status != 400 || o.value(QLatin1String("type")).toString() != QLatin1String("error")
        || o.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString().isEmpty())
        abort();
    return 0;
}
