#pragma once

#include <QLoggingCategory>

namespace switchyard {

// Debug output of the catalog ("switchyard.catalog"); not the journal.
Q_DECLARE_LOGGING_CATEGORY(lcCatalog)

} // namespace switchyard
