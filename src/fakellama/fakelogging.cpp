#include "fakelogging.h"

namespace switchyard::fake {

// Quiet unless asked for (QT_LOGGING_RULES="switchyard.fake.debug=true").
Q_LOGGING_CATEGORY(lcFake, "switchyard.fake", QtInfoMsg)

} // namespace switchyard::fake
