#include "hosts/hostslogging.h"

namespace switchyard {

Q_LOGGING_CATEGORY(lcHosts, "switchyard.hosts")

} // namespace switchyard
