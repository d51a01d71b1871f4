#include "config/config.h"

#include <QCoreApplication>

namespace switchyard {

using namespace Qt::StringLiterals;

QString ConfigError::toString() const
{
    // Compiler style, so editors and terminals can jump to FILE:LINE:COLUMN.
    QString where;
    if (!file.isEmpty()) {
        where = file;
        if (line > 0) {
            where += u':' + QString::number(line);
            if (column > 0)
                where += u':' + QString::number(column);
        }
    } else if (line > 0) {
        where = column > 0
                ? QCoreApplication::translate("ConfigError", "line %1, column %2").arg(line).arg(column)
                : QCoreApplication::translate("ConfigError", "line %1").arg(line);
    }

    QStringList parts;
    for (const QString &part : {where, fieldPath, message}) {
        if (!part.isEmpty())
            parts.append(part);
    }
    return parts.join(u": "_s);
}

HostConfig AgentConfig::asLocalHost(const QString &name) const
{
    HostConfig box;
    box.name = name;
    box.driver = u"local"_s;
    box.engines = engines;
    box.promptCache = promptCache;
    box.idleStopAfter = idleStopAfter;
    box.sleepCommand = sleepCommand;
    return box;
}

} // namespace switchyard
