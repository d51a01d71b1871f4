#pragma once

namespace switchyard {

// What a host is doing, as the Hosts view, the timeline and the tray show it. Up and Down
// come from the catalog's polls; Switching, Draining, Leased and Idle from the host
// controllers (src/hosts/), through HostTableModel.
enum class HostActivity {
    Unknown,     // not polled yet
    Up,
    Down,
    Switching,   // stopping one engine, starting another
    Draining,    // waiting for running requests before a switch
    Leased,      // something else owns the GPU
    Idle,        // no engine runs (after a lease, or before the first request): the next request
                 // starts one; not down
    Waking,      // the wake-on-LAN packet went out: waiting for the host to answer
    Asleep,      // stopped when idle and put to sleep, or found off: the next request wakes it
};

} // namespace switchyard
