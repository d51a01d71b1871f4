#include "export/exportcommand.h"

#include <QCoreApplication>

namespace switchyard {

int runExportCommand(const QStringList &, QTextStream &, QTextStream &err)
{
    err << QCoreApplication::translate("main", "switchyard: this command is not available yet") << Qt::endl;
    return 2;
}

} // namespace switchyard
