#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard agentcommand`: agent (the engine supervisor on a GPU box). Returns the process exit code.
int runAgentCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
