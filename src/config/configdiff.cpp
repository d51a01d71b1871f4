#include "config/configdiff.h"

#include "config/configwriter.h"
#include "config/fieldpath.h"

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

bool isSecret(const QString &key)
{
    return key == "api_key"_L1 || key == "token"_L1;
}

// A value on one line: strings quoted, arrays and objects compact.
QString shown(const JsonNode &node, const QString &key)
{
    if (isSecret(key))
        return ConfigDiff::tr("(not shown)");
    return QString::fromUtf8(node.toJson()).simplified();
}

void compare(const JsonNode &before, const JsonNode &after, const QString &path, QStringList &out)
{
    if (before.isObject() && after.isObject()) {
        for (const JsonNode &old : before.children) {
            if (!isCommentKey(old.key) && !after.member(old.key))
                out.append(ConfigDiff::tr("%1: removed").arg(memberPath(path, old.key)));
        }
        for (const JsonNode &now : after.children) {
            if (isCommentKey(now.key))
                continue;
            if (const JsonNode *old = before.member(now.key))
                compare(*old, now, memberPath(path, now.key), out);
            else
                out.append(ConfigDiff::tr("%1: added").arg(memberPath(path, now.key)));
        }
        return;
    }
    const QString key = path.section(u'.', -1);
    const QString from = shown(before, key);
    const QString to = shown(after, key);
    if (before.toJson() == after.toJson())
        return;
    if (isSecret(key))
        out.append(ConfigDiff::tr("%1: changed (not shown)").arg(path));
    else
        out.append(ConfigDiff::tr("%1: %2 → %3").arg(path, from, to));
}

} // namespace

QStringList ConfigDiff::changes(const JsonNode &before, const JsonNode &after)
{
    QStringList out;
    compare(before, after, QString(), out);
    return out;
}

} // namespace switchyard
