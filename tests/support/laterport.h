#pragma once

#include <QtGlobal>

namespace switchyard::test {

// A loopback port free now, for a server the test (or the relay it drives) starts later: an
// engine started on a switch, a box that wakes. Taken below the kernel's ephemeral range
// (32768-60999 on Linux), so the servers other tests start on port 0 in the meantime never land
// on it and answer in its place. Never the same port twice in one process.
quint16 portForLater();

} // namespace switchyard::test
