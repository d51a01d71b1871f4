#include "config/fieldreader.h"

#include "config/closestmatch.h"
#include "config/configloader.h"
#include "config/configreport.h"
#include "config/engineurl.h"
#include "config/fieldpath.h"

#include <QDir>
#include <QSet>

#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

bool FieldReader::checkDocument(const JsonNode &root, const QStringList &known, const QStringList &misplaced,
                                const QString &misplacedHint)
{
    if (!root.isObject()) {
        m_report.error(root.line, QString(), tr("expected an object, got %1").arg(describe(root)));
        return false;
    }
    checkDuplicates(root, QString());
    checkFields(root, QString(), known, misplaced, misplacedHint);
    return true;
}

const JsonNode *FieldReader::section(const JsonNode &root, const QString &key, const QStringList &known)
{
    const JsonNode *object = field(root, QString(), key, Type::Object);
    if (object)
        checkFields(*object, key, known);
    return object;
}

void FieldReader::checkDuplicates(const JsonNode &node, const QString &path)
{
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        const JsonNode &child = node.children[i];
        const QString childPath = node.isObject() ? memberPath(path, child.key) : itemPath(path, i);
        if (node.isObject() && !isCommentKey(child.key)) {
            for (std::size_t j = 0; j < i; ++j) {
                if (node.children[j].key == child.key) {
                    m_report.error(child.line, childPath,
                                   tr("duplicate key (first on line %1)").arg(node.children[j].line));
                    break;
                }
            }
        }
        checkDuplicates(child, childPath);
    }
}

void FieldReader::checkFields(const JsonNode &object, const QString &path, const QStringList &known,
                              const QStringList &misplaced, const QString &misplacedHint)
{
    for (const JsonNode &child : object.children) {
        if (isCommentKey(child.key) || known.contains(child.key))
            continue;
        QString message;
        const QString guess = closestMatch(child.key, known);
        if (!guess.isEmpty())
            message = tr("unknown field (did you mean \"%1\"?)").arg(guess);
        else if (misplaced.contains(child.key))
            message = tr("unknown field here (%1)").arg(misplacedHint);
        else
            message = tr("unknown field (known fields: %1)").arg(known.join(u", "_s));
        m_report.error(child.line, memberPath(path, child.key), message);
    }
}

std::vector<const JsonNode *> FieldReader::namedMembers(const JsonNode &object)
{
    std::vector<const JsonNode *> members;
    QSet<QString> seen;
    for (const JsonNode &child : object.children) {
        if (isCommentKey(child.key) || seen.contains(child.key))
            continue;
        seen.insert(child.key);
        members.push_back(&child);
    }
    return members;
}

const JsonNode *FieldReader::field(const JsonNode &object, const QString &objectPath, const QString &key,
                                   Type type, bool required)
{
    const JsonNode *node = object.member(key);
    if (!node) {
        if (required)
            m_report.error(object.line, memberPath(objectPath, key), tr("required field missing"));
        return nullptr;
    }
    if (node->type != type) {
        typeError(*node, memberPath(objectPath, key), type);
        return nullptr;
    }
    return node;
}

void FieldReader::typeError(const JsonNode &node, const QString &path, Type wanted)
{
    m_report.error(node.line, path, tr("expected %1, got %2").arg(typeName(wanted), describe(node)));
}

std::optional<QUrl> FieldReader::readUrl(const JsonNode &object, const QString &objectPath, const QString &key)
{
    const JsonNode *node = field(object, objectPath, key, Type::String, true);
    if (!node)
        return std::nullopt;
    QString why;
    std::optional<QUrl> url = EngineUrl::parse(node->string, &why);
    if (!url)
        m_report.error(node->line, memberPath(objectPath, key), why);
    return url;
}

std::optional<QStringList> FieldReader::readStrings(const JsonNode &array, const QString &path)
{
    QStringList list;
    bool ok = true;
    for (std::size_t i = 0; i < array.children.size(); ++i) {
        const JsonNode &item = array.children[i];
        if (!item.isString()) {
            typeError(item, itemPath(path, i), Type::String);
            ok = false;
            continue;
        }
        list.append(item.string);
    }
    return ok ? std::optional<QStringList>(list) : std::nullopt;
}

