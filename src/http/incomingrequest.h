#pragma once

#include "http/httpheaders.h"

#include <QByteArray>
#include <QDateTime>
#include <QHostAddress>
#include <QString>

#include <chrono>

namespace switchyard {

// A request copied out of QHttpServerRequest (which is reused per connection), so it can wait
// in a queue or outlive the call that delivered it.
struct IncomingRequest
{
    QByteArray method;        // "GET", "POST", ...
    QString path;             // decoded path, no query
    QByteArray rawQuery;      // as sent, without '?'
    HeaderList headers;
    QByteArray body;
    QHostAddress peer;
    bool keepAlive = true;    // the client allows the connection to stay open
    bool http10 = false;
    QDateTime arrivedAt;
    std::chrono::steady_clock::time_point arrivedSteady;

    QByteArray header(QByteArrayView name) const { return HttpHeaders::value(headers, name); }
    QString queryItem(const QString &key) const;
    QString clientAddress() const;   // IPv4-mapped peers shown as plain IPv4
};

} // namespace switchyard
