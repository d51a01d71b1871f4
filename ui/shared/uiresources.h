#pragma once

namespace switchyard {

// Registers the icons (resources/switchyard.qrc), which live in the switchyard_ui static
// library: a static library's resources need this call before the first QIcon(":/icons/...").
void initUiResources();

} // namespace switchyard
