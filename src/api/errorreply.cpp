#include "api/errorreply.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard::ErrorReply {

using namespace Qt::StringLiterals;

ApiShape shapeForPath(const QString &path)
{
    if (path.startsWith("/v1/messages"_L1))
        return ApiShape::Anthropic;
    if (path.startsWith("/v1/responses"_L1))
        return ApiShape::Responses;
    return ApiShape::OpenAI;
}

QString typeFor(ApiShape shape, int status)
{
    if (shape == ApiShape::Anthropic) {
        switch (status) {
        case 400: return u"invalid_request_error"_s;
        case 401: return u"authentication_error"_s;
        case 403: return u"permission_error"_s;
        case 404: return u"not_found_error"_s;
        case 413: return u"request_too_large"_s;
        case 429: return u"rate_limit_error"_s;
        // Named after the status, not "api_error": inside a stream the type is all Claude Code
        // (2.1.337, measured) goes by, and it sends the request again, three more times, after
        // an "api_error" or "overloaded_error" event; after any other type it stops. A reply
        // with its status is one request whatever the type.
        case 423: return u"locked_error"_s;
        case 424: return u"failed_dependency_error"_s;
        default: return status < 500 ? u"invalid_request_error"_s : u"api_error"_s;
        }
    }
    switch (status) {
    case 400:
    case 413: return u"invalid_request_error"_s;
    case 401: return u"authentication_error"_s;
    case 403: return u"permission_error"_s;
    case 404: return u"not_found_error"_s;
    // Named after the status, not "unavailable_error": opencode (1.18.33) sends a turn again
    // when an error inside a stream says "unavailable" (docs/CLIENTS.md).
    case 423: return u"locked_error"_s;
    case 424: return u"failed_dependency_error"_s;
    default: return status >= 500 ? u"server_error"_s : u"invalid_request_error"_s;
    }
}

namespace {

QJsonObject errorObject(ApiShape shape, int status, const QString &message)
{
    if (shape == ApiShape::Anthropic) {
        return QJsonObject{{"type"_L1, "error"_L1},
                           {"error"_L1, QJsonObject{{"type"_L1, typeFor(shape, status)},
                                                    {"message"_L1, message},
                                                    {"source"_L1, "switchyard"_L1}}}};
    }
    return QJsonObject{{"error"_L1, QJsonObject{{"message"_L1, message},
                                                {"type"_L1, typeFor(shape, status)},
                                                {"code"_L1, status},
                                                {"source"_L1, "switchyard"_L1}}}};
}

} // namespace

QByteArray body(ApiShape shape, int status, const QString &message)
{
    return QJsonDocument(errorObject(shape, status, message)).toJson(QJsonDocument::Compact);
}

HeaderList headers()
{
    return {{"Content-Type", "application/json; charset=utf-8"}, {"X-Should-Retry", "false"}};
}

QByteArray sseEvent(ApiShape shape, int status, const QString &message)
{
    const QByteArray json = body(shape, status, message);
    switch (shape) {
    case ApiShape::Anthropic:
        return "event: error\ndata: " + json + "\n\n";
    case ApiShape::Responses: {
        const QJsonObject o{{"type"_L1, "error"_L1}, {"code"_L1, typeFor(shape, status)},
                            {"message"_L1, message}, {"param"_L1, QJsonValue()}};
        // Codex (0.169) reads no "error" event: it ends a stream without response.completed as a
        // dropped one and sends the request again, five times, unless a response.failed event
        // came whose code it does not retry. "invalid_prompt" is the one of those whose message
        // it shows as it is; a 5xx keeps "server_error", which it does retry.
        const QJsonObject failed{
            {"type"_L1, "response.failed"_L1},
            {"response"_L1, QJsonObject{{"object"_L1, "response"_L1}, {"status"_L1, "failed"_L1},
                                        {"error"_L1, QJsonObject{{"code"_L1, status >= 500 ? "server_error"_L1 : "invalid_prompt"_L1},
                                                                 {"message"_L1, message}}}}}};
        return "event: error\ndata: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n"
            + "event: response.failed\ndata: " + QJsonDocument(failed).toJson(QJsonDocument::Compact) + "\n\n";
    }
    case ApiShape::OpenAI:
        // The 200 is out, so the status in the event is read only by the client's retry logic:
        // opencode (1.18.33) sends the whole turn again for a 5xx or 429 number (or "server_error")
        // in it, and a stream that failed is not fixed by sending the turn again.
        return "data: " + body(shape, status >= 500 || status == 429 ? 424 : status, message) + "\n\n";
    }
    return {};
}

} // namespace switchyard::ErrorReply
