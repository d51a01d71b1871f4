#pragma once

#include "config/config.h"

#include <QRegularExpression>
#include <QString>

#include <optional>

namespace switchyard {

// Where a model name goes: configured aliases first ("claude-*" -> "3090-flint-40b"),
// then "<host>-<key>" split at the longest host name that prefixes it.
struct ModelRoute
{
    QString requested;   // as the client sent it
    QString alias;       // after alias rules
    QString host;
    QString key;
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
        QString target;
    };
    QList<Rule> m_rules;
    QStringList m_hosts;   // longest first
};

} // namespace switchyard