void FieldReader::readSeconds(const JsonNode &object, const QString &objectPath, const QString &key,
                              std::chrono::milliseconds &target)
{
    const JsonNode *node = field(object, objectPath, key, Type::Number);
    if (!node)
        return;
    const QString path = memberPath(objectPath, key);
    if (!(node->number > 0)) {
        m_report.error(node->line, path, tr("must be greater than 0"));
        return;
    }
    if (node->number > MaxSeconds) {
        m_report.error(node->line, path, tr("must be at most %1 (a day)").arg(MaxSeconds));
        return;
    }
    const auto ms = std::chrono::milliseconds(std::llround(node->number * 1000));
    if (ms.count() < 1) {
        m_report.error(node->line, path, tr("must be at least 0.001"));
        return;
    }
    target = ms;
}

std::optional<QString> FieldReader::absolutePath(const JsonNode &node, const QString &path)
{
    QString text = node.string;
    if (text == u"~" || text.startsWith(u"~/"))
        text = QDir::homePath() + text.mid(1);
    if (text.trimmed().isEmpty()) {
        m_report.error(node.line, path, tr("must not be empty (leave the field out for the default)"));
        return std::nullopt;
    }
    if (!QDir::isAbsolutePath(text)) {
        m_report.error(node.line, path,
                       tr("must be an absolute path (or start with \"~/\"), got \"%1\"").arg(node.string));
        return std::nullopt;
    }
    return QDir::cleanPath(text);
}

void FieldReader::readAbsolutePath(const JsonNode &object, const QString &objectPath, const QString &key,
                                   QString &target)
{
    if (const JsonNode *node = field(object, objectPath, key, Type::String)) {
        if (const std::optional<QString> path = absolutePath(*node, memberPath(objectPath, key)))
            target = *path;
    }
}

void FieldReader::readArgv(const JsonNode &object, const QString &objectPath, EngineConfig &engine, bool required)
{
    const QString argvPath = memberPath(objectPath, u"argv"_s);
    const JsonNode *argv = field(object, objectPath, u"argv"_s, Type::Array, required);
    if (!argv)
        return;
    if (std::optional<QStringList> list = readStrings(*argv, argvPath)) {
        if (list->isEmpty())
            m_report.error(argv->line, argvPath, tr("must not be empty: give the program and its arguments"));
        else if (list->first().trimmed().isEmpty())
            m_report.error(argv->children.front().line, itemPath(argvPath, 0), tr("the program must not be empty"));
        else
            engine.argv = *list;
    }
}

void FieldReader::readToken(const JsonNode &object, const QString &objectPath, const QString &key, QString &target)
{
    const JsonNode *token = field(object, objectPath, key, Type::String);
    if (!token)
        return;
    if (token->string.trimmed().isEmpty())
        m_report.error(token->line, memberPath(objectPath, key), tr("must not be empty (leave the field out for no token)"));
    else
        target = token->string;
}

const JsonNode *FieldReader::readListen(const JsonNode &root, QHostAddress &address, quint16 &port)
{
    const JsonNode *listen = field(root, QString(), u"listen"_s, Type::String);
    if (!listen)
        return nullptr;
    QString why;
    if (!ConfigLoader::parseListen(listen->string, &address, &port, &why))
        m_report.error(listen->line, u"listen"_s, why);
    return listen;
}

QString FieldReader::typeName(Type type) const
{
    switch (type) {
    case Type::Null: return tr("null");
    case Type::Bool: return tr("true or false");
    case Type::Number: return tr("a number");
    case Type::String: return tr("a string");
    case Type::Array: return tr("an array");
    case Type::Object: return tr("an object");
    }
    return QString();
}

QString FieldReader::describe(const JsonNode &node) const
{
    if (node.type == Type::Bool)
        return node.boolean ? u"true"_s : u"false"_s;
    return typeName(node.type);
}

} // namespace switchyard
