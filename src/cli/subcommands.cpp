#include "cli/subcommands.h"

#include "cli/agentcommand.h"
#include "cli/exportcommand.h"
#include "cli/leasecommand.h"
#include "cli/logcommand.h"
#include "cli/usagecommand.h"

#include <QCoreApplication>

namespace switchyard {

int runSubcommand(const QString &name, const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    if (name == QLatin1String("agent"))
        return runAgentCommand(arguments, out, err);
    if (name == QLatin1String("export"))
        return runExportCommand(arguments, out, err);
    if (name == QLatin1String("log"))
        return runLogCommand(arguments, out, err);
    if (name == QLatin1String("lease"))
        return runLeaseCommand(arguments, out, err);
    if (name == QLatin1String("usage"))
        return runUsageCommand(arguments, out, err);
    err << QCoreApplication::translate("main", "switchyard: unknown command %1").arg(name) << Qt::endl;
    return 2;
}

} // namespace switchyard
