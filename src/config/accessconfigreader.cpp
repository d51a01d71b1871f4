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

// clients.api_keys, api_keys_file (one key per line, # comments) and api_keys_env
// (separated by commas or white space); all the keys of all three count.
void AccessConfigReader::readClients(const JsonNode &clients, AccessConfig &access)
{
    const QString path = u"clients"_s;
    QStringList keys;
    if (const JsonNode *list = m_fields.field(clients, path, u"api_keys"_s, Type::Array)) {
        const QString listPath = memberPath(path, u"api_keys"_s);
        if (list->children.empty())
            m_report.error(list->line, listPath, tr("must not be empty (leave the field out for no keys)"));
        for (std::size_t i = 0; i < list->children.size(); ++i) {
            const JsonNode &item = list->children[i];
            if (!item.isString()) {
                m_fields.typeError(item, itemPath(listPath, i), Type::String);
            } else if (item.string.isEmpty()) {
                m_report.error(item.line, itemPath(listPath, i), tr("must not be empty"));
            } else if (m_secrets.check(item.string, item.line, itemPath(listPath, i), tr("this key"))) {
                keys.append(item.string);
            }
        }
    }
    if (const JsonNode *file = m_fields.field(clients, path, u"api_keys_file"_s, Type::String)) {
        const QString filePath = memberPath(path, u"api_keys_file"_s);
        if (const std::optional<QByteArray> data = m_secrets.readFile(*file, filePath)) {
            const QList<QByteArray> lines = data->split('\n');
            qsizetype found = 0;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                const QString key = QString::fromUtf8(lines.at(i).trimmed());
                if (key.isEmpty() || key.startsWith(u'#'))
                    continue;
                if (m_secrets.check(key, file->line, filePath, tr("line %1 of the file").arg(i + 1))) {
                    keys.append(key);
                    ++found;
                }
            }
            if (found == 0)
                m_report.error(file->line, filePath, tr("\"%1\" holds no keys (one per line)").arg(file->string));
        }
    }
    if (const JsonNode *env = m_fields.field(clients, path, u"api_keys_env"_s, Type::String)) {
        const QString envPath = memberPath(path, u"api_keys_env"_s);
        if (const std::optional<QByteArray> value = m_secrets.readEnv(*env, envPath)) {
            const QStringList parts = QString::fromUtf8(*value).split(QRegularExpression(u"[\\s,]+"_s),
                                                                      Qt::SkipEmptyParts);
            for (const QString &key : parts) {
                if (m_secrets.check(key, env->line, envPath, tr("the variable %1").arg(env->string)))
                    keys.append(key);
            }
        }
    }
    keys.removeDuplicates();
    access.clientKeys = keys;
}

// admin.token (or metrics.token), or token_file (its first line), or token_env: one of them.
// Empty when none is given or the one given is wrong (the report says why).
QString AccessConfigReader::readToken(const JsonNode &section, const QString &path)
{
    const JsonNode *token = m_fields.field(section, path, u"token"_s, Type::String);
    const JsonNode *file = m_fields.field(section, path, u"token_file"_s, Type::String);
    const JsonNode *env = m_fields.field(section, path, u"token_env"_s, Type::String);
    if (int(token != nullptr) + int(file != nullptr) + int(env != nullptr) > 1) {
        m_report.error(section.line, path, tr("use one of token, token_file and token_env"));
        return {};
    }
    QString value;
    const JsonNode *from = token ? token : file ? file : env;
    if (!from)
        return {};
    const QString fromPath = memberPath(path, from->key);
    if (token) {
        value = token->string;
    } else if (file) {
        const std::optional<QByteArray> data = m_secrets.readFile(*file, fromPath);
        if (!data)
            return {};
        value = QString::fromUtf8(data->trimmed());
        if (value.contains(u'\n')) {
            m_report.error(file->line, fromPath, tr("\"%1\" must hold the token alone, on one line").arg(file->string));
            return {};
        }
    } else {
        const std::optional<QByteArray> data = m_secrets.readEnv(*env, fromPath);
        if (!data)
            return {};
        value = QString::fromUtf8(data->trimmed());
    }
    if (value.isEmpty()) {
        m_report.error(from->line, fromPath, tr("must not be empty (leave the field out for no token)"));
        return {};
    }
    return m_secrets.check(value, from->line, fromPath, tr("the token")) ? value : QString();
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
