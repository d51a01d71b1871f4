#pragma once

#include "config/accessconfigreader.h"
#include "config/config.h"
#include "config/fieldreader.h"
#include "config/hostconfigreader.h"
#include "config/jsonnode.h"
#include "config/secretreader.h"

#include <QCoreApplication>
#include <QStringList>

#include <optional>

namespace switchyard {

class ConfigReport;

// The relay's own file (`switchyard --config FILE`, check-config): where it listens, its hosts,
// aliases, waiting and limits, and who may use it. See docs/CONFIG.md.
class RelayConfigReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    explicit RelayConfigReader(ConfigReport &report);

    // The top-level fields, for telling a user who writes one in an agent's file what it is.
    static const QStringList &topFields();

    void read(const JsonNode &root, Config &config);

private:
    void readAliases(const JsonNode &root, Config &config);
    // One "<host>-<model>" of an alias: its model key, or nullopt after reporting what is wrong.
    std::optional<QString> readAliasTarget(const JsonNode &node, const QString &path,
                                           const QStringList &hostNames, const Config &config);
    void readWaiting(const JsonNode &root, Config &config);
    void readLimits(const JsonNode &root, Config &config);

    ConfigReport &m_report;
    FieldReader m_fields;
    SecretReader m_secrets;
    HostConfigReader m_hosts;
    AccessConfigReader m_access;
};

} // namespace switchyard
