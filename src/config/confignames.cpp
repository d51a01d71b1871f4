#include "config/confignames.h"

#include <algorithm>

namespace switchyard {

bool ConfigNames::isValidHostName(const QString &name)
{
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'.' || c == u'_';
    });
}

bool ConfigNames::isValidEngineName(const QString &name)
{
    return !name.isEmpty() && std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
                || c == u'.' || c == u'_' || c == u'-';
    });
}

QString ConfigNames::invalidHostName(const QString &name)
{
    return tr("invalid host name \"%1\": use only letters, digits, '.' and '_' "
              "(no '-': clients name models \"<host>-<model>\")").arg(name);
}

QString ConfigNames::invalidEngineName(const QString &name)
{
    return tr("invalid engine name \"%1\": use only letters, digits, '.', '_' and '-'").arg(name);
}

} // namespace switchyard
