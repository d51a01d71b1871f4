#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard exportcommand`: export. Returns the process exit code.
int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
