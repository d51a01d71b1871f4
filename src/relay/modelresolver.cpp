#include "relay/modelresolver.h"

#include <algorithm>

namespace switchyard {

ModelResolver::ModelResolver(const Config &config)
{
    for (const AliasRule &rule : config.aliases) {
        const QString re = QRegularExpression::wildcardToRegularExpression(rule.pattern, QRegularExpression::UnanchoredWildcardConversion);
        m_rules.append({QRegularExpression(QRegularExpression::anchoredPattern(re)), rule.target});
    }
    for (const HostConfig &h : config.hosts)
        m_hosts.append(h.name);
    std::sort(m_hosts.begin(), m_hosts.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

std::optional<ModelRoute> ModelResolver::resolve(const QString &requested) const
{
    ModelRoute route;
    route.requested = requested;
    route.alias = requested;
    for (const Rule &rule : m_rules) {
        if (rule.pattern.match(requested).hasMatch()) {
            route.alias = rule.target;
            break;
        }
    }
    for (const QString &host : m_hosts) {
        if (route.alias.size() > host.size() + 1 && route.alias.startsWith(host) && route.alias.at(host.size()) == u'-') {
            route.host = host;
            route.key = route.alias.mid(host.size() + 1);
            return route;
        }
    }
    return std::nullopt;
}

} // namespace switchyard
