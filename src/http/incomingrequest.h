#pragma once

#include "http/httpheaders.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QString>

#include <chrono>

namespace switchyard {

struct RequestHead;

// One request as the connection read it, so it can wait in a queue or outlive the read that
// delivered it.
struct IncomingRequest
{
    QByteArray method;        // "GET", "POST", ...
    QString path;             // decoded path, no query
    QByteArray rawQuery;      // as sent, without '?'
    HeaderList headers;
    QByteArray body;
    QHostAddress peer;
    QString clientAddress;    // the peer as text, IPv4-mapped peers as plain IPv4 (addressText)
    bool keepAlive = true;    // the client allows the connection to stay open
    bool http10 = false;
    QDateTime arrivedAt;
    std::chrono::steady_clock::time_point arrivedSteady;

    // Method, path, query, headers, version and keep-alive from a parsed head (no body, peer or times).
    static IncomingRequest fromHead(const RequestHead &head);

    QByteArray header(QByteArrayView name) const { return HttpHeaders::value(headers, name); }
    QString queryItem(const QString &key) const;
    static QString addressText(const QHostAddress &peer);
};

} // namespace switchyard
