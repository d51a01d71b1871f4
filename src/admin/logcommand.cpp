#include "admin/logcommand.h"

#include <QCoreApplication>

namespace switchyard {

int runLogCommand(const QStringList &, QTextStream &, QTextStream &err)
{
    err << QCoreApplication::translate("main", "switchyard: this command is not available yet") << Qt::endl;
    return 2;
}

} // namespace switchyard
