#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

namespace switchyard::fake {

// One parsed HTTP/1.1 request, copied out of the connection's buffer.
struct FakeHttpRequest
{
    QByteArray method;
    QByteArray target;  // as on the request line
    QByteArray path;    // target without the query
    QByteArray query;   // without the '?'
    QByteArray version; // "HTTP/1.1"
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    QByteArray header(QByteArrayView name) const; // first match, case-insensitive
    QString queryItem(const QString &name) const; // decoded; empty if absent
    bool hasQueryItem(const QString &name) const;
    bool wantsClose() const; // Connection: close, or HTTP/1.0 without keep-alive
};

} // namespace switchyard::fake
