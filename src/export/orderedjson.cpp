#include "export/orderedjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

namespace switchyard::OrderedJson {

JsonNode fromValue(const QJsonValue &value, const QString &key)
{
    JsonNode node;
    node.key = key;
    switch (value.type()) {
    case QJsonValue::Bool:
        node.type = JsonNode::Type::Bool;
        node.boolean = value.toBool();
        break;
    case QJsonValue::Double:
        node.type = JsonNode::Type::Number;
        node.number = value.toDouble();
        break;
    case QJsonValue::String:
        node.type = JsonNode::Type::String;
        node.string = value.toString();
        break;
    case QJsonValue::Array: {
        node.type = JsonNode::Type::Array;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array)
            node.children.push_back(fromValue(item));
        break;
    }
    case QJsonValue::Object: {
        node.type = JsonNode::Type::Object;
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            node.children.push_back(fromValue(it.value(), it.key()));
        break;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        node.type = JsonNode::Type::Null;
        break;
    }
    return node;
}

QJsonValue toValue(const JsonNode &node)
{
    switch (node.type) {
    case JsonNode::Type::Null:
        return QJsonValue(QJsonValue::Null);
    case JsonNode::Type::Bool:
        return node.boolean;
    case JsonNode::Type::Number:
        return node.number;
    case JsonNode::Type::String:
        return node.string;
    case JsonNode::Type::Array: {
        QJsonArray array;
        for (const JsonNode &child : node.children)
            array.append(toValue(child));
        return array;
    }
    case JsonNode::Type::Object: {
        QJsonObject object;
        for (const JsonNode &child : node.children)
            object.insert(child.key, toValue(child));
        return object;
    }
    }
    return {};
}

JsonNode *member(JsonNode &object, QStringView key)
{
    for (JsonNode &child : object.children) {
        if (child.key == key)
            return &child;
    }
    return nullptr;
}

void setMember(JsonNode &object, const QString &key, const QJsonValue &value)
{
    JsonNode node = fromValue(value, key);
    if (JsonNode *existing = member(object, key))
        *existing = std::move(node);
    else
        object.children.push_back(std::move(node));
}

std::optional<JsonNode> parseObject(const QByteArray &text, const QString &fileName, QString *error)
{
    QJsonParseError parseError;
    std::optional<JsonNode> root = JsonNode::parse(text, &parseError);
    if (!root) {
        const int offset = std::clamp(parseError.offset, 0, int(text.size()));
        const int line = int(text.left(offset).count('\n')) + 1;
        *error = QCoreApplication::translate("export", "%1:%2: not valid JSON (%3); nothing was changed")
                     .arg(fileName).arg(line).arg(parseError.errorString());
        return std::nullopt;
    }
    if (!root->isObject()) {
        *error = QCoreApplication::translate("export", "%1:%2: expected a JSON object at the top; nothing was changed")
                     .arg(fileName).arg(root->line);
        return std::nullopt;
    }
    return root;
}

bool setPath(JsonNode &root, const QStringList &path, const QJsonValue &value, bool onlyIfAbsent,
             const QString &fileName, QString *error)
{
    JsonNode *node = &root;
    for (qsizetype i = 0; i + 1 < path.size(); ++i) {
        JsonNode *next = member(*node, path.at(i));
        if (!next) {
            node->children.push_back(fromValue(QJsonObject(), path.at(i)));
            next = &node->children.back();
        } else if (!next->isObject()) {
            *error = QCoreApplication::translate("export", "%1:%2: \"%3\" is not an object; nothing was changed")
                         .arg(fileName).arg(next->line).arg(path.mid(0, i + 1).join(u'.'));
            return false;
        }
        node = next;
    }
    if (!onlyIfAbsent || !member(*node, path.back()))
        setMember(*node, path.back(), value);
    return true;
}

} // namespace switchyard::OrderedJson
