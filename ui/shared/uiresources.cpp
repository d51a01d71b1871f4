#include "shared/uiresources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initSwitchyardQrc()
{
    Q_INIT_RESOURCE(switchyard);
}

namespace switchyard {

void initUiResources()
{
    static const bool registered = (initSwitchyardQrc(), true);
    Q_UNUSED(registered);
}

} // namespace switchyard
