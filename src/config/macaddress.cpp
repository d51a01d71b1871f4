#include "config/macaddress.h"

namespace switchyard {

std::optional<QByteArray> parseMacAddress(const QString &text)
{
    constexpr int Bytes = 6;
    const QString t = text.trimmed();
    // Six pairs of hex digits, joined by one kind of separator.
    if (t.size() != 17)
        return std::nullopt;
    const QChar separator = t.at(2);
    if (separator != u':' && separator != u'-')
        return std::nullopt;
    QByteArray mac;
    for (int i = 0; i < Bytes; ++i) {
        if (i > 0 && t.at(i * 3 - 1) != separator)
            return std::nullopt;
        bool ok = false;
        const QStringView pair = QStringView(t).mid(i * 3, 2);
        const uint byte = pair.toUInt(&ok, 16);
        if (!ok || pair.startsWith(u'+') || pair.startsWith(u'-'))
            return std::nullopt;
        mac.append(char(byte));
    }
    return mac;
}

} // namespace switchyard
