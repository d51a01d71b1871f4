#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the engine drivers and the supervisor ("switchyard.engines"); not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcEngines)
// What engine processes print, line by line ("switchyard.engines.output"); off unless asked for.
Q_DECLARE_LOGGING_CATEGORY(lcEngineOutput)

} // namespace switchyard
