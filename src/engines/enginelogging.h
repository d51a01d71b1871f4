#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the engine drivers and the supervisor ("switchyard.engines"), and at debug
// level what the engine processes print, line by line; not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcEngines)

} // namespace switchyard
