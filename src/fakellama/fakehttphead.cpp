#include "fakehttphead.h"

namespace switchyard::fake {

namespace {

const QByteArray kCommon = QByteArrayLiteral("Server: llama.cpp\r\nAccess-Control-Allow-Origin: \r\n");
const QByteArray kKeepAlive = QByteArrayLiteral("Keep-Alive: timeout=5, max=100\r\n");
const QByteArray kClose = QByteArrayLiteral("Connection: close\r\n");
const QByteArray kNoBuffering = QByteArrayLiteral("X-Accel-Buffering: no\r\n");
const QByteArray kChunked = QByteArrayLiteral("Transfer-Encoding: chunked\r\n");

QByteArray contentTypeLine(const QByteArray &type)
{
    return "Content-Type: " + type + "\r\n";
}

} // namespace

const QByteArray FakeHttpHead::JsonType = QByteArrayLiteral("application/json; charset=utf-8");
const QByteArray FakeHttpHead::EventStreamType = QByteArrayLiteral("text/event-stream");

QByteArray FakeHttpHead::fixed(int status, const QByteArray &contentType, qsizetype contentLength,
                               Connection connection)
{
    return statusLine(status) + kCommon + contentTypeLine(contentType) + "Content-Length: "
        + QByteArray::number(contentLength) + "\r\n"
        + (connection == Connection::KeepAlive ? kKeepAlive : kClose) + "\r\n";
}

QByteArray FakeHttpHead::stream(const QByteArray &contentType)
{
    return statusLine(200) + kCommon + kNoBuffering + contentTypeLine(contentType) + kChunked + kKeepAlive
        + "\r\n";
}

QByteArray FakeHttpHead::routed(int status, const QByteArray &contentType)
{
    return statusLine(status) + kCommon + kClose + kNoBuffering + contentTypeLine(contentType) + kChunked
        + kKeepAlive + "\r\n";
}

QByteArray FakeHttpHead::routedError(int status)
{
    return statusLine(status) + kCommon + kClose + kNoBuffering + contentTypeLine(JsonType) + kChunked + kClose
        + "\r\n";
}

QByteArray FakeHttpHead::options()
{
    return statusLine(200) + kCommon
        + "Access-Control-Allow-Credentials: true\r\nAccess-Control-Allow-Methods: GET, POST\r\n"
          "Access-Control-Allow-Headers: *\r\nContent-Type: text/html\r\nContent-Length: 0\r\n"
        + kKeepAlive + "\r\n";
}

QByteArray FakeHttpHead::statusLine(int status)
{
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
}

QByteArray FakeHttpHead::reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 423: return "Locked";
    case 424: return "Failed Dependency";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Internal Server Error"; // what cpp-httplib says for codes it does not know
    }
}

} // namespace switchyard::fake
