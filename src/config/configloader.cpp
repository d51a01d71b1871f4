#include "config/configloader.h"

#include "config/jsonnode.h"
#include "http/tlscredentials.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <vector>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

using Type = JsonNode::Type;

const QStringList TopFields = {u"listen"_s, u"lan"_s, u"hosts"_s, u"aliases"_s, u"waiting"_s, u"limits"_s,
                               u"state_dir"_s, u"clients"_s, u"admin"_s, u"tls"_s};
const QStringList ClientsFields = {u"api_keys"_s, u"api_keys_file"_s, u"api_keys_env"_s};
const QStringList AdminFields = {u"token"_s, u"token_file"_s, u"token_env"_s};
const QStringList TlsFields = {u"cert"_s, u"key"_s};
const QStringList HostFields = {u"driver"_s, u"agent"_s, u"token"_s, u"api_key"_s, u"engines"_s};
const QStringList EngineFields = {u"url"_s, u"models"_s, u"argv"_s, u"start"_s, u"stop"_s,
                                  u"start_timeout_s"_s, u"stop_timeout_s"_s};
const QStringList AgentTopFields = {u"listen"_s, u"token"_s, u"state_dir"_s, u"engines"_s};
const QStringList AgentEngineFields = {u"url"_s, u"argv"_s, u"start_timeout_s"_s, u"stop_timeout_s"_s};
const QStringList WaitingFields = {u"early_200_after_s"_s, u"comment_every_s"_s};
const QStringList LimitsFields = {u"max_body_mb"_s, u"client_idle_timeout_s"_s, u"header_timeout_s"_s,
                                  u"upstream_connect_timeout_s"_s, u"poll_interval_s"_s,
                                  u"upstream_inactivity_timeout_s"_s};
const QStringList Drivers = {u"static"_s, u"local"_s, u"agent"_s, u"command"_s};

constexpr double MaxSeconds = 86400;   // a day; also keeps the millisecond conversion in range
constexpr double MaxBodyMb = 1024;
constexpr qint64 MaxSecretFileBytes = 1024 * 1024;
// Node's fetch (undici) drops a request that has seen no response header for 300 s.
constexpr double NodeHeadersTimeoutSeconds = 300;

QString join(const QString &path, const QString &key)
{
    const QString shown = key.isEmpty() ? u"\"\""_s : key;   // an empty key must still show up
    return path.isEmpty() ? shown : path + u'.' + shown;
}

QString itemPath(const QString &path, std::size_t index)
{
    return path + u'[' + QString::number(index) + u']';
}

// JSON has no comments; members whose key starts with "//" stand in for them and are ignored.
bool isComment(const QString &key)
{
    return key.startsWith(u"//");
}

