#pragma once

#include "config/config.h"
#include "config/configreport.h"
#include "config/fieldreader.h"
#include "config/jsonnode.h"
#include "config/secretreader.h"

#include <QCoreApplication>

namespace switchyard {

// The relay file's "clients", "admin" and "tls": who may use the relay. See docs/SECURITY.md.
class AccessConfigReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    AccessConfigReader(ConfigReport &report, FieldReader &fields, SecretReader &secrets);

    // Leaves access.lan alone: it is read with "listen".
    void read(const JsonNode &root, AccessConfig &access);

private:
    // A client key as read, with where it was, for the duplicate checks.
    struct FoundKey
    {
        ClientApiKey key;
        int line = 0;
        QString path;     // its field: "clients.api_keys[2].key_file"
        QString where;    // within that field: "line 3 of the file", or empty
        int nameLine = 0;     // where a name given as "name" is; else 0 (line and path hold)
        QString namePath;
    };

    void readClients(const JsonNode &clients, AccessConfig &access);
    void readNamedKey(const JsonNode &item, const QString &path, QList<FoundKey> &found);
    QString readToken(const JsonNode &section, const QString &path);
    QString readSecret(const JsonNode &section, const QString &path, const QString &field, const JsonNode **from);
    void readTls(const JsonNode &tls, AccessConfig &access);

    ConfigReport &m_report;
    FieldReader &m_fields;
    SecretReader &m_secrets;
};

} // namespace switchyard
