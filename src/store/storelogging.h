#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the history store ("switchyard.store"); not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcStore)

} // namespace switchyard
