#pragma once

#include <QByteArrayView>
#include <QJsonObject>
#include <QLatin1StringView>

namespace switchyard::SseLines {

// The lines of an engine's event stream the relay reads as they pass.
inline constexpr QByteArrayView EventPrefix = "event: ";
inline constexpr QByteArrayView DataPrefix = "data: ";
// llama.cpp's /v1/responses and /v1/messages streams name their error event, whose data is the
// error object itself: "event: error" then "data: {"code":500,...}".
inline constexpr QByteArrayView ErrorEventLine = "event: error";

// The error object of an error event's data: {"error":{...}} on chat completions, the object
// itself in a named error event.
inline QJsonObject errorOf(const QJsonObject &data)
{
    const QJsonValue nested = data.value(QLatin1StringView("error"));
    return nested.isObject() ? nested.toObject() : data;
}

} // namespace switchyard::SseLines
