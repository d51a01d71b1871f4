#include "relay/relaylogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcRelay, "switchyard.relay")

} // namespace switchyard
