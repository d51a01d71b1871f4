#pragma once

#include <QByteArray>
#include <QJsonParseError>
#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace switchyard {

// A JSON value that remembers the line it was written on and keeps object members in file order
// with duplicates: QJsonObject sorts keys and silently keeps the last duplicate, but the config
// needs file order (the first engine is the default) and line numbers for its error messages.
struct JsonNode
{
    enum class Type { Null, Bool, Number, String, Array, Object };

    Type type = Type::Null;
    QString key;                      // member name, when this node is an object member
    int line = 0;                     // 1-based: the key's line for members, else the value's
    bool boolean = false;
    double number = 0;
    QString string;
    std::vector<JsonNode> children;   // array items, or object members in file order

    bool isObject() const { return type == Type::Object; }
    bool isArray() const { return type == Type::Array; }
    bool isString() const { return type == Type::String; }
    bool isNumber() const { return type == Type::Number; }

    // The first member called key, or nullptr.
    const JsonNode *member(QStringView key) const;

    // Syntax is checked by QJsonDocument, so errors carry Qt's (translated) wording and its
    // offset; only valid documents are then read into nodes.
    static std::optional<JsonNode> parse(const QByteArray &json, QJsonParseError *error);

    // The tree as a file people read and edit (configs, client configs): JsonWriter's indented
    // layout, members in order, and a final newline.
    QByteArray toJson() const;
};

} // namespace switchyard
