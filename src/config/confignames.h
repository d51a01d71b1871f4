#pragma once

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// What a host or an engine may be called, and what the user is told when a name breaks the rule.
class ConfigNames final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    // Host names end up in aliases "<host>-<key>", so they cannot contain '-'.
    static bool isValidHostName(const QString &name);
    static bool isValidEngineName(const QString &name);

    static QString invalidHostName(const QString &name);
    static QString invalidEngineName(const QString &name);

    ConfigNames() = delete;
};

} // namespace switchyard
