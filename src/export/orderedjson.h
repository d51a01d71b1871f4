#pragma once

#include "config/jsonnode.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace switchyard {

// Edits and writes a JsonNode tree, so a user's file merged with an export keeps its members in
// the order the user wrote them (QJsonObject would sort them).
namespace OrderedJson {

JsonNode fromValue(const QJsonValue &value, const QString &key = QString());
QJsonValue toValue(const JsonNode &node);

// The first member called key of an object node, or nullptr.
JsonNode *member(JsonNode &object, QStringView key);
// Replaces the first member called key (keeping its place), or appends one.
void setMember(JsonNode &object, const QString &key, const QJsonValue &value);

// Indented by two spaces, with a final newline; strings stay UTF-8.
QByteArray write(const JsonNode &node);

} // namespace OrderedJson

} // namespace switchyard
