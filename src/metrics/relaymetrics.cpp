#include "metrics/relaymetrics.h"

#include "metrics/boxgauges.h"
#include "metrics/processmetrics.h"
#include "hosts/hoststatemachine.h"
#include "journal/requestrecord.h"
#include "store/historyevent.h"

namespace switchyard {

namespace {
const QList<QByteArray> hostEngine{"host", "engine"};
const QList<QByteArray> hostEngineOutcome{"host", "engine", "outcome"};
const QList<QByteArray> hostOutcome{"host", "outcome"};

// A prompt-cache event's outcome label, from the outcome the keeper gave it (never from its
// words); empty for an event without one, which is not counted.
QString cacheOutcome(const HistoryEvent &event)
{
    switch (event.cacheOutcome) {
    case HistoryEvent::CacheOutcome::Done:
        return event.kind == HistoryEvent::Kind::CacheSave ? QStringLiteral("saved") : QStringLiteral("restored");
    case HistoryEvent::CacheOutcome::Skipped: return QStringLiteral("skipped");
    case HistoryEvent::CacheOutcome::Dropped: return QStringLiteral("dropped");
    case HistoryEvent::CacheOutcome::None: break;
    }
    return {};
}

// Every state a host can be in, as its controller names it.
QStringList hostStates()
{
    using State = HostStateMachine::State;
    QStringList names;
    for (int s = int(State::Unknown); s <= int(State::Idle); ++s)
        names << HostStateMachine::stateName(State(s));
    return names;
}
} // namespace

RelayMetrics::RelayMetrics(QDateTime startedAt, HostSnapshot hosts, AliasCheck servedAlias, QObject *parent)
    : QObject(parent)
    , m_startedAt(std::move(startedAt))
    , m_hosts(std::move(hosts))
    , m_servedAlias(std::move(servedAlias))
    , m_switches("switchyard_engine_switches_total", "Engine switches that ended with the new engine up.", hostEngine)
    , m_switchFailures("switchyard_engine_switch_failures_total", "Engine switches whose engine did not come up.", hostEngine)
    // A switch stops one engine and starts another: seconds for a small model, minutes for a
    // large one read from disk.
    , m_switchDuration("switchyard_engine_switch_duration_seconds", "Time from a switch's decision to its engine answering /health.",
                       hostEngine, {1, 2, 5, 10, 20, 30, 60, 120, 300, 600})
    , m_loads("switchyard_model_loads_total", "Models loaded on a router engine.", hostEngine)
    , m_cacheSaves("switchyard_prompt_cache_saves_total",
                   "Slot prompt caches saved before an engine stopped (outcome saved, skipped or dropped).",
                   hostEngineOutcome)
    , m_cacheRestores("switchyard_prompt_cache_restores_total",
                      "Saved slot prompt caches restored before a request (outcome restored or skipped).",
                      hostEngineOutcome)
    , m_wakes("switchyard_host_wakes_total", "Wake-on-LAN wakes of a sleeping host (outcome woke or timed_out).", hostOutcome)
    , m_idleStops("switchyard_idle_stops_total", "Engines stopped after idle_stop_after_s without a request.", hostEngine)
{
}

void RelayMetrics::requestFinished(const RequestRecord &request)
{
    const bool served = request.model.isEmpty() || (m_servedAlias && m_servedAlias(request.model));
    m_requests.record(request, served ? request.model : QStringLiteral("other"));
}

void RelayMetrics::historyEvent(const HistoryEvent &event)
{
    const QStringList where{event.host, event.engine};
    switch (event.kind) {
    case HistoryEvent::Kind::SwitchEnd:
        m_switches.add(where);
        if (event.duration)
            m_switchDuration.observe(where, std::chrono::duration<double>(*event.duration).count());
        break;
    case HistoryEvent::Kind::SwitchFailed:
        m_switchFailures.add(where);
        break;
    case HistoryEvent::Kind::Load:
        if (event.detail.isEmpty())
            m_loads.add(where);
        break;
    case HistoryEvent::Kind::CacheSave:
    case HistoryEvent::Kind::CacheRestore:
        if (const QString outcome = cacheOutcome(event); !outcome.isEmpty())
            (event.kind == HistoryEvent::Kind::CacheSave ? m_cacheSaves : m_cacheRestores).add({event.host, event.engine, outcome});
        break;
    case HistoryEvent::Kind::Woke:
        m_wakes.add({event.host, QStringLiteral("woke")});
        break;
    case HistoryEvent::Kind::WakeTimedOut:
        m_wakes.add({event.host, QStringLiteral("timed_out")});
        break;
    case HistoryEvent::Kind::IdleStop:
        m_idleStops.add(where);
        break;
    default:
        break;
    }
}

QByteArray RelayMetrics::exposition() const
{
    PrometheusText out;
    m_requests.write(out);
    m_switches.write(out);
    m_switchFailures.write(out);
    m_switchDuration.write(out);
    m_loads.write(out);
    m_cacheSaves.write(out);
    m_cacheRestores.write(out);
    m_wakes.write(out);
    m_idleStops.write(out);
    const QList<HostGauges> hosts = m_hosts ? m_hosts() : QList<HostGauges>{};
    writeHostGauges(out, hosts, hostStates());
    QList<BoxGauges> boxes;
    for (const HostGauges &h : hosts) {
        if (!h.box.isEmpty())
            boxes.append(BoxGauges::fromBox(h.host, h.engines, h.box));
    }
    writeBoxGauges(out, boxes);
    writeProcessMetrics(out, m_startedAt);
    return out.text();
}

} // namespace switchyard
