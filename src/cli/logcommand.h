#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard logcommand`: log. Returns the process exit code.
int runLogCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