// Optimal string alignment distance, case-insensitive: "ulr" is one step from "url".
int editDistance(const QString &a0, const QString &b0)
{
    const QString a = a0.toLower();
    const QString b = b0.toLower();
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
    for (qsizetype i = 0; i <= n; ++i)
        d[i][0] = int(i);
    for (qsizetype j = 0; j <= m; ++j)
        d[0][j] = int(j);
    for (qsizetype i = 1; i <= n; ++i) {
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[n][m];
}

QString closest(const QString &word, const QStringList &candidates)
{
    QString best;
    int bestDistance = 0;
    for (const QString &candidate : candidates) {
        const int distance = editDistance(word, candidate);
        const int allowed = std::max(1, int(candidate.size()) / 3);
        if (distance <= allowed && (best.isEmpty() || distance < bestDistance)) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

class Validator
{
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    explicit Validator(QString file) : m_file(std::move(file)) {}

    void error(int line, const QString &path, const QString &message)
    {
        m_errors.append(ConfigError{m_file, line, path, message});
    }

    void warning(int line, const QString &path, const QString &message)
    {
        m_warnings.append(ConfigError{m_file, line, path, message});
    }

    ConfigResult result(const Config &config) const { return resultOf<ConfigResult>(config); }
    AgentConfigResult result(const AgentConfig &config) const { return resultOf<AgentConfigResult>(config); }

    template<typename Result, typename Value>
    Result resultOf(const Value &config) const
    {
        // Checks run section by section; people read the report top to bottom with the file open.
        const auto byLine = [](const ConfigError &a, const ConfigError &b) { return a.line < b.line; };
        Result r;
        r.errors = m_errors;
        r.warnings = m_warnings;
        std::stable_sort(r.errors.begin(), r.errors.end(), byLine);
        std::stable_sort(r.warnings.begin(), r.warnings.end(), byLine);
        if (m_errors.isEmpty())
            r.config = config;
        return r;
    }

    void readDocument(const JsonNode &root, Config &config)
    {
        if (!root.isObject()) {
            error(root.line, QString(), tr("expected an object, got %1").arg(describe(root)));
            return;
        }
        checkDuplicates(root, QString());
        checkFields(root, QString(), TopFields, HostFields,
                    tr("host fields go inside \"hosts\": {\"NAME\": {...}}"));

        const JsonNode *listen = field(root, QString(), u"listen"_s, Type::String);
        bool listenOk = true;
        if (listen) {
            QString why;
            listenOk = ConfigLoader::parseListen(listen->string, &config.listenAddress, &config.listenPort, &why);
            if (!listenOk)
                error(listen->line, u"listen"_s, why);
        }
        const JsonNode *lan = field(root, QString(), u"lan"_s, Type::Bool);
        config.access.lan = lan && lan->boolean;
        // Serving the LAN is a decision, not a default or a typo's side effect.
        if (listen && listenOk && !config.listenAddress.isLoopback() && !config.access.lan) {
            error(listen->line, u"listen"_s,
                  tr("\"%1\" is reachable from other machines: add \"lan\": true to serve the LAN "
                     "(and set clients.api_keys; see docs/SECURITY.md), or listen on 127.0.0.1")
                      .arg(listen->string));
        }
        readStateDir(root, config.stateDir);
        readHosts(root, config);
        readAliases(root, config);
        readWaiting(root, config);
        readLimits(root, config);
        readClients(root, config.access);
        readAdmin(root, config.access);
        readTls(root, config.access);
        if (config.access.lan && config.access.clientKeys.isEmpty() && !config.listenAddress.isLoopback()
                && m_errors.isEmpty()) {
            warning(lan->line, u"lan"_s,
                    tr("no client keys (clients.api_keys): anyone on the LAN can use every model"));
        }
    }

    // "/abs/path" or "~/path", as a clean absolute path; nullopt after reporting what is wrong.
    std::optional<QString> absolutePath(const JsonNode &node, const QString &path)
    {
        QString text = node.string;
        if (text == u"~" || text.startsWith(u"~/"))
            text = QDir::homePath() + text.mid(1);
        if (text.trimmed().isEmpty()) {
            error(node.line, path, tr("must not be empty (leave the field out for the default)"));
            return std::nullopt;
        }
        if (!QDir::isAbsolutePath(text)) {
            error(node.line, path, tr("must be an absolute path (or start with \"~/\"), got \"%1\"").arg(node.string));
            return std::nullopt;
        }
        return QDir::cleanPath(text);
    }

    // A secret read from a file named in the config; nullopt after reporting why it cannot be.
    std::optional<QByteArray> readSecretFile(const JsonNode &node, const QString &path)
    {
        const std::optional<QString> file = absolutePath(node, path);
        if (!file)
            return std::nullopt;
        // A regular file of sane size: not a FIFO that blocks check-config, nor /dev/zero.
        const QFileInfo info(*file);
        if (info.exists() && (!info.isFile() || info.size() > MaxSecretFileBytes)) {
            error(node.line, path, tr("\"%1\" is not a regular file of at most 1 MiB").arg(*file));
            return std::nullopt;
        }
        QFile f(*file);
        if (!f.open(QIODevice::ReadOnly)) {
            error(node.line, path, tr("cannot read \"%1\": %2").arg(*file, f.errorString()));
            return std::nullopt;
        }
        return f.readAll();
    }

    // The value of the environment variable a field names; nullopt after reporting it unset.
    std::optional<QByteArray> readSecretEnv(const JsonNode &node, const QString &path)
    {
        if (node.string.isEmpty() || node.string.contains(u'=')) {
            error(node.line, path, tr("expected the name of an environment variable, got \"%1\"").arg(node.string));
            return std::nullopt;
        }
        const QByteArray value = qgetenv(node.string.toLocal8Bit().constData());
        if (value.trimmed().isEmpty()) {
            error(node.line, path, tr("the environment variable %1 is not set or empty").arg(node.string));
            return std::nullopt;
        }
        return value;
    }

    // A key or token goes into an HTTP header: printable ASCII without spaces. The message never
    // quotes the secret itself.
    bool checkSecret(const QString &secret, int line, const QString &path, const QString &where)
    {
        for (const QChar c : secret) {
            if (c.unicode() <= 0x20 || c.unicode() >= 0x7f) {
                error(line, path, tr("%1: a key must be printable ASCII without spaces").arg(where));
                return false;
            }
        }
        return true;
    }

    // clients.api_keys, api_keys_file (one key per line, # comments) and api_keys_env
    // (separated by commas or white space); all the keys of all three count.
    void readClients(const JsonNode &root, AccessConfig &access)
    {
        const JsonNode *clients = field(root, QString(), u"clients"_s, Type::Object);
        if (!clients)
            return;
        const QString path = u"clients"_s;
        checkFields(*clients, path, ClientsFields);
        QStringList keys;
        if (const JsonNode *list = field(*clients, path, u"api_keys"_s, Type::Array)) {
            const QString listPath = join(path, u"api_keys"_s);
            if (list->children.empty())
                error(list->line, listPath, tr("must not be empty (leave the field out for no keys)"));
            for (std::size_t i = 0; i < list->children.size(); ++i) {
                const JsonNode &item = list->children[i];
                if (!item.isString()) {
                    typeError(item, itemPath(listPath, i), Type::String);
                } else if (item.string.isEmpty()) {
                    error(item.line, itemPath(listPath, i), tr("must not be empty"));
                } else if (checkSecret(item.string, item.line, itemPath(listPath, i), tr("this key"))) {
                    keys.append(item.string);
                }
            }
        }
        if (const JsonNode *file = field(*clients, path, u"api_keys_file"_s, Type::String)) {
            const QString filePath = join(path, u"api_keys_file"_s);
            if (const std::optional<QByteArray> data = readSecretFile(*file, filePath)) {
                const QList<QByteArray> lines = data->split('\n');
                qsizetype found = 0;
                for (qsizetype i = 0; i < lines.size(); ++i) {
                    const QString key = QString::fromUtf8(lines.at(i).trimmed());
                    if (key.isEmpty() || key.startsWith(u'#'))
                        continue;
                    if (checkSecret(key, file->line, filePath, tr("line %1 of the file").arg(i + 1))) {
                        keys.append(key);
                        ++found;
                    }
                }
                if (found == 0)
                    error(file->line, filePath, tr("\"%1\" holds no keys (one per line)").arg(file->string));
            }
        }
        if (const JsonNode *env = field(*clients, path, u"api_keys_env"_s, Type::String)) {
            const QString envPath = join(path, u"api_keys_env"_s);
            if (const std::optional<QByteArray> value = readSecretEnv(*env, envPath)) {
                const QStringList parts = QString::fromUtf8(*value).split(QRegularExpression(u"[\\s,]+"_s),
                                                                          Qt::SkipEmptyParts);
                for (const QString &key : parts) {
                    if (checkSecret(key, env->line, envPath, tr("the variable %1").arg(env->string)))
                        keys.append(key);
                }
            }
        }
        keys.removeDuplicates();
        access.clientKeys = keys;
    }

    // admin.token, or token_file (its first line), or token_env: one of them.
    void readAdmin(const JsonNode &root, AccessConfig &access)
    {
        const JsonNode *admin = field(root, QString(), u"admin"_s, Type::Object);
        if (!admin)
            return;
        const QString path = u"admin"_s;
        checkFields(*admin, path, AdminFields);
        const JsonNode *token = field(*admin, path, u"token"_s, Type::String);
        const JsonNode *file = field(*admin, path, u"token_file"_s, Type::String);
        const JsonNode *env = field(*admin, path, u"token_env"_s, Type::String);
        if (int(token != nullptr) + int(file != nullptr) + int(env != nullptr) > 1) {
            error(admin->line, path, tr("use one of token, token_file and token_env"));
            return;
        }
        QString value;
        const JsonNode *from = token ? token : file ? file : env;
        if (!from)
            return;
        const QString fromPath = join(path, from->key);
        if (token) {
            value = token->string;
        } else if (file) {
            const std::optional<QByteArray> data = readSecretFile(*file, fromPath);
            if (!data)
                return;
            value = QString::fromUtf8(data->trimmed());
            if (value.contains(u'\n')) {
                error(file->line, fromPath, tr("\"%1\" must hold the token alone, on one line").arg(file->string));
                return;
            }
        } else {
            const std::optional<QByteArray> data = readSecretEnv(*env, fromPath);
            if (!data)
                return;
            value = QString::fromUtf8(data->trimmed());
        }
        if (value.isEmpty()) {
            error(from->line, fromPath, tr("must not be empty (leave the field out for no token)"));
            return;
        }
        if (checkSecret(value, from->line, fromPath, tr("the token")))
            access.adminToken = value;
    }

    // tls.cert and tls.key: both or neither, each a readable PEM file.
    void readTls(const JsonNode &root, AccessConfig &access)
    {
        const JsonNode *tls = field(root, QString(), u"tls"_s, Type::Object);
        if (!tls)
            return;
        const QString path = u"tls"_s;
        checkFields(*tls, path, TlsFields);
        const JsonNode *cert = field(*tls, path, u"cert"_s, Type::String, true);
        const JsonNode *key = field(*tls, path, u"key"_s, Type::String, true);
        if (cert) {
            const QString certPath = join(path, u"cert"_s);
            if (const std::optional<QString> file = absolutePath(*cert, certPath)) {
                QString why;
                const QList<QSslCertificate> chain = TlsCredentials::readCertificates(*file, &why);
                if (chain.isEmpty() || chain.first().isNull())
                    error(cert->line, certPath, why);
                else
                    access.tlsCertFile = *file;
            }
        }
        if (key) {
            const QString keyPath = join(path, u"key"_s);
            if (const std::optional<QString> file = absolutePath(*key, keyPath)) {
                QString why;
                if (TlsCredentials::readKey(*file, &why).isNull())
                    error(key->line, keyPath, why);
                else
                    access.tlsKeyFile = *file;
            }
        }
    }

    void readAgentDocument(const JsonNode &root, AgentConfig &config)
    {
        if (!root.isObject()) {
            error(root.line, QString(), tr("expected an object, got %1").arg(describe(root)));
            return;
        }
        checkDuplicates(root, QString());
        checkFields(root, QString(), AgentTopFields, TopFields,
                    tr("this is an agent's file: it lists the box's own engines, not hosts"));

        const JsonNode *listen = field(root, QString(), u"listen"_s, Type::String);
        if (listen) {
            QString why;
            if (!ConfigLoader::parseListen(listen->string, &config.listenAddress, &config.listenPort, &why))
                error(listen->line, u"listen"_s, why);
        }
        if (const JsonNode *token = field(root, QString(), u"token"_s, Type::String)) {
            if (token->string.trimmed().isEmpty())
                error(token->line, u"token"_s, tr("must not be empty (leave the field out for no token)"));
            else
                config.token = token->string;
        }
        readStateDir(root, config.stateDir);

        const JsonNode *engines = field(root, QString(), u"engines"_s, Type::Object, true);
        if (engines) {
            QSet<QString> seen;
            for (const JsonNode &node : engines->children) {
                if (isComment(node.key) || seen.contains(node.key))
                    continue;
                seen.insert(node.key);
                const QString path = join(u"engines"_s, node.key);
                if (!ConfigLoader::isValidEngineName(node.key)) {
                    error(node.line, path,
                          tr("invalid engine name \"%1\": use only letters, digits, '.', '_' and '-'").arg(node.key));
                }
                if (!node.isObject()) {
                    typeError(node, path, Type::Object);
                    continue;
                }
                checkFields(node, path, AgentEngineFields);
                EngineConfig engine;
                engine.name = node.key;
                if (const JsonNode *url = field(node, path, u"url"_s, Type::String, true)) {
                    if (std::optional<QUrl> parsed = readUrl(*url, join(path, u"url"_s)))
                        engine.url = *parsed;
                }
                readArgv(node, path, engine);
                readSeconds(node, path, u"start_timeout_s"_s, engine.startTimeout);
                readSeconds(node, path, u"stop_timeout_s"_s, engine.stopTimeout);
                config.engines.append(engine);
            }
            if (seen.isEmpty())
                error(engines->line, u"engines"_s, tr("no engines configured; an agent needs at least one"));
        }

        // Open to the LAN without a token, anyone there could switch and stop the box's engines:
        // the agent takes orders only from a relay that knows its token.
        const bool loopback = config.listenAddress.isLoopback();
        if (config.token.isEmpty() && !loopback && errorsAreEmpty()) {
            error(listen ? listen->line : root.line, u"token"_s,
                  tr("required when listening on %1: without it anyone who can reach the agent can switch "
                     "and stop this box's engines (or listen on 127.0.0.1)")
                      .arg(listen ? listen->string : u"0.0.0.0:%1"_s.arg(ConfigLoader::DefaultAgentPort)));
        }
    }

    static std::optional<QUrl> httpUrl(const QString &text, QString *why)
    {
        if (text.trimmed().isEmpty()) {
            *why = tr("must not be empty");
            return std::nullopt;
        }
        QUrl url(text, QUrl::StrictMode);
        if (!url.isValid()) {
            *why = tr("not a valid URL: \"%1\"").arg(text);
            return std::nullopt;
        }
        // The relay talks plain HTTP to engines and agents: refused here, an https:// URL
        // would fail on every request with a garbled answer instead.
        if (url.scheme() == u"https") {
            *why = tr("https:// is not supported for engines and agents (the relay speaks plain HTTP to them): "
                      "use http://, or terminate TLS on the box, got \"%1\"").arg(text);
            return std::nullopt;
        }
        if (url.scheme() != u"http") {
            *why = tr("expected an http:// URL, got \"%1\"").arg(text);
            return std::nullopt;
        }
        if (url.host().isEmpty()) {
            *why = tr("the URL has no host: \"%1\"").arg(text);
            return std::nullopt;
        }
        if (url.hasQuery() || url.hasFragment()) {
            *why = tr("the URL must not have a query or fragment: \"%1\"").arg(text);
            return std::nullopt;
        }
        // A base URL: request paths are appended to it, so "http://x:8080/" means "http://x:8080".
        QString path = url.path();
        while (path.endsWith(u'/'))
            path.chop(1);
        url.setPath(path);
        return url;
    }

private:
    QString typeName(Type type) const
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

    QString describe(const JsonNode &node) const
    {
        if (node.type == Type::Bool)
            return node.boolean ? u"true"_s : u"false"_s;
        return typeName(node.type);
    }

    void typeError(const JsonNode &node, const QString &path, Type wanted)
    {
        error(node.line, path, tr("expected %1, got %2").arg(typeName(wanted), describe(node)));
    }

    // Duplicate keys anywhere: QJsonDocument would silently keep the last one.
    void checkDuplicates(const JsonNode &node, const QString &path)
    {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const JsonNode &child = node.children[i];
            const QString childPath = node.isObject() ? join(path, child.key) : itemPath(path, i);
            if (node.isObject() && !isComment(child.key)) {
                for (std::size_t j = 0; j < i; ++j) {
                    if (node.children[j].key == child.key) {
                        error(child.line, childPath,
                              tr("duplicate key (first on line %1)").arg(node.children[j].line));
                        break;
                    }
                }
            }
            checkDuplicates(child, childPath);
        }
    }

    // Unknown fields are errors: a typo must not quietly fall back to a default.
    void checkFields(const JsonNode &object, const QString &path, const QStringList &known,
                     const QStringList &misplaced = {}, const QString &misplacedHint = {})
    {
        for (const JsonNode &child : object.children) {
            if (isComment(child.key) || known.contains(child.key))
                continue;
            QString message;
            const QString guess = closest(child.key, known);
            if (!guess.isEmpty())
                message = tr("unknown field (did you mean \"%1\"?)").arg(guess);
            else if (misplaced.contains(child.key))
                message = tr("unknown field here (%1)").arg(misplacedHint);
            else
                message = tr("unknown field (known fields: %1)").arg(known.join(u", "_s));
            error(child.line, join(path, child.key), message);
        }
    }

    // The member `key` of object if it exists and has the wanted type; reports what is wrong.
    const JsonNode *field(const JsonNode &object, const QString &objectPath, const QString &key, Type type,
                          bool required = false)
    {
        const JsonNode *node = object.member(key);
        if (!node) {
            if (required)
                error(object.line, join(objectPath, key), tr("required field missing"));
            return nullptr;
        }
        if (node->type != type) {
            typeError(*node, join(objectPath, key), type);
            return nullptr;
        }
        return node;
    }

    std::optional<QUrl> readUrl(const JsonNode &node, const QString &path)
    {
        QString why;
        std::optional<QUrl> url = httpUrl(node.string, &why);
        if (!url)
            error(node.line, path, why);
        return url;
    }

    // Every item must be a string; nullopt after reporting the first that is not.
    std::optional<QStringList> readStrings(const JsonNode &array, const QString &path)
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

    void readSeconds(const JsonNode &object, const QString &path, const QString &key,
                     std::chrono::milliseconds &target)
    {
        const JsonNode *node = field(object, path, key, Type::Number);
        if (!node)
            return;
        if (!(node->number > 0)) {
            error(node->line, join(path, key), tr("must be greater than 0"));
            return;
        }
        if (node->number > MaxSeconds) {
            error(node->line, join(path, key), tr("must be at most %1 (a day)").arg(MaxSeconds));
            return;
        }
        const auto ms = std::chrono::milliseconds(std::llround(node->number * 1000));
        if (ms.count() < 1) {
            error(node->line, join(path, key), tr("must be at least 0.001"));
            return;
        }
        target = ms;
    }

    bool errorsAreEmpty() const { return m_errors.isEmpty(); }

    // An absolute path; "~/" is the home folder. Relative paths would depend on where it was started.
    void readStateDir(const JsonNode &root, QString &target)
    {
        const JsonNode *dir = field(root, QString(), u"state_dir"_s, Type::String);
        if (!dir)
            return;
        QString path = dir->string;
        if (path == u"~" || path.startsWith(u"~/"))
            path = QDir::homePath() + path.mid(1);
        if (path.trimmed().isEmpty())
            error(dir->line, u"state_dir"_s, tr("must not be empty (leave the field out for the default)"));
        else if (!QDir::isAbsolutePath(path))
            error(dir->line, u"state_dir"_s, tr("must be an absolute path (or start with \"~/\"), got \"%1\"").arg(dir->string));
        else
            target = QDir::cleanPath(path);
    }

    void readArgv(const JsonNode &node, const QString &path, EngineConfig &engine, bool required = true)
    {
        const QString argvPath = join(path, u"argv"_s);
        const JsonNode *argv = field(node, path, u"argv"_s, Type::Array, required);
        if (!argv)
            return;
        if (std::optional<QStringList> list = readStrings(*argv, argvPath)) {
            if (list->isEmpty())
                error(argv->line, argvPath, tr("must not be empty: give the program and its arguments"));
            else if (list->first().trimmed().isEmpty())
                error(argv->children.front().line, itemPath(argvPath, 0), tr("the program must not be empty"));
            else
                engine.argv = *list;
        }
    }

    void readHosts(const JsonNode &root, Config &config)
    {
        const JsonNode *hosts = field(root, QString(), u"hosts"_s, Type::Object, true);
        if (!hosts)
            return;
        QSet<QString> seen;
        int count = 0;
        for (const JsonNode &node : hosts->children) {
            if (isComment(node.key))
                continue;
            ++count;
            if (seen.contains(node.key))
                continue;   // reported as a duplicate key
            seen.insert(node.key);
            const QString path = join(u"hosts"_s, node.key);
            if (!ConfigLoader::isValidHostName(node.key)) {
                error(node.line, path,
                      tr("invalid host name \"%1\": use only letters, digits, '.' and '_' "
                         "(no '-': clients name models \"<host>-<model>\")").arg(node.key));
            }
            readHost(node, path, config);
        }
        if (count == 0)
            error(hosts->line, u"hosts"_s, tr("no hosts configured; add at least one"));
    }

    void readHost(const JsonNode &node, const QString &path, Config &config)
    {
        if (!node.isObject()) {
            typeError(node, path, Type::Object);
            return;
        }
        checkFields(node, path, HostFields, EngineFields,
                    tr("engine fields go inside \"engines\": {\"NAME\": {...}}"));

        HostConfig host;
        host.name = node.key;
        bool driverKnown = true;
        if (const JsonNode *driver = node.member(u"driver"_s)) {
            if (!driver->isString()) {
                typeError(*driver, join(path, u"driver"_s), Type::String);
                driverKnown = false;
            } else if (!Drivers.contains(driver->string)) {
                const QString guess = closest(driver->string, Drivers);
                error(driver->line, join(path, u"driver"_s),
                      guess.isEmpty()
                          ? tr("unknown driver \"%1\" (expected static, local, agent or command)").arg(driver->string)
                          : tr("unknown driver \"%1\" (did you mean \"%2\"?)").arg(driver->string, guess));
                driverKnown = false;
            } else {
                host.driver = driver->string;
            }
        }

        const QString agentPath = join(path, u"agent"_s);
        if (driverKnown && host.driver == u"agent") {
            if (const JsonNode *agent = field(node, path, u"agent"_s, Type::String, true)) {
                if (std::optional<QUrl> url = readUrl(*agent, agentPath))
                    host.agent = *url;
            }
        } else if (const JsonNode *agent = node.member(u"agent"_s); agent && driverKnown) {
            error(agent->line, agentPath, tr("only used with driver \"agent\""));
        }
        const QString tokenPath = join(path, u"token"_s);
        if (driverKnown && host.driver == u"agent") {
            if (const JsonNode *token = field(node, path, u"token"_s, Type::String)) {
                if (token->string.trimmed().isEmpty())
                    error(token->line, tokenPath, tr("must not be empty (leave the field out for no token)"));
                else
                    host.token = token->string;
            }
        } else if (const JsonNode *token = node.member(u"token"_s); token && driverKnown) {
            error(token->line, tokenPath, tr("only used with driver \"agent\""));
        }

        if (const JsonNode *key = field(node, path, u"api_key"_s, Type::String)) {
            if (key->string.isEmpty())
                error(key->line, join(path, u"api_key"_s), tr("must not be empty (leave the field out for no key)"));
            else if (checkSecret(key->string, key->line, join(path, u"api_key"_s), tr("the key")))
                host.apiKey = key->string;
        }

        const JsonNode *engines = field(node, path, u"engines"_s, Type::Object, true);
        if (!engines) {
            config.hosts.append(host);
            return;
        }
        const QString enginesPath = join(path, u"engines"_s);
        QSet<QString> seen;
        QHash<QString, QString> modelOwner;   // model key -> first engine listing it
        for (const JsonNode &engineNode : engines->children) {
            if (isComment(engineNode.key) || seen.contains(engineNode.key))
                continue;
            seen.insert(engineNode.key);
            const QString enginePath = join(enginesPath, engineNode.key);
            if (!ConfigLoader::isValidEngineName(engineNode.key)) {
                error(engineNode.line, enginePath,
                      tr("invalid engine name \"%1\": use only letters, digits, '.', '_' and '-'")
                          .arg(engineNode.key));
            }
            EngineConfig engine = readEngine(engineNode, enginePath, driverKnown ? host.driver : QString());
            // A model served by two engines of one host: the first engine wins, like the default.
            if (const JsonNode *models = engineNode.member(u"models"_s); models && models->isArray()) {
                for (std::size_t i = 0; i < models->children.size(); ++i) {
                    const JsonNode &model = models->children[i];
                    if (!model.isString() || model.string.isEmpty())
                        continue;
                    const QString owner = modelOwner.value(model.string);
                    if (owner.isEmpty()) {
                        modelOwner.insert(model.string, engine.name);
                    } else if (owner != engine.name) {
                        warning(model.line, itemPath(join(enginePath, u"models"_s), i),
                                tr("model \"%1\" is also listed by engine %2, which comes first and serves it")
                                    .arg(model.string, owner));
                    }
                }
            }
            host.engines.append(engine);
        }
        if (seen.isEmpty())
            error(engines->line, enginesPath, tr("no engines configured; a host needs at least one"));
        config.hosts.append(host);
    }

    // driver is empty when the host's driver is itself in error: driver checks are then skipped.
    EngineConfig readEngine(const JsonNode &node, const QString &path, const QString &driver)
    {
        EngineConfig engine;
        engine.name = node.key;
        if (!node.isObject()) {
            typeError(node, path, Type::Object);
            return engine;
        }
        checkFields(node, path, EngineFields);

        if (const JsonNode *url = field(node, path, u"url"_s, Type::String, true)) {
            if (std::optional<QUrl> parsed = readUrl(*url, join(path, u"url"_s)))
                engine.url = *parsed;
        }

        const QString modelsPath = join(path, u"models"_s);
        if (const JsonNode *models = field(node, path, u"models"_s, Type::Array)) {
            if (std::optional<QStringList> list = readStrings(*models, modelsPath)) {
                for (qsizetype i = 0; i < list->size(); ++i) {
                    const QString &key = list->at(i);
                    const int line = models->children[std::size_t(i)].line;
                    const QString keyPath = itemPath(modelsPath, std::size_t(i));
                    if (key.trimmed().isEmpty() || key != key.trimmed()) {
                        error(line, keyPath, tr("model keys must not be empty or start or end with spaces"));
                    } else if (engine.models.contains(key)) {
                        warning(line, keyPath, tr("model \"%1\" is listed twice").arg(key));
                    } else {
                        engine.models.append(key);
                    }
                }
            }
        }

        // The agent has its own list of engines and argv; in the relay's file argv is optional there.
        const QString argvPath = join(path, u"argv"_s);
        if (driver == u"local" || driver == u"agent") {
            readArgv(node, path, engine, driver == u"local");
        } else if (const JsonNode *argv = node.member(u"argv"_s); argv && !driver.isEmpty()) {
            error(argv->line, argvPath, tr("only used with drivers \"local\" and \"agent\""));
        }

        for (const QString &key : {u"start_timeout_s"_s, u"stop_timeout_s"_s}) {
            std::chrono::milliseconds &target = key == u"start_timeout_s" ? engine.startTimeout : engine.stopTimeout;
            if (driver != u"static")
                readSeconds(node, path, key, target);
            else if (const JsonNode *timeout = node.member(key))
                error(timeout->line, join(path, key), tr("not used with driver \"static\": its engines are never started or stopped"));
        }

        for (const QString &key : {u"start"_s, u"stop"_s}) {
            const QString keyPath = join(path, key);
            if (driver == u"command") {
                if (const JsonNode *command = field(node, path, key, Type::String, true)) {
                    if (command->string.trimmed().isEmpty())
                        error(command->line, keyPath, tr("must not be empty"));
                    else if (key == u"start")
                        engine.startCommand = command->string;
                    else
                        engine.stopCommand = command->string;
                }
            } else if (const JsonNode *command = node.member(key); command && !driver.isEmpty()) {
                error(command->line, keyPath, tr("only used with driver \"command\""));
            }
        }
        return engine;
    }

    void readAliases(const JsonNode &root, Config &config)
    {
        const JsonNode *aliases = field(root, QString(), u"aliases"_s, Type::Object);
        if (!aliases)
            return;
        // Names as written, even of hosts with errors, so one mistake is not reported twice.
        QStringList hostNames;
        if (const JsonNode *hosts = root.member(u"hosts"_s))
            for (const JsonNode &host : hosts->children)
                hostNames.append(host.key);

        QSet<QString> seen;
        for (const JsonNode &node : aliases->children) {
            if (isComment(node.key) || seen.contains(node.key))
                continue;
            seen.insert(node.key);
            const QString path = join(u"aliases"_s, node.key);
            const bool patternOk = !node.key.isEmpty()
                    && std::none_of(node.key.cbegin(), node.key.cend(),
                                    [](QChar c) { return c.isSpace() || !c.isPrint(); });
            if (!patternOk)
                error(node.line, path, tr("a pattern must not be empty or contain spaces or control characters"));
            if (!node.isString()) {
                typeError(node, path, Type::String);
                continue;
            }
            const QString &target = node.string;
            if (target.contains(u'*') || target.contains(u'?')) {
                error(node.line, path, tr("the target must be one model alias, not a pattern: \"%1\"").arg(target));
                continue;
            }
            const qsizetype dash = target.indexOf(u'-');
            const QString hostName = dash > 0 ? target.left(dash) : QString();
            const QString key = dash > 0 ? target.mid(dash + 1) : QString();
            if (hostName.isEmpty() || key.isEmpty() || !hostNames.contains(hostName)) {
                error(node.line, path,
                      tr("target \"%1\" is not a model of a configured host (expected \"<host>-<model>\", e.g. \"%2\")")
                          .arg(target, exampleAlias(config)));
                continue;
            }
            if (!patternOk)
                continue;
            if (const HostConfig *host = config.host(hostName)) {
                // Engines with a model list serve only those; without one they are asked at run time.
                const bool allListed = !host->engines.isEmpty()
                        && std::all_of(host->engines.cbegin(), host->engines.cend(),
                                       [](const EngineConfig &e) { return !e.models.isEmpty(); });
                const bool listed = std::any_of(host->engines.cbegin(), host->engines.cend(),
                                                [&](const EngineConfig &e) { return e.models.contains(key); });
                if (allListed && !listed)
                    warning(node.line, path, tr("no engine of host %1 lists model \"%2\"").arg(hostName, key));
            }
            config.aliases.append(AliasRule{node.key, target});
        }
    }

    static QString exampleAlias(const Config &config)
    {
        for (const HostConfig &host : config.hosts) {
            for (const EngineConfig &engine : host.engines) {
                if (!engine.models.isEmpty())
                    return host.name + u'-' + engine.models.first();
            }
        }
        if (!config.hosts.isEmpty())
            return config.hosts.first().name + u"-MODEL"_s;
        return u"3090-flint-40b"_s;
    }

    void readWaiting(const JsonNode &root, Config &config)
    {
        const JsonNode *waiting = field(root, QString(), u"waiting"_s, Type::Object);
        if (!waiting)
            return;
        const QString path = u"waiting"_s;
        checkFields(*waiting, path, WaitingFields);
        readSeconds(*waiting, path, u"early_200_after_s"_s, config.waiting.early200After);
        readSeconds(*waiting, path, u"comment_every_s"_s, config.waiting.commentEvery);
        for (const QString &key : WaitingFields) {
            const JsonNode *node = waiting->member(key);
            if (node && node->isNumber() && node->number >= NodeHeadersTimeoutSeconds && node->number <= MaxSeconds) {
                warning(node->line, join(path, key),
                        tr("clients on Node's fetch give up after %1 s without a response; keep this below that")
                            .arg(NodeHeadersTimeoutSeconds));
            }
        }
    }

    void readLimits(const JsonNode &root, Config &config)
    {
        const JsonNode *limits = field(root, QString(), u"limits"_s, Type::Object);
        if (!limits)
            return;
        const QString path = u"limits"_s;
        checkFields(*limits, path, LimitsFields);
        if (const JsonNode *mb = field(*limits, path, u"max_body_mb"_s, Type::Number)) {
            const QString mbPath = join(path, u"max_body_mb"_s);
            if (!(mb->number > 0))
                error(mb->line, mbPath, tr("must be greater than 0"));
            else if (mb->number > MaxBodyMb)
                error(mb->line, mbPath, tr("must be at most %1").arg(MaxBodyMb));
            else
                config.limits.maxBodyBytes = std::llround(mb->number * 1024 * 1024);
        }
        readSeconds(*limits, path, u"client_idle_timeout_s"_s, config.limits.clientIdleTimeout);
        readSeconds(*limits, path, u"header_timeout_s"_s, config.limits.headerTimeout);
        readSeconds(*limits, path, u"upstream_connect_timeout_s"_s, config.limits.upstreamConnectTimeout);
        readSeconds(*limits, path, u"poll_interval_s"_s, config.limits.pollInterval);
        readSeconds(*limits, path, u"upstream_inactivity_timeout_s"_s, config.limits.upstreamInactivityTimeout);
    }

    QString m_file;
    QList<ConfigError> m_errors;
    QList<ConfigError> m_warnings;
};

// QJsonParseError counts bytes; people count characters on a line.
void lineAndColumn(const QByteArray &json, qsizetype offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    const qsizetype end = std::min(offset, json.size());
    for (qsizetype i = json.startsWith("\xEF\xBB\xBF") ? 3 : 0; i < end; ++i) {
        const auto byte = static_cast<unsigned char>(json.at(i));
        if (byte == '\n') {
            ++*line;
            *column = 1;
        } else if ((byte & 0xC0) != 0x80) {   // not a UTF-8 continuation byte
            ++*column;
        }
    }
}

} // namespace

namespace {

// The relay's and the agent's files are read alike: JSON first (a syntax error names its line
// and column), then the validator's pass over the document.
template<typename Result, typename Parsed>
Result parseDocument(const QByteArray &json, const QString &fileName,
                     void (Validator::*read)(const JsonNode &, Parsed &))
{
    Validator validator(fileName);
    Parsed config;
    if (json.trimmed().isEmpty()) {
        validator.error(0, QString(), ConfigLoader::tr("the file is empty"));
        return validator.result(config);
    }
    QJsonParseError parseError;
    const std::optional<JsonNode> root = JsonNode::parse(json, &parseError);
    if (!root) {
        ConfigError error;
        error.file = fileName;
        lineAndColumn(json, parseError.offset, &error.line, &error.column);
        error.message = ConfigLoader::tr("JSON syntax error: %1").arg(parseError.errorString());
        Result result;
        result.errors.append(error);
        return result;
    }
    (validator.*read)(*root, config);
    return validator.result(config);
}

template<typename Result>
Result loadDocument(const QString &path, Result (*parse)(const QByteArray &, const QString &))
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        Result result;
        result.errors.append(ConfigError{path, 0, QString(),
                                         ConfigLoader::tr("cannot read the config file: %1").arg(file.errorString())});
        return result;
    }
    return parse(file.readAll(), path);
}

} // namespace

