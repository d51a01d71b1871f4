#pragma once

#include "trace.h"

#include "config/config.h"

#include <QList>
#include <QMap>
#include <QString>

namespace switchyard::switchsim {

// What the simulator compares: the host's scheduling policy, and whether prompt caches survive
// a switch (saved before the engine stops, restored before the agent's next turn).
struct Policy
{
    QString name;
    SchedulingConfig scheduling;
    bool keepCaches = false;
};

struct Waits
{
    double p50 = 0;
    double p95 = 0;
    double max = 0;
    int turns = 0;
    double turnsPerHour = 0;   // the work done: a closed loop makes more turns when it waits less
};

struct Result
{
    double hours = 0;               // from the first turn to the last answer
    int switches = 0;
    double busyS = 0;               // the GPU switching or serving (at least one request)
    double switchingS = 0;
    double reprefillS = 0;          // prompt caches prefilled again (or restored) after a switch
    QMap<QString, Waits> waits;     // by agent group
    double longestAdmissionS = 0;   // the longest any request waited for its admission
    double longestRunS = 0;         // the longest a single request ran (bounds a drain)
    int refused = 0;                // requests the host refused (never, in a trace without faults)

    double switchesPerHour() const { return hours > 0 ? switches / hours : 0; }
    double switchingShare() const { return busyS > 0 ? switchingS / busyS : 0; }
    double reprefillShare() const { return busyS > 0 ? reprefillS / busyS : 0; }
};

// Drives the real HostStateMachine through the trace in virtual time: no event loop, no sockets.
// A turn's wait is how much later its answer starts than it would on a free, warm engine: the
// time until the host admits it, plus the prefill a switch made it redo (or the restore).
Result simulate(const Trace &trace, const Policy &policy);

} // namespace switchyard::switchsim
