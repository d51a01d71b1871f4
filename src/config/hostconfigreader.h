#pragma once

#include "config/config.h"
#include "config/configreport.h"
#include "config/fieldreader.h"
#include "config/jsonnode.h"
#include "config/secretreader.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace switchyard {

// The relay file's "hosts": each GPU box, its driver and its engines. Which fields a host and an
// engine need depends on the driver.
class HostConfigReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    HostConfigReader(ConfigReport &report, FieldReader &fields, SecretReader &secrets);

    // The fields of one host, for telling a user who writes one at the top where it goes.
    static const QStringList &hostFields();
    // Where a local host's engines save prompt caches when the config names no folder.
    static QString defaultSlotFolder(const QString &host);

    void read(const JsonNode &root, Config &config);
    // "prompt_cache" of a host whose engines this program starts (driver "local"; an agent's
    // whole box): its folder, given or the default one, added to every engine's argv.
    void readPromptCache(const JsonNode &node, const QString &path, HostConfig &host);
    // A "scheduling" section: a host's in the relay's file, the box's in an agent's.
    static void readScheduling(ConfigReport &report, FieldReader &fields, const JsonNode &node, const QString &path,
                               SchedulingConfig &scheduling);

    // "idle_stop_after_s" and "sleep_command" of a host whose engines can be stopped (a relay's
    // host of another driver than "static", an agent's whole box).
    void readIdleAndSleep(const JsonNode &node, const QString &path, HostConfig &host);

private:
    void readHost(const JsonNode &node, const QString &path, Config &config);
    void readApiKey(const JsonNode &node, const QString &path, HostConfig &host);
    void defaultPromptCache(const JsonNode &node, const QString &path, HostConfig &host);
    void readPower(const JsonNode &node, const QString &path, const QString &driver, HostConfig &host);
    void readEngines(const JsonNode &engines, const QString &enginesPath, const QString &driver, HostConfig &host);
    // driver is empty when the host's driver is itself in error: driver checks are then skipped.
    EngineConfig readEngine(const JsonNode &node, const QString &path, const QString &driver);
    void readModels(const JsonNode &node, const QString &path, EngineConfig &engine);
    void readDriverFields(const JsonNode &node, const QString &path, const QString &driver, EngineConfig &engine);
    // A field the host's driver does not use: an error, not quietly ignored.
    void rejectField(const JsonNode &object, const QString &objectPath, const QString &key, const QString &message);
    void warnIfTheAgentDecides(const JsonNode &node, const QString &path, const QString &key);

    ConfigReport &m_report;
    FieldReader &m_fields;
    SecretReader &m_secrets;
};

} // namespace switchyard
