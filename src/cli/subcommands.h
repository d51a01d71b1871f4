#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard agent|export|log|lease ...`: each command parses its own arguments.
int runSubcommand(const QString &name, const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
