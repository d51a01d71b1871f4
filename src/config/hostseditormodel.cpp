#include "config/hostseditormodel.h"

#include "config/configdiff.h"
#include "config/configloader.h"
#include "config/fieldpath.h"

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

namespace {

// Every field the config readers know (HostConfigReader). The sections ("wake", "scheduling",
// "prompt_cache") are edited member by member; what is typed is written through and the readers
// judge it.
const QStringList HostKeys = {u"driver"_s, u"api_key"_s, u"agent"_s, u"token"_s, u"engines"_s,
                              u"scheduling"_s, u"prompt_cache"_s, u"wake"_s, u"idle_stop_after_s"_s,
                              u"sleep_command"_s};
const QStringList Sections = {u"scheduling"_s, u"prompt_cache"_s, u"wake"_s};
const QStringList EngineKeys = {u"url"_s, u"models"_s, u"argv"_s, u"start"_s, u"stop"_s,
                                u"start_timeout_s"_s, u"stop_timeout_s"_s, u"idle_stop_after_s"_s};

JsonNode node(Type type, const QString &key = {})
{
    JsonNode n;
    n.type = type;
    n.key = key;
    return n;
}

JsonNode stringNode(const QString &key, const QString &value)
{
    JsonNode n = node(Type::String, key);
    n.string = value;
    return n;
}

JsonNode *child(JsonNode &object, const QString &key)
{
    auto it = std::find_if(object.children.begin(), object.children.end(),
                           [&](const JsonNode &m) { return m.key == key; });
    return it == object.children.end() ? nullptr : &*it;
}

void removeChild(JsonNode &object, const QString &key)
{
    object.children.erase(std::remove_if(object.children.begin(), object.children.end(),
                                          [&](const JsonNode &m) { return m.key == key; }),
                          object.children.end());
}

// Sets a member, in place when it exists (its position kept), else at the end.
void setChild(JsonNode &object, JsonNode value)
{
    if (JsonNode *existing = child(object, value.key))
        *existing = std::move(value);
    else
        object.children.push_back(std::move(value));
}

QStringList names(const JsonNode *object)
{
    QStringList out;
    if (!object || !object->isObject())
        return out;
    for (const JsonNode &m : object->children) {
        if (!isCommentKey(m.key) && !out.contains(m.key))
            out.append(m.key);
    }
    return out;
}

QString freeName(const QString &base, const QStringList &taken)
{
    QString name = base;
    for (int i = 2; taken.contains(name); ++i)
        name = base + QString::number(i);
    return name;
}

// "wake.mac": a member of a member.
const JsonNode *find(const JsonNode *object, const QString &key)
{
    for (const QString &part : key.split(u'.')) {
        object = object && object->isObject() ? object->member(part) : nullptr;
    }
    return object;
}

// Seconds, sizes and ports are numbers; what does not read as one is written as typed, for the
// readers to say so.
bool isNumberKey(const QString &key)
{
    return key.endsWith("_s"_L1) || key.endsWith("_mb"_L1) || key.endsWith(".port"_L1);
}

} // namespace

const QStringList &HostsEditorModel::hostKeys()
{
    return HostKeys;
}

const QStringList &HostsEditorModel::engineKeys()
{
    return EngineKeys;
}

bool HostsEditorModel::load(const QByteArray &existing, QString *error)
{
    JsonNode root = node(Type::Object);
    if (!existing.trimmed().isEmpty()) {
        QJsonParseError parseError;
        std::optional<JsonNode> parsed = JsonNode::parse(existing, &parseError);
        if (!parsed || !parsed->isObject()) {
            *error = parsed ? tr("the file is not a JSON object")
                            : tr("the file is not valid JSON: %1").arg(parseError.errorString());
            return false;
        }
        root = std::move(*parsed);
    }
    m_original = existing;
    m_before = root;
    m_root = std::move(root);
    return true;
}

JsonNode *HostsEditorModel::hostsNode()
{
    JsonNode *hosts = child(m_root, u"hosts"_s);
    return hosts && hosts->isObject() ? hosts : nullptr;
}

const JsonNode *HostsEditorModel::hostsNode() const
{
    const JsonNode *hosts = m_root.member(u"hosts");
    return hosts && hosts->isObject() ? hosts : nullptr;
}

