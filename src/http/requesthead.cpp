#include "http/requesthead.h"

namespace switchyard {

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
    const qsizetype end = data.indexOf("\r\n\r\n");
    if (end < 0) {
        head.state = data.size() > maxHeadBytes ? State::Invalid : State::Incomplete;
        return head;
    }
    head.headLength = end + 4;
    if (head.headLength > maxHeadBytes) {
        head.state = State::Invalid;
        return head;
    }

    const QByteArrayView block = data.first(end);
    qsizetype lineEnd = block.indexOf("\r\n");
    if (lineEnd < 0)
        lineEnd = block.size();
    const QByteArrayView startLine = block.first(lineEnd);
    const qsizetype sp1 = startLine.indexOf(' ');
    const qsizetype sp2 = startLine.lastIndexOf(' ');
    if (sp1 <= 0 || sp2 <= sp1) {
        head.state = State::Invalid;
        return head;
    }
    head.method = startLine.first(sp1).toByteArray();
    head.target = startLine.sliced(sp1 + 1, sp2 - sp1 - 1).toByteArray();
    const QByteArrayView version = startLine.sliced(sp2 + 1);
    if (version == "HTTP/1.1")
        head.minorVersion = 1;
    else if (version == "HTTP/1.0")
        head.minorVersion = 0;
    else {
        head.state = State::Invalid;
        return head;
    }

    qsizetype pos = lineEnd + 2;
    while (pos < block.size()) {
        qsizetype next = block.indexOf("\r\n", pos);
        if (next < 0)
            next = block.size();
        const QByteArrayView line = block.sliced(pos, next - pos);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            head.state = State::Invalid;
            return head;
        }
        head.headers.append({line.first(colon).toByteArray(),
                             HttpHeaders::trimmed(line.sliced(colon + 1)).toByteArray()});
        pos = next + 2;
    }

    const QByteArray length = HttpHeaders::value(head.headers, "content-length");
    if (!length.isEmpty()) {
        bool ok = false;
        head.contentLength = length.toLongLong(&ok);
        if (!ok || head.contentLength < 0) {
            head.state = State::Invalid;
            return head;
        }
    }
    head.chunked = HttpHeaders::hasToken(HttpHeaders::value(head.headers, "transfer-encoding"), "chunked");
    head.expectContinue = HttpHeaders::value(head.headers, "expect").compare("100-continue", Qt::CaseInsensitive) == 0;
    head.state = State::Complete;
    return head;
}

} // namespace switchyard
