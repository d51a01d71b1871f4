#include "http/incomingrequest.h"

#include "http/requesthead.h"

#include <QUrl>
#include <QUrlQuery>

namespace switchyard {

namespace {

// Printable ASCII without '%': what almost every request target is, and what decoding and
// encoding leave as it is.
bool isPlainAscii(QByteArrayView text)
{
    for (const char c : text) {
        if (c <= ' ' || c >= 0x7f || c == '%')
            return false;
    }
    return true;
}

} // namespace

IncomingRequest IncomingRequest::fromHead(const RequestHead &head)
{
    IncomingRequest in;
    in.method = head.method;
    QByteArrayView target = head.target;
    // The absolute form a proxy-minded client may send: only the path and query count.
    for (QByteArrayView scheme : {QByteArrayView("http://"), QByteArrayView("https://")}) {
        if (target.size() > scheme.size() && target.first(scheme.size()).compare(scheme, Qt::CaseInsensitive) == 0) {
            const qsizetype slash = target.indexOf('/', scheme.size());
            target = slash < 0 ? QByteArrayView("/") : target.sliced(slash);
            break;
        }
    }
    const qsizetype mark = target.indexOf('?');
    const QByteArrayView path = mark < 0 ? target : target.first(mark);
    const QByteArrayView query = mark < 0 ? QByteArrayView() : target.sliced(mark + 1);
    if (isPlainAscii(path)) {
        in.path = QString::fromLatin1(path);
    } else {
        QUrl url;
        url.setPath(QString::fromLatin1(path), QUrl::TolerantMode);
        in.path = url.path();   // percent-decoded, as UTF-8
    }
    if (isPlainAscii(query)) {
        in.rawQuery = query.toByteArray();
    } else {
        QUrl url;
        url.setQuery(QString::fromLatin1(query));
        in.rawQuery = url.query(QUrl::FullyEncoded).toUtf8();   // as Qt's own server gave it
    }
    in.headers = head.headers;
    in.http10 = head.minorVersion == 0;
    in.keepAlive = head.keepAlive();
    return in;
}

QString IncomingRequest::queryItem(const QString &key) const
{
    if (rawQuery.isEmpty())
        return {};
    return QUrlQuery(QString::fromUtf8(rawQuery)).queryItemValue(key, QUrl::FullyDecoded);
}

QString IncomingRequest::addressText(const QHostAddress &peer)
{
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4);
    if (isV4)
        return QHostAddress(v4).toString();
    return peer.toString();
}

} // namespace switchyard
