#pragma once

#include <QString>
#include <QTextStream>

namespace switchyard {

// `switchyard check-config FILE`: prints every error (and warning) on its own line to err and
// returns 1, or prints "FILE: ok (N hosts, M engines)" to out and returns 0.
int runCheckConfig(const QString &path, QTextStream &out, QTextStream &err);

} // namespace switchyard
