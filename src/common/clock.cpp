#include "common/clock.h"

namespace switchyard {

const Clock &systemClock()
{
    static const SystemClock clock;
    return clock;
}

} // namespace switchyard
