#include "catalog/eventrelabel.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace switchyard {

using namespace Qt::StringLiterals;

QByteArray relabelModelEvent(const QString &host, const QByteArray &dataJson)
{
    const QJsonDocument doc = QJsonDocument::fromJson(dataJson);
    if (!doc.isObject())
        return {};
    QJsonObject o = doc.object();
    const QString key = o.value("model"_L1).toString();
    o.insert("model"_L1, key.isEmpty() || key == "*"_L1 ? host + u"-*"_s : host + u'-' + key);
    o.insert("proxy"_L1, QJsonObject{{"host"_L1, host}, {"key"_L1, key}});
    return "data: " + QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n\n";
}

} // namespace switchyard
