#pragma once

#include "config/jsonnode.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <optional>

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

// A user's JSON file that an export merges into, as an object node; nullopt with *error naming
// the file and line when it is not one.
std::optional<JsonNode> parseObject(const QByteArray &text, const QString &fileName, QString *error);
// Sets the member at path (["a", "b"] is root.a.b), making objects on the way; with onlyIfAbsent
// an existing member is kept. False with *error when a member on the way is not an object.
bool setPath(JsonNode &root, const QStringList &path, const QJsonValue &value, bool onlyIfAbsent,
             const QString &fileName, QString *error);

} // namespace OrderedJson

} // namespace switchyard
