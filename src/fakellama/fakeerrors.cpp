#include "fakeerrors.h"

#include "common/jsonwriter.h"

using namespace Qt::StringLiterals;

namespace switchyard::fake::fakeerrors {

QByteArray body(int code, const QString &message, const char *type)
{
    JsonWriter json;
    json.beginObject().key("error").beginObject();
    json.key("code").integer(code).key("message").string(message).key("type").string(type);
    json.endObject().endObject();
    return json.take();
}

QByteArray invalidRequest(const QString &message)
{
    return body(400, message, "invalid_request_error");
}

QByteArray serverError(const QString &message)
{
    return body(500, message, "server_error");
}

QByteArray unavailable(const QString &message)
{
    return body(503, message, "unavailable_error");
}

QByteArray notFound()
{
    return QByteArrayLiteral(R"({"error":{"message":"File Not Found","type":"not_found_error","code":404}})");
}

const char *typeForStatus(int status)
{
    switch (status) {
    case 400: return "invalid_request_error";
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 501: return "not_supported_error";
    case 503: return "unavailable_error";
    default: return "server_error";
    }
}

} // namespace switchyard::fake::fakeerrors
