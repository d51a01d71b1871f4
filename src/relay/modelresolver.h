#pragma once

#include "config/config.h"

#include <QRegularExpression>
#include <QSet>
#include <QString>

#include <optional>

namespace switchyard {

// Where a model name goes: configured aliases first ("claude-*" -> "3090-flint-40b"),
// then "<host>-<key>" split at the longest host name that prefixes it.
struct ModelRoute
{
    struct Target
    {
        QString host;
        QString key;
        bool operator==(const Target &o) const { return host == o.host && key == o.key; }
    };

    QString requested;   // as the client sent it
    QString alias;       // after alias rules: "<host>-<key>" of the target it goes to
    QString host;
    QString key;
    // Every target of a replicated alias, in config order (host and key are the first until the
    // relay picks one: pick()); a single target otherwise.
    QList<Target> replicas;

    bool replicated() const { return replicas.size() > 1; }
    void pick(const Target &target);
};

class ModelResolver
{
public:
    explicit ModelResolver(const Config &config);

    std::optional<ModelRoute> resolve(const QString &requested) const;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QStringList targets;
    };
    std::optional<ModelRoute::Target> split(const QString &alias) const;
    QList<Rule> m_rules;
    QSet<QString> m_hosts;
};

} // namespace switchyard
