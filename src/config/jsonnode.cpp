#include "config/jsonnode.h"

#include "common/jsonwriter.h"

#include <QJsonDocument>

namespace switchyard {

namespace {

// Reads a document QJsonDocument has already accepted; every check here is only a guard
// against the two parsers disagreeing, so it gives up rather than guessing.
class Reader
{
public:
    explicit Reader(const QByteArray &json) : m_data(json) {}

    bool readDocument(JsonNode &root)
    {
        if (m_data.startsWith("\xEF\xBB\xBF"))
            m_pos = 3;
        skipSpace();
        if (!readValue(root, 0))
            return false;
        skipSpace();
        return m_pos == m_data.size();
    }

private:
    static constexpr int MaxDepth = 4096;   // deeper than QJsonDocument allows, so Qt reports it first

    bool atEnd() const { return m_pos >= m_data.size(); }
    char peek() const { return atEnd() ? '\0' : m_data.at(m_pos); }

    void skipSpace()
    {
        while (!atEnd()) {
            const char c = m_data.at(m_pos);
            if (c == '\n')
                ++m_line;
            else if (c != ' ' && c != '\t' && c != '\r')
                return;
            ++m_pos;
        }
    }

    bool expect(char c)
    {
        skipSpace();
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }

    bool readValue(JsonNode &node, int depth)
    {
        if (depth > MaxDepth)
            return false;
        skipSpace();
        if (node.line == 0)
            node.line = m_line;
        const char c = peek();
        if (c == '{')
            return readObject(node, depth);
        if (c == '[')
            return readArray(node, depth);
        if (c == '"') {
            node.type = JsonNode::Type::String;
            return readString(node.string);
        }
        if (readLiteral("true")) {
            node.type = JsonNode::Type::Bool;
            node.boolean = true;
            return true;
        }
        if (readLiteral("false")) {
            node.type = JsonNode::Type::Bool;
            return true;
        }
        if (readLiteral("null")) {
            node.type = JsonNode::Type::Null;
            return true;
        }
        return readNumber(node);
    }

    bool readLiteral(const char *word)
    {
        const QByteArray w(word);
        if (m_data.mid(m_pos, w.size()) != w)
            return false;
        m_pos += w.size();
        return true;
    }

    bool readNumber(JsonNode &node)
    {
        const qsizetype start = m_pos;
        while (!atEnd() && QByteArrayView("+-0123456789.eE").contains(m_data.at(m_pos)))
            ++m_pos;
        bool ok = false;
        node.number = m_data.mid(start, m_pos - start).toDouble(&ok);
        node.type = JsonNode::Type::Number;
        return ok;
    }

    bool readObject(JsonNode &node, int depth)
    {
        node.type = JsonNode::Type::Object;
        ++m_pos;   // '{'
        skipSpace();
        if (peek() == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            JsonNode member;
            member.line = m_line;
            if (peek() != '"' || !readString(member.key) || !expect(':'))
                return false;
            if (!readValue(member, depth + 1))
                return false;
            node.children.push_back(std::move(member));
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            return expect('}');
        }
    }

    bool readArray(JsonNode &node, int depth)
    {
        node.type = JsonNode::Type::Array;
        ++m_pos;   // '['
        skipSpace();
        if (peek() == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            JsonNode item;
            if (!readValue(item, depth + 1))
                return false;
            node.children.push_back(std::move(item));
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
                continue;
            }
            return expect(']');
        }
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    bool readHex4(char16_t &unit)
    {
        if (m_pos + 4 > m_data.size())
            return false;
        unit = 0;
        for (int i = 0; i < 4; ++i) {
            const int v = hexValue(m_data.at(m_pos++));
            if (v < 0)
                return false;
            unit = char16_t(unit * 16 + v);
        }
        return true;
    }

    // Raw bytes are collected as UTF-8 runs; escapes are appended as UTF-16 directly.
    bool readString(QString &out)
    {
        ++m_pos;   // opening quote
        out.clear();
        QByteArray run;
        while (!atEnd()) {
            const char c = m_data.at(m_pos++);
            if (c == '"') {
                out += QString::fromUtf8(run);
                return true;
            }
            if (c == '\n')
                ++m_line;   // not valid JSON, but keep line numbers honest if it gets through
            if (c != '\\') {
                run.append(c);
                continue;
            }
            out += QString::fromUtf8(run);
            run.clear();
            if (atEnd())
                return false;
            const char e = m_data.at(m_pos++);
            switch (e) {
            case '"': out += u'"'; break;
            case '\\': out += u'\\'; break;
            case '/': out += u'/'; break;
            case 'b': out += u'\b'; break;
            case 'f': out += u'\f'; break;
            case 'n': out += u'\n'; break;
            case 'r': out += u'\r'; break;
            case 't': out += u'\t'; break;
            case 'u': {
                char16_t unit = 0;
                if (!readHex4(unit))
                    return false;
                out += QChar(unit);
                break;
            }
            default:
                run.append(e);   // QJsonDocument takes an unknown escape as the character itself
                break;
            }
        }
        return false;
    }

    const QByteArray &m_data;
    qsizetype m_pos = 0;
    int m_line = 1;
};

} // namespace

const JsonNode *JsonNode::member(QStringView name) const
{
    if (type != Type::Object)
        return nullptr;
    for (const JsonNode &child : children) {
        if (child.key == name)
            return &child;
    }
    return nullptr;
}

std::optional<JsonNode> JsonNode::parse(const QByteArray &json, QJsonParseError *error)
{
    QJsonParseError qtError;
    QJsonDocument::fromJson(json, &qtError);
    if (qtError.error != QJsonParseError::NoError) {
        if (error)
            *error = qtError;
        return std::nullopt;
    }
    JsonNode root;
    Reader reader(json);
    if (!reader.readDocument(root)) {
        if (error) {
            error->error = QJsonParseError::IllegalValue;
            error->offset = 0;
        }
        return std::nullopt;
    }
    if (error)
        *error = qtError;
    return root;
}

namespace {

void writeNode(const JsonNode &node, JsonWriter &json)
{
    switch (node.type) {
    case JsonNode::Type::Null: json.null(); return;
    case JsonNode::Type::Bool: json.boolean(node.boolean); return;
    case JsonNode::Type::Number: json.number(node.number); return;
    case JsonNode::Type::String: json.string(node.string); return;
    case JsonNode::Type::Array:
        json.beginArray();
        for (const JsonNode &item : node.children)
            writeNode(item, json);
        json.endArray();
        return;
    case JsonNode::Type::Object:
        json.beginObject();
        for (const JsonNode &member : node.children)
            writeNode(member, json.key(member.key));
        json.endObject();
        return;
    }
}

} // namespace

QByteArray JsonNode::toJson() const
{
    JsonWriter json(JsonWriter::Layout::Indented);
    writeNode(*this, json);
    return json.take() + '\n';
}

} // namespace switchyard
