#include "store/storelogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcStore, "switchyard.store")

} // namespace switchyard
