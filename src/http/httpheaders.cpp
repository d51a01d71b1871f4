#include "http/httpheaders.h"

#include <QVarLengthArray>

#include <algorithm>
#include <cstring>

namespace switchyard::HttpHeaders {

namespace {

// ASCII only, as header names and tokens are: inline, where QByteArrayView::compare calls
// qstrnicmp, which was a twentieth of the relay's instructions per request.
bool equalsIgnoreCase(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c; };
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

bool isHopByHopOrFraming(QByteArrayView name)
{
    // By length first: a header is compared with at most two of the names.
    switch (name.size()) {
    case 2: return equalsIgnoreCase(name, "te");
    case 4: return equalsIgnoreCase(name, "host");
    case 6: return equalsIgnoreCase(name, "expect");
    case 7: return equalsIgnoreCase(name, "trailer") || equalsIgnoreCase(name, "upgrade");
    case 10: return equalsIgnoreCase(name, "connection") || equalsIgnoreCase(name, "keep-alive");
    case 14: return equalsIgnoreCase(name, "content-length");
    case 16: return equalsIgnoreCase(name, "proxy-connection");
    case 17: return equalsIgnoreCase(name, "transfer-encoding");
    case 18: return equalsIgnoreCase(name, "proxy-authenticate");
    case 19: return equalsIgnoreCase(name, "proxy-authorization");
    default: return false;
    }
}

} // namespace

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

QByteArray common(QByteArrayView bytes)
{
    // Spelled as sent: Node's fetch (the agents) writes names in lower case, curl, Python and
    // llama-server capitalise them. By length first, so a miss costs a switch.
    const auto pick = [bytes](const auto &words) {
        for (const QByteArray &w : words) {
            if (std::memcmp(w.constData(), bytes.data(), size_t(bytes.size())) == 0)
                return w;
        }
        return bytes.toByteArray();
    };
    switch (bytes.size()) {
    case 2: {
        static const QByteArray words[] = {QByteArrayLiteral("no")};
        return pick(words);
    }
    case 3: {
        static const QByteArray words[] = {QByteArrayLiteral("GET"), QByteArrayLiteral("*/*")};
        return pick(words);
    }
    case 4: {
        static const QByteArray words[] = {QByteArrayLiteral("POST"), QByteArrayLiteral("HEAD"),
                                        QByteArrayLiteral("Host"), QByteArrayLiteral("host")};
        return pick(words);
    }
    case 5: {
        static const QByteArray words[] = {QByteArrayLiteral("close")};
        return pick(words);
    }
    case 6: {
        static const QByteArray words[] = {QByteArrayLiteral("Accept"), QByteArrayLiteral("accept"),
                                        QByteArrayLiteral("Server")};
        return pick(words);
    }
    case 7: {
        static const QByteArray words[] = {QByteArrayLiteral("chunked")};
        return pick(words);
    }
    case 9: {
        static const QByteArray words[] = {QByteArrayLiteral("x-api-key"), QByteArrayLiteral("llama.cpp")};
        return pick(words);
    }
    case 10: {
        static const QByteArray words[] = {QByteArrayLiteral("User-Agent"), QByteArrayLiteral("user-agent"),
                                        QByteArrayLiteral("Connection"), QByteArrayLiteral("connection"),
                                        QByteArrayLiteral("Keep-Alive"), QByteArrayLiteral("keep-alive")};
        return pick(words);
    }
    case 12: {
        static const QByteArray words[] = {QByteArrayLiteral("Content-Type"),
                                        QByteArrayLiteral("content-type")};
        return pick(words);
    }
    case 13: {
        static const QByteArray words[] = {QByteArrayLiteral("Authorization"),
                                        QByteArrayLiteral("authorization"),
                                        QByteArrayLiteral("gzip, deflate")};
        return pick(words);
    }
    case 14: {
        static const QByteArray words[] = {QByteArrayLiteral("Content-Length"),
                                        QByteArrayLiteral("content-length")};
        return pick(words);
    }
    case 15: {
        static const QByteArray words[] = {QByteArrayLiteral("Accept-Encoding"),
                                        QByteArrayLiteral("accept-encoding"),
                                        QByteArrayLiteral("Accept-Language"),
                                        QByteArrayLiteral("accept-language")};
        return pick(words);
    }
    case 16: {
        static const QByteArray words[] = {QByteArrayLiteral("application/json")};
        return pick(words);
    }
    case 17: {
        static const QByteArray words[] = {QByteArrayLiteral("anthropic-version"),
                                        QByteArrayLiteral("Transfer-Encoding"),
                                        QByteArrayLiteral("X-Accel-Buffering"),
                                        QByteArrayLiteral("text/event-stream"),
                                        QByteArrayLiteral("gzip, deflate, br")};
        return pick(words);
    }
    case 18: {
        static const QByteArray words[] = {QByteArrayLiteral("timeout=5, max=100")};
        return pick(words);
    }
    case 27: {
        static const QByteArray words[] = {QByteArrayLiteral("Access-Control-Allow-Origin")};
        return pick(words);
    }
    case 31: {
        static const QByteArray words[] = {QByteArrayLiteral("application/json; charset=utf-8")};
        return pick(words);
    }
    default:
        return bytes.toByteArray();
    }
}

QByteArray value(const HeaderList &headers, QByteArrayView name)
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return h.second;
    }
    return {};
}

bool contains(const HeaderList &headers, QByteArrayView name)
{
    for (const auto &h : headers) {
        if (equalsIgnoreCase(h.first, name))
            return true;
    }
    return false;
}

bool hasToken(QByteArrayView value, QByteArrayView token)
{
    qsizetype start = 0;
    while (start <= value.size()) {
        qsizetype comma = value.indexOf(',', start);
        if (comma < 0)
            comma = value.size();
        if (equalsIgnoreCase(trimmed(value.sliced(start, comma - start)), token))
            return true;
        start = comma + 1;
    }
    return false;
}

HeaderList forwardable(const HeaderList &headers)
{
    // The names the Connection header lists, split once (llama-server sends just "close").
    QVarLengthArray<QByteArrayView, 4> named;
    const QByteArray connection = value(headers, "connection");
    for (qsizetype start = 0; start <= connection.size();) {
        qsizetype comma = connection.indexOf(',', start);
        if (comma < 0)
            comma = connection.size();
        const QByteArrayView token = trimmed(QByteArrayView(connection).sliced(start, comma - start));
        if (!token.isEmpty())
            named.append(token);
        start = comma + 1;
    }
    HeaderList out;
    out.reserve(headers.size());
    for (const auto &h : headers) {
        if (isHopByHopOrFraming(h.first))
            continue;
        if (std::any_of(named.cbegin(), named.cend(), [&](QByteArrayView n) { return equalsIgnoreCase(h.first, n); }))
            continue;
        out.append(h);
    }
    return out;
}

} // namespace switchyard::HttpHeaders
