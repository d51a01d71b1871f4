#pragma once

namespace switchyard {

// Registers the icons (resources/switchyard.qrc), which live in the switchyard_ui static
// library: a static library's resources need this call before the first QIcon(":/icons/...").
// The classes that show the icons (MainWindow, TrayController) call it themselves, so that a
// test or tool building them alone finds the icons too; only the first call registers.
void initUiResources();

} // namespace switchyard
