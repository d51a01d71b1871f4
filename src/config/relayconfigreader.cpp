#include "config/relayconfigreader.h"

#include "config/configreport.h"
#include "config/fieldpath.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

namespace {

const QStringList TopFields = {u"listen"_s, u"lan"_s, u"hosts"_s, u"aliases"_s, u"waiting"_s, u"limits"_s,
                               u"state_dir"_s, u"clients"_s, u"admin"_s, u"metrics"_s, u"tls"_s};
const QStringList WaitingFields = {u"early_200_after_s"_s, u"comment_every_s"_s};
const QStringList LimitsFields = {u"max_body_mb"_s, u"client_idle_timeout_s"_s, u"header_timeout_s"_s,
                                  u"upstream_connect_timeout_s"_s, u"poll_interval_s"_s,
                                  u"upstream_inactivity_timeout_s"_s};

constexpr double MaxBodyMb = 1024;
// Node's fetch (undici) drops a request that has seen no response header for 300 s.
constexpr double NodeHeadersTimeoutSeconds = 300;

// An alias the user could write, from the config's own hosts and models where it has any.
QString exampleAlias(const Config &config)
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

} // namespace

RelayConfigReader::RelayConfigReader(ConfigReport &report)
    : m_report(report),
      m_fields(report),
      m_secrets(report, m_fields),
      m_hosts(report, m_fields, m_secrets),
      m_access(report, m_fields, m_secrets)
{
}

const QStringList &RelayConfigReader::topFields()
{
    return TopFields;
}

void RelayConfigReader::read(const JsonNode &root, Config &config)
{
    if (!m_fields.checkDocument(root, TopFields, HostConfigReader::hostFields(),
                                tr("host fields go inside \"hosts\": {\"NAME\": {...}}")))
        return;

    // A listen that does not parse leaves the address at its loopback default.
    const JsonNode *listen = m_fields.readListen(root, config.listenAddress, config.listenPort);
    const JsonNode *lan = m_fields.field(root, QString(), u"lan"_s, Type::Bool);
    config.access.lan = lan && lan->boolean;
    // Serving the LAN is a decision, not a default or a typo's side effect.
    if (listen && !config.listenAddress.isLoopback() && !config.access.lan) {
        m_report.error(listen->line, u"listen"_s,
                       tr("\"%1\" is reachable from other machines: add \"lan\": true to serve the LAN "
                          "(and set clients.api_keys; see docs/SECURITY.md), or listen on 127.0.0.1")
                           .arg(listen->string));
    }
    m_fields.readAbsolutePath(root, QString(), u"state_dir"_s, config.stateDir);
    m_hosts.read(root, config);
    readAliases(root, config);
    readWaiting(root, config);
    readLimits(root, config);
    m_access.read(root, config.access);
    if (config.access.lan && config.access.clientKeys.isEmpty() && !config.listenAddress.isLoopback()
            && !m_report.hasErrors()) {
        m_report.warning(lan->line, u"lan"_s,
                         tr("no client keys (clients.api_keys): anyone on the LAN can use every model"));
    }
}

void RelayConfigReader::readAliases(const JsonNode &root, Config &config)
{
    const JsonNode *aliases = m_fields.field(root, QString(), u"aliases"_s, Type::Object);
    if (!aliases)
        return;
    // Names as written, even of hosts with errors, so one mistake is not reported twice.
    QStringList hostNames;
    if (const JsonNode *hosts = root.member(u"hosts"_s))
        for (const JsonNode &host : hosts->children)
            hostNames.append(host.key);

    for (const JsonNode *node : FieldReader::namedMembers(*aliases)) {
        const QString path = memberPath(u"aliases"_s, node->key);
        const bool patternOk = !node->key.isEmpty()
                && std::none_of(node->key.cbegin(), node->key.cend(),
                                [](QChar c) { return c.isSpace() || !c.isPrint(); });
        if (!patternOk)
            m_report.error(node->line, path, tr("a pattern must not be empty or contain spaces or control characters"));
        // One target, or a list of replicas that serve the same model.
        std::vector<std::pair<const JsonNode *, QString>> items;   // node, its path
        if (node->isArray()) {
            if (node->children.empty()) {
                m_report.error(node->line, path, tr("must not be empty: name at least one \"<host>-<model>\""));
                continue;
            }
            for (std::size_t i = 0; i < node->children.size(); ++i)
                items.emplace_back(&node->children[i], itemPath(path, i));
        } else if (node->isString()) {
            items.emplace_back(node, path);
        } else {
            m_fields.typeError(*node, path, Type::String);   // (or a list of them)
            continue;
        }
        QStringList targets;
        QStringList keys;   // the model key of each target, for the replica check
        bool targetsOk = true;
        for (const auto &[item, itemAt] : items) {
            const std::optional<QString> key = readAliasTarget(*item, itemAt, hostNames, config);
            if (!key) {
                targetsOk = false;
                continue;
            }
            if (targets.contains(item->string)) {
                m_report.error(item->line, itemAt, tr("\"%1\" is listed twice").arg(item->string));
                targetsOk = false;
                continue;
            }
            targets.append(item->string);
            keys.append(*key);
        }
        if (!targetsOk || !patternOk)
            continue;
        if (keys.size() > 1 && keys.count(keys.first()) != keys.size()) {
            // Legal (a smaller model on the other box, say), but a client cannot tell which it got.
            m_report.warning(node->line, path,
                             tr("the replicas serve different models (%1): a request may get either")
                                 .arg(targets.join(u", "_s)));
        }
        config.aliases.append(AliasRule{node->key, targets.first(), targets});
    }
}