JsonNode *HostsEditorModel::object(const QString &host, const QString &engine)
{
    JsonNode *hosts = hostsNode();
    JsonNode *h = hosts ? child(*hosts, host) : nullptr;
    if (!h || !h->isObject() || engine.isEmpty())
        return h && h->isObject() ? h : nullptr;
    JsonNode *engines = child(*h, u"engines"_s);
    JsonNode *e = engines && engines->isObject() ? child(*engines, engine) : nullptr;
    return e && e->isObject() ? e : nullptr;
}

const JsonNode *HostsEditorModel::object(const QString &host, const QString &engine) const
{
    return const_cast<HostsEditorModel *>(this)->object(host, engine);
}

QStringList HostsEditorModel::hosts() const
{
    return names(hostsNode());
}

QStringList HostsEditorModel::engines(const QString &host) const
{
    const JsonNode *h = object(host, {});
    return names(h ? h->member(u"engines") : nullptr);
}

QString HostsEditorModel::text(const QString &host, const QString &engine, const QString &key) const
{
    const JsonNode *field = find(object(host, engine), key);
    if (field && field->isNumber())
        return QString::fromUtf8(field->toJson()).trimmed();
    return field && field->isString() ? field->string : QString();
}

QStringList HostsEditorModel::list(const QString &host, const QString &engine, const QString &key) const
{
    const JsonNode *o = object(host, engine);
    const JsonNode *field = o ? o->member(key) : nullptr;
    QStringList out;
    if (field && field->isArray()) {
        for (const JsonNode &item : field->children)
            out.append(item.isString() ? item.string : QString::fromUtf8(item.toJson()).trimmed());
    }
    return out;
}

void HostsEditorModel::setText(const QString &host, const QString &engine, const QString &key, const QString &value)
{
    JsonNode *o = object(host, engine);
    if (!o)
        return;
    // Down to the object that holds the last part, made when a value needs it.
    QStringList parts = key.split(u'.');
    const QString last = parts.takeLast();
    std::vector<JsonNode *> chain{o};
    for (const QString &part : std::as_const(parts)) {
        JsonNode *next = child(*chain.back(), part);
        if (!next || !next->isObject()) {
            if (value.isEmpty())
                return;
            setChild(*chain.back(), node(Type::Object, part));
            next = child(*chain.back(), part);
        }
        chain.push_back(next);
    }
    if (value.isEmpty()) {
        removeChild(*chain.back(), last);
        // An object left empty by it goes too ("wake": {}).
        for (qsizetype i = qsizetype(chain.size()) - 1; i > 0 && chain[size_t(i)]->children.empty(); --i)
            removeChild(*chain[size_t(i - 1)], parts.at(i - 1));
        return;
    }
    bool number = false;
    const double d = isNumberKey(key) ? value.toDouble(&number) : 0;
    if (number) {
        JsonNode n = node(Type::Number, last);
        n.number = d;
        setChild(*chain.back(), std::move(n));
    } else {
        setChild(*chain.back(), stringNode(last, value));
    }
}

void HostsEditorModel::setList(const QString &host, const QString &engine, const QString &key, const QStringList &value)
{
    JsonNode *o = object(host, engine);
    if (!o)
        return;
    if (value.isEmpty()) {
        removeChild(*o, key);
        return;
    }
    JsonNode array = node(Type::Array, key);
    for (const QString &item : value)
        array.children.push_back(stringNode({}, item));
    setChild(*o, std::move(array));
}

QString HostsEditorModel::addHost()
{
    if (!hostsNode()) {
        removeChild(m_root, u"hosts"_s);   // not an object: the readers said so; it is replaced
        m_root.children.push_back(node(Type::Object, u"hosts"_s));
    }
    const QString name = freeName(u"host"_s, hosts());
    JsonNode engine = node(Type::Object, u"main"_s);
    engine.children.push_back(stringNode(u"url"_s, QString()));
    JsonNode engines = node(Type::Object, u"engines"_s);
    engines.children.push_back(std::move(engine));
    JsonNode host = node(Type::Object, name);
    host.children.push_back(stringNode(u"driver"_s, u"static"_s));
    host.children.push_back(std::move(engines));
    hostsNode()->children.push_back(std::move(host));
    return name;
}

