#pragma once
// Deliberately includes a folder listed after its own (layers_catch_ui_order).
#include "high/high.h"
