#pragma once
// Allowed: low/ is listed before high/.
#include "low/low.h"
