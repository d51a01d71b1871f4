#include "engines/enginelogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcEngines, "switchyard.engines")

} // namespace switchyard
