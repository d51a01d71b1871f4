#pragma once

#include <QString>

namespace switchyard {

// Why a request waited before it could be served: a switch of its host's engine, a model its
// engine loads, other requests ahead of it, the end of a lease, a second look at a host that
// read down, or the wake of a host that slept (wake-on-LAN). Stored and sent in its English text ("switch fork→mainline"); the window words it.
struct WaitReason
{
    enum class Kind { None, Switch, ModelLoad, Queue, Lease, HostCheck, Wake };

    Kind kind = Kind::None;
    QString from;   // Switch: the engine that ran (empty when none did)
    QString to;     // Switch: the engine it switches to

    bool isNone() const { return kind == Kind::None; }
    // "switch fork→mainline", "switch to mainline", "model loading", "queue", "lease",
    // "host check", "host wake"; empty for none.
    QString toString() const;
    // The inverse of toString(); unknown text is None.
    static WaitReason fromString(const QString &text);

    friend bool operator==(const WaitReason &a, const WaitReason &b)
    {
        return a.kind == b.kind && a.from == b.from && a.to == b.to;
    }
    friend bool operator!=(const WaitReason &a, const WaitReason &b) { return !(a == b); }
};

// Where a request is while the relay serves it (Relay::requestProgress); a finished request is a
// RequestRecord of its own (Relay::requestFinished).
enum class RequestPhase {
    Arrived,     // read, not decided yet
    Waiting,     // for what: the record's waitReason
    Upstream,    // sent to its engine, no answer yet
    Streaming,   // the answer flows; the record's streamedTokens rises
};

} // namespace switchyard

#include <QMetaType>
Q_DECLARE_METATYPE(switchyard::RequestPhase)
