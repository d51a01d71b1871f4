#pragma once

#include "app/commandline.h"

namespace switchyard {

class AppSettings;
class RelayFrontend;

// Runs the relay until it stops: the config, the history, the runner that swaps the relay on a
// reload, the console journal and the Unix signals, the same with a window and without. settings
// are the desktop's (null in headless mode). When they watch a relay elsewhere (and the command
// line names none), no relay starts here: the runner runs none until a reload finds the settings
// say "run the relay here". Returns the process exit code.
int runRelay(const AppOptions &options, AppSettings *settings, RelayFrontend &frontend);

} // namespace switchyard
