#include "store/historyevent.h"

#include "journal/journalformat.h"

#include <array>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

constexpr std::array<QLatin1StringView, HistoryEvent::KindCount> KindNames = {
    "switch_start"_L1, "switch_end"_L1, "switch_failed"_L1, "load"_L1, "unload"_L1,
    "lease_taken"_L1, "lease_released"_L1, "host_up"_L1, "host_down"_L1,
    "failover"_L1, "cache_save"_L1, "cache_restore"_L1,
    "wake_sent"_L1, "woke"_L1, "wake_timed_out"_L1, "idle_stop"_L1, "sleep_command"_L1,
    "relay_started"_L1, "relay_stopped"_L1,
};

// " after 2s": the journal shows switch and load times to the second, as the seed's relay did.
QString after(const std::optional<std::chrono::milliseconds> &duration)
{
    if (!duration)
        return {};
    // Halves away from zero, like Go's Duration.Round (std::chrono::round goes to even).
    const qint64 ms = duration->count();
    const std::chrono::seconds seconds((ms + (ms >= 0 ? 500 : -500)) / 1000);
    return u" after "_s + JournalFormat::goDuration(seconds);
}

QString withDetail(const QString &text, const QString &detail)
{
    return detail.isEmpty() ? text : text + u": "_s + detail;
}

} // namespace

QString HistoryEvent::kindName(Kind kind)
{
    const int i = int(kind);
    return i >= 0 && i < KindCount ? QString(KindNames[size_t(i)]) : QString();
}

std::optional<HistoryEvent::Kind> HistoryEvent::kindFromName(QStringView name)
{
    for (int i = 0; i < KindCount; ++i) {
        if (name == KindNames[size_t(i)])
            return Kind(i);
    }
    return std::nullopt;
}

QString HistoryEvent::toString() const
{
    const QString prefix = u"host "_s + (host.isEmpty() ? u"-"_s : host) + u": "_s;
    const QString eng = engine.isEmpty() ? u"?"_s : engine;
    switch (kind) {
    case Kind::SwitchStart:
        return prefix + u"switching to engine "_s + eng
                + (model.isEmpty() ? QString() : u" for "_s + model)
                + (detail.isEmpty() ? QString() : u" ("_s + detail + u')');
    case Kind::SwitchEnd:
        return prefix + u"engine "_s + eng + u" up"_s + after(duration);
    case Kind::SwitchFailed:
        return prefix + u"engine "_s + eng + u" failed"_s + after(duration)
                + u": "_s + (detail.isEmpty() ? u"unknown reason"_s : detail);
    case Kind::Load:
        return withDetail(prefix + u"model "_s + model + u" loaded"_s
                                  + (engine.isEmpty() ? QString() : u" on engine "_s + engine)
                                  + after(duration),
                          detail);
    case Kind::Unload:
        return withDetail(prefix + u"model "_s + model + u" unloaded"_s
                                  + (engine.isEmpty() ? QString() : u" from engine "_s + engine),
                          detail);
    case Kind::LeaseTaken:
        return prefix + u"GPU lease taken"_s + (detail.isEmpty() ? QString() : u" by "_s + detail);
    case Kind::LeaseReleased:
        return withDetail(prefix + u"GPU lease released"_s + after(duration), detail);
    case Kind::HostUp:
        return withDetail(prefix + u"up"_s + (engine.isEmpty() ? QString() : u", engine "_s + engine),
                          detail);
    case Kind::HostDown:
        return withDetail(prefix + u"down"_s, detail);
    case Kind::Failover:
        return prefix + u"failover of "_s + (model.isEmpty() ? u"?"_s : model)
                + (detail.isEmpty() ? QString() : u" "_s + detail);
    case Kind::CacheSave:
        return withDetail(prefix + u"prompt cache of "_s + model + u" on engine "_s + eng + u": save"_s + after(duration),
                          detail);
    case Kind::CacheRestore:
        return withDetail(prefix + u"prompt cache of "_s + model + u" on engine "_s + eng + u": restore"_s
                                  + after(duration),
                          detail);
    case Kind::WakeSent:
        return withDetail(prefix + u"wake-on-LAN sent"_s, detail);
    case Kind::Woke:
        return prefix + u"awake"_s + (engine.isEmpty() ? QString() : u", engine "_s + engine) + after(duration);
    case Kind::WakeTimedOut:
        return withDetail(prefix + u"did not wake"_s + after(duration), detail);
    case Kind::IdleStop:
        return withDetail(prefix + u"engine "_s + eng + u" stopped: idle"_s, detail);
    case Kind::SleepCommand:
        return withDetail(prefix + u"sleep command ran"_s, detail);
    case Kind::RelayStarted:
        return withDetail(u"relay started"_s, detail);
    case Kind::RelayStopped:
        return withDetail(u"relay stopped"_s, detail);
    }
    return prefix + detail;
}

} // namespace switchyard
