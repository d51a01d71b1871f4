#pragma once

#include <QStringList>
#include <QTextStream>

namespace switchyard {

// `switchyard usage [--since 7d] [--by key|client|alias|host] [--json] [--relay URL]`: requests,
// tokens, GPU time and switches per client key (or app, alias, host) from the running relay's
// /admin/usage. Returns the process exit code.
int runUsageCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace switchyard
