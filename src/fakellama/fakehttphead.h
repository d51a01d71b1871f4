#pragma once

#include <QByteArray>

namespace switchyard::fake {

// Status line and headers, in the order and spelling the real llama-server
// (cpp-httplib) writes them; see /work/shared/llama-transcripts.
class FakeHttpHead final
{
public:
    enum class Connection { KeepAlive, Close };

    static const QByteArray JsonType;        // application/json; charset=utf-8
    static const QByteArray EventStreamType; // text/event-stream

    // The server's own answers with a Content-Length (health, /models, load,
    // the router's errors). Errors close: "Connection: close", no Keep-Alive.
    static QByteArray fixed(int status, const QByteArray &contentType, qsizetype contentLength,
                            Connection connection);
    // A stream the server itself writes: /models/sse, a single-model server's completions.
    static QByteArray stream(const QByteArray &contentType);
    // An answer the router proxies from a model's own server: always chunked,
    // and the router closes the connection after it.
    static QByteArray routed(int status, const QByteArray &contentType);
    // A model server's own error as the router proxies it (context overflow,
    // template errors): Connection: close twice and no Keep-Alive, as recorded.
    static QByteArray routedError(int status);

    // The answer to a CORS preflight.
    static QByteArray options();

    static QByteArray statusLine(int status);
    static QByteArray reasonPhrase(int status);
};

} // namespace switchyard::fake
