#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard agent --config FILE [--listen HOST:PORT]`: runs on a GPU box, supervises its engine
// processes and answers the relay (see AgentService). SIGTERM or SIGINT stops the engines and
// exits 0. Returns the process exit code: 1 for a bad config or a failed start, 2 for bad usage.
int runAgentCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
