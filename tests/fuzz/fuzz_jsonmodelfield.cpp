// The "model" scanner against Qt's own JSON parser: whenever Qt reads a top-level string
// "model", the scanner must find the same value, and replacing it must keep the JSON valid.
#include "relay/jsonmodelfield.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    // JSON forbids raw control characters in strings (llama.cpp's parser refuses them, and so does
    // the scanner); Qt's parser lets them through, so it is no oracle for inputs that have any.
    for (const char c : input) {
        if (static_cast<unsigned char>(c) < 0x20)
            return 0;
    }
    const JsonModelField field = JsonModelField::find(input);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(input, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return 0;
    const QJsonValue model = doc.object().value(QLatin1String("model"));
    if (!model.isString())
        return 0;
    if (input.count("model") != 1)
        return 0;   // more than one candidate key: which one wins is the parsers' choice, not ours
    if (field.result != JsonModelField::Result::Found || field.value != model.toString())
        abort();
    const QByteArray replaced = field.replaced(input, QStringLiteral("key\"\\\n\u00e9"));
    const QJsonDocument after = QJsonDocument::fromJson(replaced);
    if (!after.isObject() || after.object().value(QLatin1String("model")).toString() != QStringLiteral("key\"\\\n\u00e9"))
        abort();
    return 0;
}
