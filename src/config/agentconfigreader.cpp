#include "config/agentconfigreader.h"

#include "config/configloader.h"
#include "config/confignames.h"
#include "config/configreport.h"
#include "config/fieldpath.h"
#include "config/hostconfigreader.h"
#include "config/relayconfigreader.h"
#include "config/secretreader.h"

#include <QDir>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

namespace {

const QStringList AgentTopFields = {u"listen"_s, u"token"_s, u"state_dir"_s, u"engines"_s, u"scheduling"_s,
                                    u"prompt_cache"_s, u"idle_stop_after_s"_s, u"sleep_command"_s};
const QStringList AgentEngineFields = {u"url"_s, u"argv"_s, u"start_timeout_s"_s, u"stop_timeout_s"_s,
                                       u"idle_stop_after_s"_s};

} // namespace

void AgentConfigReader::read(const JsonNode &root, AgentConfig &config)
{
    if (!m_fields.checkDocument(root, AgentTopFields, RelayConfigReader::topFields(),
                                tr("this is an agent's file: it lists the box's own engines, not hosts")))
        return;

    const JsonNode *listen = m_fields.readListen(root, config.listenAddress, config.listenPort);
    m_fields.readToken(root, QString(), u"token"_s, config.token);
    m_fields.readAbsolutePath(root, QString(), u"state_dir"_s, config.stateDir);
    readEngines(root, config);
    // How the box's arbiter orders the requests of every relay in front of it.
    HostConfigReader::readScheduling(m_report, m_fields, root, QString(), config.scheduling);
    readBoxAsHost(root, config);

    // Open to the LAN without a token, anyone there could switch and stop the box's engines:
    // the agent takes orders only from a relay that knows its token.
    const bool loopback = config.listenAddress.isLoopback();
    if (config.token.isEmpty() && !loopback && !m_report.hasErrors()) {
        m_report.error(listen ? listen->line : root.line, u"token"_s,
                       tr("required when listening on %1: without it anyone who can reach the agent can switch "
                          "and stop this box's engines (or listen on 127.0.0.1)")
                           .arg(listen ? listen->string : u"0.0.0.0:%1"_s.arg(ConfigLoader::DefaultAgentPort)));
    }
}

// The fields an agent's box shares with a relay's local host, read by the same code.
// Its prompt caches: the agent starts the box's engines, so it keeps their caches as a relay keeps
// a local host's, without a setting, in a folder of its own that it adds to every engine's argv.
// Its idle stop and sleep: a shared box stops its engine for idleness only by its agent's
// decision, which sees every relay's requests (a relay's own would cut another relay's stream).
void AgentConfigReader::readBoxAsHost(const JsonNode &root, AgentConfig &config)
{
    HostConfig box = config.asLocalHost(u"agent"_s);
    // With a state_dir of its own, the agent keeps the box's saves there too (its slots folder),
    // unless an engine's argv names a folder already.
    const bool named = std::any_of(box.engines.cbegin(), box.engines.cend(),
                                   [](const EngineConfig &e) { return e.argv.contains(u"--slot-save-path"_s); });
    if (!root.member(u"prompt_cache"_s) && !config.stateDir.isEmpty() && !named) {
        for (EngineConfig &engine : box.engines)
            engine.argv << u"--slot-save-path"_s << QDir(config.stateDir).filePath(u"slots"_s);
    }
    SecretReader secrets(m_report, m_fields);
    HostConfigReader host(m_report, m_fields, secrets);
    host.readPromptCache(root, QString(), box);
    host.readIdleAndSleep(root, QString(), box);
    config.engines = box.engines;
    config.promptCache = box.promptCache;
    config.idleStopAfter = box.idleStopAfter;
    config.sleepCommand = box.sleepCommand;
}

void AgentConfigReader::readEngines(const JsonNode &root, AgentConfig &config)
{
    const JsonNode *engines = m_fields.field(root, QString(), u"engines"_s, Type::Object, true);
    if (!engines)
        return;
    const std::vector<const JsonNode *> named = FieldReader::namedMembers(*engines);
    for (const JsonNode *node : named) {
        const QString path = memberPath(u"engines"_s, node->key);
        if (!ConfigNames::isValidEngineName(node->key))
            m_report.error(node->line, path, ConfigNames::invalidEngineName(node->key));
        if (!node->isObject()) {
            m_fields.typeError(*node, path, Type::Object);
            continue;
        }
        m_fields.checkFields(*node, path, AgentEngineFields);
        EngineConfig engine;
        engine.name = node->key;
        if (std::optional<QUrl> url = m_fields.readUrl(*node, path, u"url"_s))
            engine.url = *url;
        m_fields.readArgv(*node, path, engine);
        m_fields.readSeconds(*node, path, u"start_timeout_s"_s, engine.startTimeout);
        m_fields.readSeconds(*node, path, u"stop_timeout_s"_s, engine.stopTimeout);
        std::chrono::milliseconds idle{0};
        m_fields.readSeconds(*node, path, u"idle_stop_after_s"_s, idle);
        if (idle.count() > 0)
            engine.idleStopAfter = idle;
        config.engines.append(engine);
    }
    if (named.empty())
        m_report.error(engines->line, u"engines"_s, tr("no engines configured; an agent needs at least one"));
}

} // namespace switchyard
