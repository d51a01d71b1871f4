#pragma once

#include "catalog/hostmodels.h"
#include "config/config.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace switchyard {

// A replicated alias as /models lists it: one name ("coder") served by several "<host>-<key>"
// targets, each on its own box (docs/HOSTS.md, "Replicas and failover").
struct ReplicaSet
{
    struct Target
    {
        QString host;
        QString key;
    };
    struct Seen   // what the catalog knows of one target now
    {
        QString engine;
        ModelEntry entry;   // empty key: not listed by any engine of its host
    };

    QString alias;
    QList<Target> targets;

    // The config's replicated aliases, in file order. Host names hold no '-', so a target splits
    // at its first one.
    static QList<ReplicaSet> fromConfig(const Config &config);

    // Its one /models entry: the entry of its best target (loaded before loading before the
    // rest), renamed to the alias, with "proxy": {"host","key","engine"} of that target and
    // "replicas": [{"host","key","engine","status"}, ...] for all of them.
    QJsonObject listing(const QList<Seen> &seen) const;
};

} // namespace switchyard
