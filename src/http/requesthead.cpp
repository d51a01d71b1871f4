#include "http/requesthead.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

namespace switchyard {

namespace {

// RFC 9110 tchar: what a method and a header name may be made of.
constexpr std::array<bool, 256> TokenChars = [] {
    std::array<bool, 256> table{};
    for (int c = '0'; c <= '9'; ++c)
        table[size_t(c)] = true;
    for (int c = 'a'; c <= 'z'; ++c) {
        table[size_t(c)] = true;
        table[size_t(c - 'a' + 'A')] = true;
    }
    for (const char c : std::string_view("!#$%&'*+-.^_`|~"))
        table[size_t(static_cast<unsigned char>(c))] = true;
    return table;
}();

bool isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (!TokenChars[static_cast<unsigned char>(c)])
            return false;
    }
    return true;
}

// The next "\r\n" at or after from, or -1: memchr finds each '\n', which is cheaper than a
// two-byte substring search (a head has a dozen lines and is parsed for every request).
qsizetype indexOfCrLf(QByteArrayView text, qsizetype from)
{
    const char *begin = text.data();
    const char *end = begin + text.size();
    for (const char *p = begin + from; p < end;) {
        const auto *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl)
            return -1;
        if (nl > begin + from && nl[-1] == '\r')
            return nl - 1 - begin;
        p = nl + 1;
    }
    return -1;
}

// Where the blank line that ends the head starts ("\r\n\r\n"), or -1.
qsizetype indexOfHeadEnd(QByteArrayView text)
{
    const char *begin = text.data();
    const char *end = begin + text.size();
    for (const char *p = begin; p < end;) {
        const auto *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl)
            return -1;
        if (nl - begin >= 3 && nl[-1] == '\r' && nl[-2] == '\n' && nl[-3] == '\r')
            return nl - 3 - begin;
        p = nl + 1;
    }
    return -1;
}

// A target or header value must not hold controls (a bare CR or LF would split a header when
// it is forwarded; NUL ends strings) and a target no spaces either.
bool hasControl(QByteArrayView text, bool spaceToo)
{
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && u != '\t') || u == 0x7f || (spaceToo && (u == ' ' || u == '\t')))
            return true;
    }
    return false;
}

} // namespace

bool RequestHead::keepAlive() const
{
    const QByteArray connection = HttpHeaders::value(headers, "connection");
    if (minorVersion == 0)
        return HttpHeaders::hasToken(connection, "keep-alive");
    return !HttpHeaders::hasToken(connection, "close");
}

RequestHead RequestHead::parse(QByteArrayView data, qsizetype maxHeadBytes)
{
    RequestHead head;
    const auto invalid = [&head](const char *why) {
        head.state = State::Invalid;
        head.error = why;
        return head;
    };
    const qsizetype end = indexOfHeadEnd(data);
    if (end < 0)
        return data.size() > maxHeadBytes ? invalid("the head is over the size limit") : head;
    head.headLength = end + 4;
    if (head.headLength > maxHeadBytes)
        return invalid("the head is over the size limit");

    const QByteArrayView block = data.first(end);
    qsizetype lineEnd = indexOfCrLf(block, 0);
    if (lineEnd < 0)
        lineEnd = block.size();
    const QByteArrayView startLine = block.first(lineEnd);
    const qsizetype sp1 = startLine.indexOf(' ');
    const qsizetype sp2 = startLine.lastIndexOf(' ');
    if (sp1 <= 0 || sp2 <= sp1)
        return invalid("the request line is not \"METHOD target HTTP/1.x\"");
    const QByteArrayView method = startLine.first(sp1);
    const QByteArrayView target = startLine.sliced(sp1 + 1, sp2 - sp1 - 1);
    if (!isToken(method))
        return invalid("the method is not a token");
    if (target.isEmpty() || hasControl(target, true))
        return invalid("the target holds a space or a control character");
    // Only a method and target that passed are kept: a refusal names the request by them.
    head.method = HttpHeaders::common(method);
    head.target = target.toByteArray();
    const QByteArrayView version = startLine.sliced(sp2 + 1);
    if (version == "HTTP/1.1")
        head.minorVersion = 1;
    else if (version == "HTTP/1.0")
        head.minorVersion = 0;
    else
        return invalid("the version is neither HTTP/1.1 nor HTTP/1.0");

    qsizetype pos = lineEnd + 2;
    head.headers.reserve(16);   // agents send 5 to 12: no regrowth on the way
    while (pos < block.size()) {
        qsizetype next = indexOfCrLf(block, pos);
        if (next < 0)
            next = block.size();
        const QByteArrayView line = block.sliced(pos, next - pos);
        const qsizetype colon = line.indexOf(':');
        // "Name : value" and folded lines are refused (RFC 9112 5.1, 5.2): a proxy that reads
        // a header differently from the server behind it is how requests get smuggled.
        if (colon <= 0 || !isToken(line.first(colon)))
            return invalid("a header line is not \"Name: value\" (no space before the colon, no folding)");
        if (hasControl(line.sliced(colon + 1), false))
            return invalid("a header value holds a control character");
        head.headers.append({HttpHeaders::common(line.first(colon)),
                             HttpHeaders::common(HttpHeaders::trimmed(line.sliced(colon + 1)))});
        pos = next + 2;
    }

    // One length, given once (or repeated alike), digits only; and not with Transfer-Encoding.
    QByteArray length;
    bool hasLength = false;
    for (const auto &[name, value] : std::as_const(head.headers)) {
        if (name.compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        if (hasLength && value != length)
            return invalid("two different Content-Length headers");
        hasLength = true;
        length = value;
    }
    if (hasLength) {
        bool ok = !length.isEmpty() && std::all_of(length.cbegin(), length.cend(), [](char c) { return c >= '0' && c <= '9'; });
        head.contentLength = ok ? length.toLongLong(&ok) : -1;
        if (!ok)
            return invalid("Content-Length is not a plain number");
    }
    const QByteArray transferEncoding = HttpHeaders::value(head.headers, "transfer-encoding");
    if (!transferEncoding.isEmpty()) {
        // Only plain chunked framing; anything else has no length this server could trust.
        if (hasLength)
            return invalid("both Content-Length and Transfer-Encoding");
        if (transferEncoding.trimmed().compare("chunked", Qt::CaseInsensitive) != 0)
            return invalid("a Transfer-Encoding other than chunked");
        head.chunked = true;
    }
    head.expectContinue = HttpHeaders::value(head.headers, "expect").compare("100-continue", Qt::CaseInsensitive) == 0;
    head.state = State::Complete;
    return head;
}

} // namespace switchyard
