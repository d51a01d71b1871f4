#include "admin/leasecommand.h"

#include <QCoreApplication>

namespace switchyard {

int runLeaseCommand(const QStringList &, QTextStream &, QTextStream &err)
{
    err << QCoreApplication::translate("main", "switchyard: this command is not available yet") << Qt::endl;
    return 2;
}

} // namespace switchyard
