#include "relay/liverecord.h"

namespace switchyard {

void LiveRecord::endWait()
{
    record.waitUntil = QDateTime();   // a bound on a wait that is over says nothing
    if (phase != RequestPhase::Waiting || record.waitingSince == std::chrono::steady_clock::time_point())
        return;
    record.waited += std::chrono::steady_clock::now() - record.waitingSince;
    record.waitingSince = {};
}

void LiveRecord::wait(const WaitReason &reason, std::chrono::steady_clock::time_point since)
{
    if (record.waitReason.isNone())
        record.waitReason = reason;   // the first reason is the one it keeps
    record.waitingSince = since;
    phase = RequestPhase::Waiting;
}

} // namespace switchyard
