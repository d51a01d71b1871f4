#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <chrono>
#include <optional>

namespace switchyard {

// Something that happened to a host rather than to one request: engine switches, model loads,
// leases, health. One journal line, one row of the store's events table.
struct HistoryEvent
{
    // Stored by name (kindName), so the numbers may change; append new kinds at the end anyway.
    enum class Kind {
        SwitchStart,     // engine: the engine being started; model: the alias that asked for it
        SwitchEnd,       // engine: the engine now up; duration: how long the switch took
        SwitchFailed,    // engine: the engine that did not come up; detail: why
        Load,            // model loaded on engine; duration when known; detail: a failure, if any
        Unload,
        LeaseTaken,      // detail: who owns the GPU (and until when)
        LeaseReleased,   // duration: how long the lease lasted, when known
        HostUp,
        HostDown,        // detail: why
        Failover,        // host: the replica given up; model: the alias asked for; detail: "to <alias>: why"
        CacheSave,       // a slot's prompt cache saved before its engine stopped; detail: slot, tokens, size (or why not)
        CacheRestore,    // a saved prompt cache restored before a request; detail: slot, tokens, size (or why not)
        WakeSent,        // the wake-on-LAN packet went out; detail: MAC and address (or why it could not)
        Woke,            // the host answers again; engine: what runs; duration: since the packet
        WakeTimedOut,    // no answer within the wake timeout; duration: since the packet
        IdleStop,        // engine: stopped after no request for detail's time
        SleepCommand,    // the host's sleep_command ran after an idle stop; detail: its exit code (or error)
        // The relay itself (no host): it started, or stopped cleanly. Between a stop and the next
        // start nothing was observed; a start without a stop before it follows a crash, and the
        // time since the last event before it was not observed either.
        RelayStarted,
        RelayStopped,
    };

    qint64 id = 0;                                      // assigned by the store
    QDateTime at;
    Kind kind = Kind::SwitchStart;
    QString host;
    QString engine;
    QString model;
    std::optional<std::chrono::milliseconds> duration;
    QString detail;
    // The facts behind detail, when the layer that made the event has them (a SwitchFailed's
    // EngineFailure, as hosts/recordedfacts.h writes it): the window words them itself, where
    // detail is English. Empty for other events and for rows stored before schema step 6.
    QJsonObject facts;
    // What a CacheSave or CacheRestore came to, for the metrics' counters: typed, so that the
    // detail's words can change without the counters noticing. Only on events as they happen
    // (the store keeps the detail, not this); None for every other kind.
    enum class CacheOutcome {
        None,
        Done,      // saved, or restored
        Skipped,   // not saved (the time budget) or not restored (the engine refused, unreachable)
        Dropped,   // a save removed again for the size budget
    };
    CacheOutcome cacheOutcome = CacheOutcome::None;

    // The journal text after the timestamp, in the seeds' format:
    //   "host 3090: switching to engine fork for 3090-flint-40b"
    //   "host 3090: engine fork up after 2s"
    //   "host 3090: engine fork failed: <reason>"
    // Not translated: the journal is a log format that scripts grep, like the request lines.
    QString toString() const;

    // Stable names for the store and for scripts: "switch_start", "switch_end", ...
    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(QStringView name);
    // RelayStarted and RelayStopped: about the relay, not about a host.
    static bool isRelayKind(Kind kind) { return kind == Kind::RelayStarted || kind == Kind::RelayStopped; }
    static constexpr int KindCount = int(Kind::RelayStopped) + 1;
};

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::HistoryEvent)
