#include "config/accessconfigreader.h"

#include "config/configreport.h"
#include "config/fieldpath.h"
#include "config/fieldreader.h"
#include "config/secretreader.h"
#include "http/tlscredentials.h"

#include <QRegularExpression>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

namespace {

const QStringList ClientsFields = {u"api_keys"_s, u"api_keys_file"_s, u"api_keys_env"_s};
const QStringList TokenFields = {u"token"_s, u"token_file"_s, u"token_env"_s};
const QStringList TlsFields = {u"cert"_s, u"key"_s};
const QStringList KeyFields = {u"name"_s, u"key"_s, u"key_file"_s, u"key_env"_s};

} // namespace

AccessConfigReader::AccessConfigReader(ConfigReport &report, FieldReader &fields, SecretReader &secrets)
    : m_report(report), m_fields(fields), m_secrets(secrets)
{
}

void AccessConfigReader::read(const JsonNode &root, AccessConfig &access)
{
    if (const JsonNode *clients = m_fields.section(root, u"clients"_s, ClientsFields))
        readClients(*clients, access);
    if (const JsonNode *admin = m_fields.section(root, u"admin"_s, TokenFields))
        access.adminToken = readToken(*admin, u"admin"_s);
    if (const JsonNode *metrics = m_fields.section(root, u"metrics"_s, TokenFields))
        access.metricsToken = readToken(*metrics, u"metrics"_s);
    if (const JsonNode *tls = m_fields.section(root, u"tls"_s, TlsFields))
        readTls(*tls, access);
}

// clients.api_keys (strings, or objects with a name and one of key, key_file and key_env),
// api_keys_file (one key per line, # comments) and api_keys_env (separated by commas or white
// space); all the keys of all three count. Each key has a name for the history and the metrics:
// its own, or "key<N>" (position N in api_keys, from 1), "file<N>", "env<N>" (Nth key found there).
// No two keys share a name or a key.
void AccessConfigReader::readClients(const JsonNode &clients, AccessConfig &access)
{
    const QString path = u"clients"_s;
    QList<FoundKey> found;
    if (const JsonNode *list = m_fields.field(clients, path, u"api_keys"_s, Type::Array)) {
        const QString listPath = memberPath(path, u"api_keys"_s);
        if (list->children.empty())
            m_report.error(list->line, listPath, tr("must not be empty (leave the field out for no keys)"));
        for (std::size_t i = 0; i < list->children.size(); ++i) {
            const JsonNode &item = list->children[i];
            const QString at = itemPath(listPath, i);
            if (item.isObject()) {
                readNamedKey(item, at, found);
            } else if (!item.isString()) {
                m_fields.typeError(item, at, Type::String);
            } else if (item.string.isEmpty()) {
                m_report.error(item.line, at, tr("must not be empty"));
            } else if (m_secrets.check(item.string, item.line, at, tr("this key"))) {
                found.append({{u"key%1"_s.arg(i + 1), item.string}, item.line, at, {}, 0, {}});
            }
        }
    }
    if (const JsonNode *file = m_fields.field(clients, path, u"api_keys_file"_s, Type::String)) {
        const QString filePath = memberPath(path, u"api_keys_file"_s);
        if (const std::optional<QByteArray> data = m_secrets.readFile(*file, filePath)) {
            const QList<QByteArray> lines = data->split('\n');
            qsizetype count = 0;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                const QString key = QString::fromUtf8(lines.at(i).trimmed());
                if (key.isEmpty() || key.startsWith(u'#'))
                    continue;
                const QString where = tr("line %1 of the file").arg(i + 1);
                if (m_secrets.check(key, file->line, filePath, where))
                    found.append({{u"file%1"_s.arg(++count), key}, file->line, filePath, where, 0, {}});
            }
            if (count == 0)
                m_report.error(file->line, filePath, tr("\"%1\" holds no keys (one per line)").arg(file->string));
        }
    }
    if (const JsonNode *env = m_fields.field(clients, path, u"api_keys_env"_s, Type::String)) {
        const QString envPath = memberPath(path, u"api_keys_env"_s);
        if (const std::optional<QByteArray> value = m_secrets.readEnv(*env, envPath)) {
            const QStringList parts = QString::fromUtf8(*value).split(QRegularExpression(u"[\\s,]+"_s),
                                                                      Qt::SkipEmptyParts);
            qsizetype count = 0;
            for (const QString &key : parts) {
                const QString where = tr("the variable %1").arg(env->string);
                if (m_secrets.check(key, env->line, envPath, where))
                    found.append({{u"env%1"_s.arg(++count), key}, env->line, envPath, where, 0, {}});
            }
        }
    }
    QList<ClientApiKey> keys;
    for (qsizetype i = 0; i < found.size(); ++i) {
        const FoundKey &f = found.at(i);
        const QString prefix = f.where.isEmpty() ? QString() : f.where + u": "_s;
        bool unique = true;
        for (qsizetype j = 0; j < i && unique; ++j) {
            const FoundKey &earlier = found.at(j);
            const QString other = earlier.where.isEmpty() ? earlier.path : earlier.path + u" ("_s + earlier.where + u')';
            if (earlier.key.name == f.key.name) {
                const QString otherName = earlier.nameLine ? earlier.namePath : other;
                m_report.error(f.nameLine ? f.nameLine : f.line, f.nameLine ? f.namePath : f.path,
                               prefix + tr("the name \"%1\" is already used by %2").arg(f.key.name, otherName));
                unique = false;
            } else if (earlier.key.key == f.key.key) {
                // Which name would the history give it? Never quotes the key.
                m_report.error(f.line, f.path, prefix + tr("the same key as %1").arg(other));
                unique = false;
            }
        }
        if (unique)
            keys.append(f.key);
    }
    access.clientKeys = keys;
}

