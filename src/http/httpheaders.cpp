#include "http/httpheaders.h"

namespace switchyard::HttpHeaders {

namespace {

bool equalsIgnoreCase(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

bool isHopByHopOrFraming(QByteArrayView name)
{
    static constexpr QByteArrayView dropped[] = {
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate",
        "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade",
        "content-length", "host", "expect",
    };
    for (QByteArrayView d : dropped) {
        if (equalsIgnoreCase(name, d))
            return true;
    }
    return false;
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
    const QByteArray connection = value(headers, "connection");
    HeaderList out;
    out.reserve(headers.size());
    for (const auto &h : headers) {
        if (isHopByHopOrFraming(h.first))
            continue;
        if (!connection.isEmpty() && hasToken(connection, h.first))
            continue;
        out.append(h);
    }
    return out;
}

} // namespace switchyard::HttpHeaders
