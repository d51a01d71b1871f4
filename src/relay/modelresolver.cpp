#include "relay/modelresolver.h"

#include <algorithm>

namespace switchyard {

ModelResolver::ModelResolver(const Config &config)
{
    for (const AliasRule &rule : config.aliases) {
        const QString re = QRegularExpression::wildcardToRegularExpression(rule.pattern, QRegularExpression::UnanchoredWildcardConversion);
        m_rules.append({QRegularExpression(QRegularExpression::anchoredPattern(re)),
                        rule.targets.isEmpty() ? QStringList{rule.target} : rule.targets});
    }
    for (const HostConfig &h : config.hosts)
        m_hosts.append(h.name);
    std::sort(m_hosts.begin(), m_hosts.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

void ModelRoute::pick(const Target &target)
{
    host = target.host;
    key = target.key;
    alias = host + u'-' + key;
}

std::optional<ModelRoute::Target> ModelResolver::split(const QString &alias) const
{
    for (const QString &host : m_hosts) {
        if (alias.size() > host.size() + 1 && alias.startsWith(host) && alias.at(host.size()) == u'-')
            return ModelRoute::Target{host, alias.mid(host.size() + 1)};
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
