#pragma once

#include <QByteArray>
#include <QString>

// Error bodies in llama.cpp's shape: {"error":{"code":C,"message":M,"type":T}}.
namespace switchyard::fake::fakeerrors {

QByteArray body(int code, const QString &message, const char *type);
QByteArray invalidRequest(const QString &message); // 400 invalid_request_error
QByteArray serverError(const QString &message);    // 500 server_error
QByteArray unavailable(const QString &message);    // 503 unavailable_error
// cpp-httplib replaces every 404 body with this one (note the other key order).
QByteArray notFound();
const char *typeForStatus(int status);

} // namespace switchyard::fake::fakeerrors
