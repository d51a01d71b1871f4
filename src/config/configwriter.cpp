#include "config/configwriter.h"

#include "config/confignames.h"
#include "config/jsonnode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>


namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

JsonNode member(const QString &key, JsonNode value)
{
    value.key = key;
    return value;
}

JsonNode stringNode(const QString &s)
{
    JsonNode n;
    n.type = JsonNode::Type::String;
    n.string = s;
    return n;
}

JsonNode objectNode()
{
    JsonNode n;
    n.type = JsonNode::Type::Object;
    return n;
}

JsonNode hostNode(const ConfigWriter::NewHost &host)
{
    JsonNode engine = objectNode();
    engine.children.push_back(member(u"url"_s, stringNode(host.url.toString())));
    JsonNode engines = objectNode();
    engines.children.push_back(member(u"main"_s, engine));
    JsonNode node = objectNode();
    node.children.push_back(member(u"driver"_s, stringNode(u"static"_s)));
    if (!host.apiKey.isEmpty())
        node.children.push_back(member(u"api_key"_s, stringNode(host.apiKey)));
    node.children.push_back(member(u"engines"_s, engines));
    return member(host.name, node);
}

int countComments(const JsonNode &node)
{
    int n = 0;
    for (const JsonNode &child : node.children) {
        if (node.isObject() && child.key.startsWith(u"//"_s))
            ++n;
        n += countComments(child);
    }
    return n;
}

bool sameLayout(QByteArray a, QByteArray b)
{
    a.replace("\r\n", "\n");
    if (a.startsWith("\xEF\xBB\xBF"))
        a.remove(0, 3);
    return a.trimmed() == b.trimmed();
}

} // namespace

ConfigWriter::Plan ConfigWriter::replace(const QByteArray &existing, const JsonNode &root)
{
    Plan plan;
    plan.text = root.toJson();
    if (existing.trimmed().isEmpty()) {
        plan.newFile = true;
        return plan;
    }
    QJsonParseError parseError;
    if (const std::optional<JsonNode> before = JsonNode::parse(existing, &parseError)) {
        plan.comments = countComments(*before);
        plan.reformats = !sameLayout(existing, before->toJson());
    } else {
        plan.reformats = true;   // nothing of its layout can be kept
    }
    return plan;
}

QString ConfigWriter::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(u"switchyard/switchyard.json"_s);
}

QString ConfigWriter::suggestHostName(const QUrl &url, const QStringList &taken)
{
    QString base;
    for (const QChar c : url.host().section(u'.', 0, 0)) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            base += c.toLower();
        else if (!base.isEmpty() && !base.endsWith(u'_'))
            base += u'_';
    }
    while (base.endsWith(u'_'))
        base.chop(1);
    if (base.isEmpty() || base == "127"_L1 || base == "localhost"_L1)
        base = u"box"_s;
    QString name = base;
    for (int i = 2; taken.contains(name) || !ConfigNames::isValidHostName(name); ++i)
        name = base + QString::number(i);
    return name;
}

ConfigWriter::Plan ConfigWriter::addHost(const QByteArray &existing, const NewHost &host)
{
    Plan plan;
    JsonNode root = objectNode();
    if (existing.trimmed().isEmpty()) {
        plan.newFile = true;
    } else {
        QJsonParseError parseError;
        std::optional<JsonNode> parsed = JsonNode::parse(existing, &parseError);
        if (!parsed || !parsed->isObject()) {
            plan.error = parsed ? tr("the file is not a JSON object")
                                : tr("the file is not valid JSON: %1").arg(parseError.errorString());
            return plan;
        }
        root = std::move(*parsed);
        plan.comments = countComments(root);
        plan.reformats = !sameLayout(existing, root.toJson());
    }
    auto hosts = std::find_if(root.children.begin(), root.children.end(),
                              [](const JsonNode &m) { return m.key == "hosts"_L1; });
    if (hosts == root.children.end()) {
        root.children.push_back(member(u"hosts"_s, objectNode()));
        hosts = root.children.end() - 1;
    } else if (!hosts->isObject()) {
        plan.error = tr("hosts: must be an object");
        return plan;
    }
    if (hosts->member(host.name)) {
        plan.error = tr("hosts.%1: a host of that name is already in the file").arg(host.name);
        return plan;
    }
    hosts->children.push_back(hostNode(host));
    plan.text = root.toJson();
    return plan;
}

bool ConfigWriter::save(const QString &path, const QByteArray &text, QString *error)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = tr("cannot create the folder %1").arg(info.absolutePath());
        return false;
    }
    if (info.exists()) {
        const QString backup = path + u".bak"_s;
        QFile::remove(backup);
        if (!QFile::copy(path, backup)) {
            *error = tr("cannot keep the previous file as %1").arg(backup);
            return false;
        }
    }
    const bool existed = info.exists();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    // It may hold an engine's API key: a new file is the user's alone (an existing one keeps
    // its permissions, as QSaveFile does).
    if (!existed)
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

} // namespace switchyard
