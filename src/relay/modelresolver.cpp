#include "relay/modelresolver.h"

namespace switchyard {

ModelResolver::ModelResolver(const Config &config)
{
    for (const AliasRule &rule : config.aliases) {
        const QString re = QRegularExpression::wildcardToRegularExpression(rule.pattern, QRegularExpression::UnanchoredWildcardConversion);
        m_rules.append({QRegularExpression(QRegularExpression::anchoredPattern(re)),
                        rule.targets.isEmpty() ? QStringList{rule.target} : rule.targets});
    }
    for (const HostConfig &h : config.hosts)
        m_hosts.insert(h.name);
}

void ModelRoute::pick(const Target &target)
{
    host = target.host;
    key = target.key;
    alias = host + u'-' + key;
}

std::optional<ModelRoute::Target> ModelResolver::split(const QString &alias) const
{
    // The longest host name that prefixes it: each '-' from the right, looked up, rather than
    // every host tried (this runs for every request, and a fleet may have many hosts).
    for (qsizetype dash = alias.lastIndexOf(u'-', alias.size() - 2); dash > 0; dash = alias.lastIndexOf(u'-', dash - 1)) {
        const QString host = alias.left(dash);
        if (m_hosts.contains(host))
            return ModelRoute::Target{host, alias.mid(dash + 1)};
    }
    return std::nullopt;
}

std::optional<ModelRoute> ModelResolver::resolve(const QString &requested) const
{
    ModelRoute route;
    route.requested = requested;
    QStringList targets{requested};
    for (const Rule &rule : m_rules) {
        if (rule.pattern.match(requested).hasMatch()) {
            targets = rule.targets;
            break;
        }
    }
    for (const QString &target : std::as_const(targets)) {
        if (const std::optional<ModelRoute::Target> t = split(target))
            route.replicas.append(*t);
    }
    if (route.replicas.isEmpty())
        return std::nullopt;
    route.pick(route.replicas.first());
    return route;
}

} // namespace switchyard
