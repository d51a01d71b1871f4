#pragma once

#include "app/commandline.h"

#include <QTextStream>

#include <optional>

class QCoreApplication;

namespace switchyard {

// What the executable does around its application object, window or not: the process setup of a
// run without a window, names and translations, and the commands that are not a run.
namespace Launch {

// Before the application object exists.
void prepareProcess(bool gui);
// Once it exists: names, version and the user's language (the translators are its children).
void setUpApplication(QCoreApplication *app);
// A command-line error, help, version, check-config or a subcommand: its exit code; nothing for
// a run of the relay.
std::optional<int> runCommand(const AppOptions &options, QTextStream &out, QTextStream &err);

} // namespace Launch
} // namespace switchyard
