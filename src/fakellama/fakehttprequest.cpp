#include "fakehttprequest.h"

#include <QUrlQuery>

namespace switchyard::fake {

QByteArray FakeHttpRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (name.compare(key, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QString FakeHttpRequest::queryItem(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).queryItemValue(name, QUrl::FullyDecoded);
}

bool FakeHttpRequest::hasQueryItem(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).hasQueryItem(name);
}

bool FakeHttpRequest::wantsClose() const
{
    const QByteArray connection = header("Connection").toLower();
    if (connection.contains("close"))
        return true;
    return version == "HTTP/1.0" && !connection.contains("keep-alive");
}

} // namespace switchyard::fake