ConfigResult ConfigLoader::parse(const QByteArray &json, const QString &fileName)
{
    return parseDocument<ConfigResult>(json, fileName, &Validator::readDocument);
}

ConfigResult ConfigLoader::load(const QString &path)
{
    return loadDocument(path, &ConfigLoader::parse);
}

AgentConfigResult ConfigLoader::parseAgent(const QByteArray &json, const QString &fileName)
{
    return parseDocument<AgentConfigResult>(json, fileName, &Validator::readAgentDocument);
}

AgentConfigResult ConfigLoader::loadAgent(const QString &path)
{
    return loadDocument(path, &ConfigLoader::parseAgent);
}

bool ConfigLoader::looksLikeAgentConfig(const QByteArray &json)
{
    QJsonParseError parseError;
    const std::optional<JsonNode> root = JsonNode::parse(json, &parseError);
    return root && root->isObject() && root->member(u"engines") && !root->member(u"hosts");
}

ConfigResult ConfigLoader::fromFlags(const QString &listen, const QStringList &upstreams)
{
    Validator validator{QString()};
    Config config;
    const QString listenFlag = u"--listen"_s;
    const QString upstreamFlag = u"--upstream"_s;

    if (!listen.isEmpty()) {
        QString why;
        if (!parseListen(listen, &config.listenAddress, &config.listenPort, &why))
            validator.error(0, listenFlag, why);
        // Typing a LAN address on the command line is as explicit as "lan": true in a file.
        config.access.lan = !config.listenAddress.isLoopback();
    }
    if (upstreams.isEmpty())
        validator.error(0, upstreamFlag, tr("no upstreams; give at least one --upstream NAME=URL"));

    for (const QString &upstream : upstreams) {
        const qsizetype equals = upstream.indexOf(u'=');
        if (equals < 0) {
            validator.error(0, upstreamFlag, tr("expected NAME=URL, got \"%1\"").arg(upstream));
            continue;
        }
        HostConfig host;
        host.name = upstream.left(equals);
        host.driver = u"static"_s;
        bool ok = true;
        if (!isValidHostName(host.name)) {
            validator.error(0, upstreamFlag,
                            tr("invalid host name \"%1\": use only letters, digits, '.' and '_' "
                               "(no '-': clients name models \"<host>-<model>\")").arg(host.name));
            ok = false;
        } else if (config.host(host.name)) {
            validator.error(0, upstreamFlag, tr("host \"%1\" is given twice").arg(host.name));
            ok = false;
        }
        QString why;
        const std::optional<QUrl> url = Validator::httpUrl(upstream.mid(equals + 1), &why);
        if (!url) {
            validator.error(0, upstreamFlag, tr("%1: %2").arg(host.name, why));
            ok = false;
        }
        if (!ok)
            continue;
        EngineConfig engine;
        engine.name = u"main"_s;
        engine.url = *url;
        host.engines.append(engine);
        config.hosts.append(host);
    }
    return validator.result(config);
}

