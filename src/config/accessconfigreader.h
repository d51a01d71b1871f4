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
    void readClients(const JsonNode &clients, AccessConfig &access);
    QString readToken(const JsonNode &section, const QString &path);
    void readTls(const JsonNode &tls, AccessConfig &access);

    ConfigReport &m_report;
    FieldReader &m_fields;
    SecretReader &m_secrets;
};

} // namespace switchyard