bool HostsEditorModel::addHost(const ConfigWriter::NewHost &host)
{
    if (hosts().contains(host.name) || isCommentKey(host.name))
        return false;
    const QString placeholder = addHost();
    renameHost(placeholder, host.name);
    setText(host.name, u"main"_s, u"url"_s, host.url.toString());
    setText(host.name, {}, u"api_key"_s, host.apiKey);
    // The writer's order: driver, api_key, engines.
    JsonNode *h = object(host.name, {});
    std::stable_partition(h->children.begin(), h->children.end(), [](const JsonNode &m) { return m.key != "engines"_L1; });
    return true;
}

QList<std::pair<QString, QStringList>> HostsEditorModel::engineUrls() const
{
    QList<std::pair<QString, QStringList>> out;
    for (const QString &host : hosts()) {
        QStringList urls;
        for (const QString &engine : engines(host))
            urls.append(text(host, engine, u"url"_s));
        out.append({host, urls});
    }
    return out;
}

QString HostsEditorModel::addEngine(const QString &host)
{
    JsonNode *h = object(host, {});
    if (!h)
        return {};
    JsonNode *engines = child(*h, u"engines"_s);
    if (!engines || !engines->isObject()) {
        removeChild(*h, u"engines"_s);
        h->children.push_back(node(Type::Object, u"engines"_s));
        engines = &h->children.back();
    }
    const QString name = freeName(names(engines).isEmpty() ? u"main"_s : u"engine"_s, names(engines));
    JsonNode engine = node(Type::Object, name);
    engine.children.push_back(stringNode(u"url"_s, QString()));
    engines->children.push_back(std::move(engine));
    return name;
}

void HostsEditorModel::removeHost(const QString &host)
{
    if (JsonNode *hosts = hostsNode())
        removeChild(*hosts, host);
}

void HostsEditorModel::removeEngine(const QString &host, const QString &engine)
{
    JsonNode *h = object(host, {});
    JsonNode *engines = h ? child(*h, u"engines"_s) : nullptr;
    if (engines && engines->isObject())
        removeChild(*engines, engine);
}

bool HostsEditorModel::renameHost(const QString &from, const QString &to)
{
    JsonNode *h = hostsNode() ? child(*hostsNode(), from) : nullptr;
    if (!h || (from != to && hosts().contains(to)) || isCommentKey(to))
        return false;
    h->key = to;
    return true;
}

bool HostsEditorModel::renameEngine(const QString &host, const QString &from, const QString &to)
{
    JsonNode *e = object(host, from);
    if (!e || (from != to && engines(host).contains(to)) || isCommentKey(to))
        return false;
    e->key = to;
    return true;
}

QString HostsEditorModel::fieldPath(const QString &host, const QString &engine, const QString &key)
{
    QString path = memberPath(u"hosts"_s, host);
    if (!engine.isEmpty())
        path = memberPath(memberPath(path, u"engines"_s), engine);
    return key.isEmpty() ? path : memberPath(path, key);
}

ConfigResult HostsEditorModel::check(const QString &fileName) const
{
    return ConfigLoader::parse(m_root.toJson(), fileName);
}

bool HostsEditorModel::isModified() const
{
    return m_root.toJson() != m_before.toJson();
}

ConfigWriter::Plan HostsEditorModel::plan() const
{
    return ConfigWriter::replace(m_original, m_root);
}

QStringList HostsEditorModel::changes() const
{
    return ConfigDiff::changes(m_before, m_root);
}

QStringList HostsEditorModel::hiddenFields() const
{
    QStringList out;
    for (const QString &host : hosts()) {
        const JsonNode *h = object(host, {});
        for (const JsonNode &m : h ? h->children : std::vector<JsonNode>{}) {
            // A section given otherwise ("prompt_cache": false) has no member to edit.
            if (!isCommentKey(m.key) && (!HostKeys.contains(m.key) || (Sections.contains(m.key) && !m.isObject())))
                out.append(fieldPath(host, {}, m.key));
        }
        for (const QString &engine : engines(host)) {
            const JsonNode *e = object(host, engine);
            for (const JsonNode &m : e ? e->children : std::vector<JsonNode>{}) {
                if (!isCommentKey(m.key) && !EngineKeys.contains(m.key))
                    out.append(fieldPath(host, engine, m.key));
            }
        }
    }
    return out;
}

} // namespace switchyard