bool ConfigLoader::parseListen(const QString &text, QHostAddress *address, quint16 *port, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QString usage = tr("expected HOST:PORT, e.g. \"127.0.0.1:18766\", \"0.0.0.0:18766\" or \"[::1]:18766\"");

    QString hostPart;
    QString portPart;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0 || text.mid(close + 1, 1) != u":")
            return fail(usage);
        hostPart = text.mid(1, close - 1);
        portPart = text.mid(close + 2);
    } else {
        const qsizetype colon = text.lastIndexOf(u':');
        if (colon < 0)
            return fail(usage);
        hostPart = text.left(colon);
        portPart = text.mid(colon + 1);
        if (hostPart.contains(u':'))
            return fail(tr("an IPv6 address needs brackets, e.g. \"[::1]:18766\""));
    }

    bool portOk = !portPart.isEmpty() && portPart.size() <= 5
            && std::all_of(portPart.cbegin(), portPart.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    const uint portValue = portOk ? portPart.toUInt() : 0;
    if (!portOk || portValue > 65535)
        return fail(tr("invalid port \"%1\" (expected a number from 0 to 65535)").arg(portPart));

    QHostAddress parsed;
    if (hostPart.isEmpty()) {
        parsed = QHostAddress(QHostAddress::Any);
    } else if (hostPart.compare(u"localhost", Qt::CaseInsensitive) == 0) {
        parsed = QHostAddress(QHostAddress::LocalHost);
    } else if (!parsed.setAddress(hostPart)) {
        return fail(tr("\"%1\" is not an IP address (host names are not looked up; "
                       "use 0.0.0.0 for all interfaces)").arg(hostPart));
    }
    if (text.startsWith(u'[') && parsed.protocol() != QAbstractSocket::IPv6Protocol)
        return fail(tr("brackets are for IPv6 addresses: \"%1\"").arg(text));

    if (address)
        *address = parsed;
    if (port)
        *port = quint16(portValue);
    return true;
}

bool ConfigLoader::isValidHostName(const QString &name)
{
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'.' || c == u'_';
    });
}

bool ConfigLoader::isValidEngineName(const QString &name)
{
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'.' || c == u'_' || c == u'-';
    });
}

} // namespace switchyard