// {"name": "laptop", "key": "..."} (or key_file, key_env) in clients.api_keys.
void AccessConfigReader::readNamedKey(const JsonNode &item, const QString &path, QList<FoundKey> &found)
{
    m_fields.checkFields(item, path, KeyFields);
    const JsonNode *name = m_fields.field(item, path, u"name"_s, Type::String, true);
    bool ok = name != nullptr;
    if (name && name->string.isEmpty()) {
        m_report.error(name->line, memberPath(path, u"name"_s), tr("must not be empty"));
        ok = false;
    } else if (name && !QRegularExpression(u"\\A[A-Za-z0-9._-]{1,64}\\z"_s).match(name->string).hasMatch()) {
        m_report.error(name->line, memberPath(path, u"name"_s),
                       tr("invalid key name \"%1\": use at most 64 letters, digits, '.', '_' and '-'")
                               .arg(name->string.left(80)));
        ok = false;
    }
    const JsonNode *keyField = nullptr;
    const QString key = readSecret(item, path, u"key"_s, &keyField);
    if (key.isEmpty()) {
        if (!keyField)
            m_report.error(item.line, path, tr("needs one of key, key_file and key_env"));
        return;
    }
    if (ok)
        found.append({{name->string, key}, keyField->line, memberPath(path, keyField->key), {}, name->line,
                      memberPath(path, u"name"_s)});
}

// admin.token (or metrics.token), or token_file (its first line), or token_env: one of them.
// Empty when none is given or the one given is wrong (the report says why).
QString AccessConfigReader::readToken(const JsonNode &section, const QString &path)
{
    return readSecret(section, path, u"token"_s, nullptr);
}

// field, field_file or field_env of section ("token" or a named client "key"): one of them.
// Empty when none is given or the one given is wrong; *from: the member it was read from.
QString AccessConfigReader::readSecret(const JsonNode &section, const QString &path, const QString &field,
                                       const JsonNode **from)
{
    const bool isToken = field == u"token"_s;
    const JsonNode *token = m_fields.field(section, path, field, Type::String);
    const JsonNode *file = m_fields.field(section, path, field + u"_file"_s, Type::String);
    const JsonNode *env = m_fields.field(section, path, field + u"_env"_s, Type::String);
    if (from)
        *from = token ? token : file ? file : env;
    if (int(token != nullptr) + int(file != nullptr) + int(env != nullptr) > 1) {
        m_report.error(section.line, path, isToken ? tr("use one of token, token_file and token_env")
                                                   : tr("use one of key, key_file and key_env"));
        return {};
    }
    QString value;
    const JsonNode *given = token ? token : file ? file : env;
    if (!given)
        return {};
    const QString fromPath = memberPath(path, given->key);
    if (token) {
        value = token->string;
    } else if (file) {
        const std::optional<QByteArray> data = m_secrets.readFile(*file, fromPath);
        if (!data)
            return {};
        value = QString::fromUtf8(data->trimmed());
        if (value.contains(u'\n')) {
            m_report.error(file->line, fromPath,
                           isToken ? tr("\"%1\" must hold the token alone, on one line").arg(file->string)
                                   : tr("\"%1\" must hold the key alone, on one line").arg(file->string));
            return {};
        }
    } else {
        const std::optional<QByteArray> data = m_secrets.readEnv(*env, fromPath);
        if (!data)
            return {};
        value = QString::fromUtf8(data->trimmed());
    }
    if (value.isEmpty()) {
        m_report.error(given->line, fromPath, isToken ? tr("must not be empty (leave the field out for no token)")
                                                      : tr("must not be empty"));
        return {};
    }
    return m_secrets.check(value, given->line, fromPath, isToken ? tr("the token") : tr("this key")) ? value : QString();
}

// tls.cert and tls.key: both or neither, each a readable PEM file.
void AccessConfigReader::readTls(const JsonNode &tls, AccessConfig &access)
{
    const QString path = u"tls"_s;
    const JsonNode *cert = m_fields.field(tls, path, u"cert"_s, Type::String, true);
    const JsonNode *key = m_fields.field(tls, path, u"key"_s, Type::String, true);
    if (cert) {
        const QString certPath = memberPath(path, u"cert"_s);
        if (const std::optional<QString> file = m_fields.absolutePath(*cert, certPath)) {
            QString why;
            const QList<QSslCertificate> chain = TlsCredentials::readCertificates(*file, &why);
            if (chain.isEmpty() || chain.first().isNull())
                m_report.error(cert->line, certPath, why);
            else
                access.tlsCertFile = *file;
        }
    }
    if (key) {
        const QString keyPath = memberPath(path, u"key"_s);
        if (const std::optional<QString> file = m_fields.absolutePath(*key, keyPath)) {
            QString why;
            if (TlsCredentials::readKey(*file, &why).isNull())
                m_report.error(key->line, keyPath, why);
            else
                access.tlsKeyFile = *file;
        }
    }
}

} // namespace switchyard
