#include "http/incomingrequest.h"

#include <QUrlQuery>

namespace switchyard {

QString IncomingRequest::queryItem(const QString &key) const
{
    if (rawQuery.isEmpty())
        return {};
    return QUrlQuery(QString::fromUtf8(rawQuery)).queryItemValue(key, QUrl::FullyDecoded);
}

QString IncomingRequest::clientAddress() const
{
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4);
    if (isV4)
        return QHostAddress(v4).toString();
    return peer.toString();
}

} // namespace switchyard
