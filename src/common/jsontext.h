#pragma once

#include <QByteArray>
#include <QStringView>

namespace switchyard::JsonText {

// The one JSON string escaper: a quoted string, UTF-8 kept as it is, the two-character escapes
// JSON has and \u00XX for the other control characters (what llama.cpp's nlohmann::json writes).
QByteArray quote(QStringView text);

// A number as the shortest digits that read back to the same double; a whole number below 2^53
// without a fraction; NaN and infinities as null (JSON has no spelling for them).
QByteArray number(double value);

// A double as nlohmann::json writes one (llama.cpp's replies): the shortest digits that read back,
// always with a fraction or an exponent ("1.0", not "1"); NaN and infinities as null.
QByteArray real(double value);

} // namespace switchyard::JsonText
