#include "common/jsontext.h"

#include <QLocale>
#include <QString>

#include <cmath>

namespace switchyard::JsonText {

QByteArray quote(QStringView text)
{
    static const char hex[] = "0123456789abcdef";
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out += '"';
    for (const char c : utf8) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

QByteArray number(double value)
{
    if (!std::isfinite(value))
        return QByteArrayLiteral("null");
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return QByteArray::number(static_cast<qint64>(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

QByteArray real(double value)
{
    if (!std::isfinite(value))
        return QByteArrayLiteral("null");
    const double magnitude = std::fabs(value);
    const bool fixed = magnitude == 0.0 || (magnitude >= 1e-5 && magnitude < 1e15);
    QByteArray s = QByteArray::number(value, fixed ? 'f' : 'g', QLocale::FloatingPointShortest);
    if (!s.contains('.') && !s.contains('e'))
        s += ".0";
    return s;
}

} // namespace switchyard::JsonText
