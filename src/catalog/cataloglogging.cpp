#include "catalog/cataloglogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcCatalog, "switchyard.catalog")

} // namespace switchyard
