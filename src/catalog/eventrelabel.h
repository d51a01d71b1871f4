#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

// One event of a host's /models/sse as the relay's merged feed says it: "model" becomes the alias
// ("<host>-*" for "*" or none) and "proxy":{"host","key"} is added. Returns the whole SSE frame
// ("data: {...}\n\n"), or nothing for input that is not a JSON object. Pure, so it is fuzzed.
QByteArray relabelModelEvent(const QString &host, const QByteArray &dataJson);

} // namespace switchyard
