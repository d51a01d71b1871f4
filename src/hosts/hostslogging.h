#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the hosts layer ("switchyard.hosts"); not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcHosts)

} // namespace switchyard
