#pragma once

#include "config/config.h"
#include "config/fieldreader.h"
#include "config/jsonnode.h"

#include <QCoreApplication>

namespace switchyard {

class ConfigReport;

// The agent's own file (`switchyard agent --config FILE`): where it answers the relay, its token,
// and the engines of its box with their argv.
class AgentConfigReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    explicit AgentConfigReader(ConfigReport &report) : m_report(report), m_fields(report) {}

    void read(const JsonNode &root, AgentConfig &config);

private:
    void readEngines(const JsonNode &root, AgentConfig &config);
    void readBoxAsHost(const JsonNode &root, AgentConfig &config);

    ConfigReport &m_report;
    FieldReader m_fields;
};

} // namespace switchyard
