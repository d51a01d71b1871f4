#pragma once

namespace switchyard {

// What a host is doing, as the Hosts view, the timeline and the tray show it. Up and Down
// come from the catalog's polls; Switching, Draining and Leased are slots for the host
// controllers (src/hosts/), fed through HostTableModel::setActivity() once they exist.
enum class HostActivity {
    Unknown,     // not polled yet
    Up,
    Down,
    Switching,   // stopping one engine, starting another
    Draining,    // waiting for running requests before a switch
    Leased,      // something else owns the GPU
};

} // namespace switchyard