std::optional<QString> RelayConfigReader::readAliasTarget(const JsonNode &node, const QString &path,
                                                          const QStringList &hostNames, const Config &config)
{
    if (!node.isString()) {
        m_fields.typeError(node, path, Type::String);
        return std::nullopt;
    }
    const QString &target = node.string;
    if (target.contains(u'*') || target.contains(u'?')) {
        m_report.error(node.line, path, tr("the target must be one model alias, not a pattern: \"%1\"").arg(target));
        return std::nullopt;
    }
    const qsizetype dash = target.indexOf(u'-');
    const QString hostName = dash > 0 ? target.left(dash) : QString();
    const QString key = dash > 0 ? target.mid(dash + 1) : QString();
    if (hostName.isEmpty() || key.isEmpty() || !hostNames.contains(hostName)) {
        m_report.error(node.line, path,
                       tr("target \"%1\" is not a model of a configured host (expected \"<host>-<model>\", e.g. \"%2\")")
                           .arg(target, exampleAlias(config)));
        return std::nullopt;
    }
    if (const HostConfig *host = config.host(hostName)) {
        // Engines with a model list serve only those; without one they are asked at run time.
        const bool allListed = !host->engines.isEmpty()
                && std::all_of(host->engines.cbegin(), host->engines.cend(),
                               [](const EngineConfig &e) { return !e.models.isEmpty(); });
        const bool listed = std::any_of(host->engines.cbegin(), host->engines.cend(),
                                        [&](const EngineConfig &e) { return e.models.contains(key); });
        if (allListed && !listed)
            m_report.warning(node.line, path, tr("no engine of host %1 lists model \"%2\"").arg(hostName, key));
    }
    return key;
}

void RelayConfigReader::readWaiting(const JsonNode &root, Config &config)
{
    const JsonNode *waiting = m_fields.section(root, u"waiting"_s, WaitingFields);
    if (!waiting)
        return;
    const QString path = u"waiting"_s;
    m_fields.readSeconds(*waiting, path, u"early_200_after_s"_s, config.waiting.early200After);
    m_fields.readSeconds(*waiting, path, u"comment_every_s"_s, config.waiting.commentEvery);
    for (const QString &key : WaitingFields) {
        const JsonNode *node = waiting->member(key);
        if (node && node->isNumber() && node->number >= NodeHeadersTimeoutSeconds && node->number <= FieldReader::MaxSeconds) {
            m_report.warning(node->line, memberPath(path, key),
                             tr("clients on Node's fetch give up after %1 s without a response; keep this below that")
                                 .arg(NodeHeadersTimeoutSeconds));
        }
    }
}

void RelayConfigReader::readLimits(const JsonNode &root, Config &config)
{
    const JsonNode *limits = m_fields.section(root, u"limits"_s, LimitsFields);
    if (!limits)
        return;
    const QString path = u"limits"_s;
    if (const JsonNode *mb = m_fields.field(*limits, path, u"max_body_mb"_s, Type::Number)) {
        const QString mbPath = memberPath(path, u"max_body_mb"_s);
        if (!(mb->number > 0))
            m_report.error(mb->line, mbPath, tr("must be greater than 0"));
        else if (mb->number > MaxBodyMb)
            m_report.error(mb->line, mbPath, tr("must be at most %1").arg(MaxBodyMb));
        else
            config.limits.maxBodyBytes = std::llround(mb->number * 1024 * 1024);
    }
    m_fields.readSeconds(*limits, path, u"client_idle_timeout_s"_s, config.limits.clientIdleTimeout);
    m_fields.readSeconds(*limits, path, u"header_timeout_s"_s, config.limits.headerTimeout);
    m_fields.readSeconds(*limits, path, u"upstream_connect_timeout_s"_s, config.limits.upstreamConnectTimeout);
    m_fields.readSeconds(*limits, path, u"poll_interval_s"_s, config.limits.pollInterval);
    m_fields.readSeconds(*limits, path, u"upstream_inactivity_timeout_s"_s, config.limits.upstreamInactivityTimeout);
}

} // namespace switchyard
