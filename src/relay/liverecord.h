#pragma once

#include "journal/requestrecord.h"

#include <chrono>

namespace switchyard {

// A request's record as it goes, shared by the relay's callbacks that move it along: its phase
// for live views, and the time it waited (for its host, a check or a model load).
struct LiveRecord
{
    RequestRecord record;
    RequestPhase phase = RequestPhase::Arrived;
    bool admitted = false;   // by its host
    bool done = false;

    void endWait();   // ends the wait in progress, if any: its time counts to the record's
    void wait(const WaitReason &reason, std::chrono::steady_clock::time_point since);
};

} // namespace switchyard
