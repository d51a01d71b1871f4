#include "catalog/replicaset.h"

#include <QJsonArray>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

int statusRank(const QString &status)
{
    if (status == "loaded"_L1)
        return 0;
    if (status == "loading"_L1)
        return 1;
    if (status == "sleeping"_L1)
        return 2;
    return 3;
}

} // namespace

QList<ReplicaSet> ReplicaSet::fromConfig(const Config &config)
{
    QList<ReplicaSet> out;
    for (const AliasRule &rule : config.aliases) {
        if (!rule.isReplicated())
            continue;
        ReplicaSet set;
        set.alias = rule.pattern;
        for (const QString &target : rule.targets) {
            const qsizetype dash = target.indexOf(u'-');
            if (dash > 0 && config.host(target.left(dash)))
                set.targets.append({target.left(dash), target.mid(dash + 1)});
        }
        if (!set.targets.isEmpty())
            out.append(set);
    }
    return out;
}

QJsonObject ReplicaSet::listing(const QList<Seen> &seen) const
{
    QJsonArray replicas;
    qsizetype best = -1;
    for (qsizetype i = 0; i < targets.size() && i < seen.size(); ++i) {
        const QString status = seen.at(i).entry.key.isEmpty() ? u"unknown"_s : seen.at(i).entry.status;
        replicas.append(QJsonObject{{"host"_L1, targets.at(i).host}, {"key"_L1, targets.at(i).key},
                                    {"engine"_L1, seen.at(i).engine}, {"status"_L1, status}});
        if (!seen.at(i).entry.key.isEmpty()
                && (best < 0 || statusRank(status) < statusRank(seen.at(best).entry.status)))
            best = i;
    }
    QJsonObject o;
    if (best >= 0)
        o = seen.at(best).entry.raw;
    else
        o = QJsonObject{{"object"_L1, "model"_L1}, {"owned_by"_L1, "llamacpp"_L1},
                        {"status"_L1, QJsonObject{{"value"_L1, "unloaded"_L1}}}};
    const qsizetype shown = best >= 0 ? best : 0;
    o.insert("id"_L1, alias);
    o.insert("proxy"_L1, QJsonObject{{"host"_L1, targets.value(shown).host}, {"key"_L1, targets.value(shown).key},
                                     {"engine"_L1, seen.value(shown).engine}, {"replicas"_L1, replicas}});
    return o;
}

} // namespace switchyard
