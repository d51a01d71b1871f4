#include "app/idlememorytrimmer.h"

#include "relay/relay.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace switchyard {

IdleMemoryTrimmer::IdleMemoryTrimmer(std::chrono::milliseconds quietFor, QObject *parent)
    : QObject(parent)
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(quietFor);
#if defined(__GLIBC__)
    // From now on memory goes back when this says so, not whenever free() finds 128 KiB free at
    // the top of the heap: glibc's own trimming gave each burst's socket buffers back at its
    // end, and the next burst paid a page fault for every page again (8 % of its time).
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    // Setting that turns off glibc's sliding mmap threshold, which left every buffer over
    // 128 KiB (a merged /models answer) to a fresh mmap() and its page faults on each request.
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
#endif
    connect(&m_quiet, &QTimer::timeout, this, &IdleMemoryTrimmer::trimIfIdle);
}

void IdleMemoryTrimmer::watch(Relay *relay)
{
    if (m_relay)
        m_relay->disconnect(this);
    m_relay = relay;
    if (relay)
        connect(relay, &Relay::requestFinished, this, &IdleMemoryTrimmer::onRequestFinished);
}

void IdleMemoryTrimmer::onRequestFinished()
{
    // Restarted by every request that ends, so a busy relay never trims (trimming costs a few
    // milliseconds and the next burst would only take the pages back).
    m_quiet.start();
}

void IdleMemoryTrimmer::trimIfIdle()
{
    if (!m_relay || m_relay->requestsInFlight() > 0)
        return;
    ++m_trims;
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace switchyard
