#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the relay layer ("switchyard.relay"); not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcRelay)

} // namespace switchyard
