#pragma once

#include <QLoggingCategory>

namespace switchyard::fake {

Q_DECLARE_LOGGING_CATEGORY(lcFake)

} // namespace switchyard::fake
