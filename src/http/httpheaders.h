#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

namespace switchyard {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

namespace HttpHeaders {

// First value of a header, compared case-insensitively; empty when absent.
QByteArray value(const HeaderList &headers, QByteArrayView name);
bool contains(const HeaderList &headers, QByteArrayView name);

// RFC 9110 §7.6.1: hop-by-hop fields, plus those the Connection header names, never cross a proxy.
// Framing (Content-Length, Transfer-Encoding) and Host are dropped too: the relay sets its own.
HeaderList forwardable(const HeaderList &headers);

// True when a header value list ("keep-alive, Upgrade") contains the token, case-insensitively.
bool hasToken(QByteArrayView value, QByteArrayView token);

QByteArrayView trimmed(QByteArrayView v);

// The bytes as a QByteArray, without allocating when they spell one of the names and values
// agents and llama-server send on every request ("Content-Type", "application/json", "close"...):
// those come from static storage. A head has a dozen of them; each allocation cost more than
// parsing its line.
QByteArray common(QByteArrayView bytes);

} // namespace HttpHeaders
} // namespace switchyard
