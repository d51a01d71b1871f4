#pragma once

// The host cards and the main window over a relay service, wired as the desktop wires them:
// the host table counts in-flight requests and follows the service, the window shows both.
// The history, the size and showing it are left to each test.

#include "guifleet.h"
#include "models/hosttablemodel.h"
#include "models/inflightcounter.h"
#include "window/mainwindow.h"

namespace switchyard::test {

struct HostCards
{
    InFlightCounter inFlight;
    HostTableModel hosts;
    explicit HostCards(RelayService *service)
    {
        hosts.setInFlightCounter(&inFlight);
        hosts.setService(service);
    }
};

struct FleetWindow
{
    HostCards cards;   // before the window: it is built on a host table already following the fleet
    MainWindow window;
    explicit FleetWindow(GuiFleet &fleet)
        : cards(fleet.service())
        , window(fleet.clock, &cards.hosts, &cards.inFlight, nullptr)
    {
        window.setService(fleet.service());
    }
};

} // namespace switchyard::test
