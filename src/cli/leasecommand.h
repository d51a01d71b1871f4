#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard leasecommand`: lease. Returns the process exit code.
int runLeaseCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
