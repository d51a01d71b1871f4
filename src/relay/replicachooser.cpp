#include "relay/replicachooser.h"

#include <algorithm>
#include <numeric>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

int slotsOf(const ReplicaChooser::Replica &r)
{
    return std::max(r.totalSlots, 1);
}

} // namespace

ReplicaChooser::Tier ReplicaChooser::tierOf(const Replica &r)
{
    if (r.leased)
        return Tier::Leased;
    if (r.down)
        return Tier::Down;
    if (!r.engineUp)
        return Tier::NeedsSwitch;
    if (!r.modelLoaded)
        return Tier::NotLoaded;
    return r.inFlight < slotsOf(r) ? Tier::FreeSlot : Tier::Full;
}

QString ReplicaChooser::tierName(Tier tier)
{
    switch (tier) {
    case Tier::FreeSlot: return u"free slot"_s;
    case Tier::NotLoaded: return u"model not loaded"_s;
    case Tier::Full: return u"all slots busy"_s;
    case Tier::NeedsSwitch: return u"needs a switch"_s;
    case Tier::Down: return u"down"_s;
    case Tier::Leased: return u"leased"_s;
    }
    return {};
}

bool ReplicaChooser::better(const Replica &a, const Replica &b)
{
    // Load relative to the engine's slots: inFlight/slots compared without division.
    const qint64 loadA = qint64(a.inFlight) * slotsOf(b);
    const qint64 loadB = qint64(b.inFlight) * slotsOf(a);
    switch (tierOf(a)) {
    case Tier::NeedsSwitch:
        // The cheapest switch: the fewest requests queued on the host before it.
        if (a.waiting != b.waiting)
            return a.waiting < b.waiting;
        return a.inFlight < b.inFlight;
    case Tier::NotLoaded:
        return a.inFlight < b.inFlight;
    default:
        return loadA < loadB;
    }
}

bool ReplicaChooser::keepsSticky(const Replica &r) const
{
    const Tier tier = tierOf(r);
    // Its prompt cache lives while the model stays loaded; past the bound the wait costs more.
    return (tier == Tier::FreeSlot || tier == Tier::Full) && r.inFlight - slotsOf(r) < m_stickyBound;
}

QList<int> ReplicaChooser::order(const QList<Replica> &replicas, std::optional<int> previous) const
{
    QList<int> out(replicas.size());
    std::iota(out.begin(), out.end(), 0);
    // Stable: equal replicas keep config order.
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
        const Tier ta = tierOf(replicas.at(a));
        const Tier tb = tierOf(replicas.at(b));
        if (ta != tb)
            return ta < tb;
        return better(replicas.at(a), replicas.at(b));
    });
    if (previous && *previous >= 0 && *previous < replicas.size() && keepsSticky(replicas.at(*previous))) {
        out.removeOne(*previous);
        out.prepend(*previous);
    }
    return out;
}

ReplicaChooser::Choice ReplicaChooser::choose(const QList<Replica> &replicas, std::optional<int> previous) const
{
    Choice choice;
    const QList<int> ranked = order(replicas, previous);
    if (ranked.isEmpty())
        return choice;
    choice.index = ranked.first();
    choice.tier = tierOf(replicas.at(choice.index));
    choice.sticky = previous && *previous == choice.index && keepsSticky(replicas.at(choice.index));
    return choice;
}

} // namespace switchyard
