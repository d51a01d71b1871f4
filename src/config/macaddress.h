#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace switchyard {

// "aa:bb:cc:dd:ee:ff" or "AA-BB-CC-DD-EE-FF": the six bytes; nullopt for anything else. The
// config reads a host's wake MAC with it, and WakeOnLan builds its packet from the bytes.
std::optional<QByteArray> parseMacAddress(const QString &text);

} // namespace switchyard
