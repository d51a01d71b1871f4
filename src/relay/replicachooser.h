#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace switchyard {

// Which replica of a replicated alias a request goes to, from what the relay already knows of
// each (docs/HOSTS.md, "Replicas and failover"). Pure: no I/O, no clock, so it is table-tested.
//
// Best first:
//   1. FreeSlot:   its engine is up with the model loaded and a slot free (the relay's own
//                  requests on it against the engine's slots), the least loaded first;
//   2. NotLoaded:  its engine is up but the model is not loaded (the router loads it);
//   3. Full:       loaded, every slot taken: it queues, the least loaded first;
//   4. NeedsSwitch: another engine (or none) runs: the fewest requests waiting on the host first;
//   5. Down, then Leased: only when no other replica can serve.
// A conversation sticks to the replica that served its previous turn, so the engine's prompt
// cache is reused, while that replica has the model loaded and no more than stickyBound requests
// queued beyond its slots.
class ReplicaChooser
{
public:
    enum class Tier { FreeSlot, NotLoaded, Full, NeedsSwitch, Down, Leased };

    struct Replica
    {
        bool down = false;          // its engine was found unreachable and not seen back
        bool leased = false;        // a lease owns the GPU: requests get 423
        bool engineUp = false;      // the engine that serves the model runs now (no switch)
        bool modelLoaded = false;   // ... and lists the model as loaded
        int inFlight = 0;           // the relay's own requests on the host now
        int totalSlots = 0;              // the engine's total_slots; 0 = not known, taken as 1
        int waiting = 0;            // requests waiting on the host (a drain or switch)
    };

    struct Choice
    {
        int index = -1;             // into the replicas; -1 only for an empty list
        Tier tier = Tier::Leased;
        bool sticky = false;        // chosen because the conversation was there before
    };

    explicit ReplicaChooser(int stickyBound = DefaultStickyBound) : m_stickyBound(stickyBound) {}
    static constexpr int DefaultStickyBound = 2;

    static Tier tierOf(const Replica &replica);
    static QString tierName(Tier tier);   // "free slot", "not loaded", ... for the journal

    // The best replica; previous is the one that served this conversation's last turn, if any.
    Choice choose(const QList<Replica> &replicas, std::optional<int> previous = std::nullopt) const;
    // Every replica, best first (the choice, then the order failover tries the others in).
    QList<int> order(const QList<Replica> &replicas, std::optional<int> previous = std::nullopt) const;

private:
    bool keepsSticky(const Replica &replica) const;
    static bool better(const Replica &a, const Replica &b);   // within one tier

    int m_stickyBound;
};

} // namespace switchyard
