#include "engines/enginelogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcEngines, "switchyard.engines")
Q_LOGGING_CATEGORY(lcEngineOutput, "switchyard.engines.output")

} // namespace switchyard
