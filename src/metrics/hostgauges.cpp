#include "metrics/hostgauges.h"

namespace switchyard {

namespace {

using Gauge = PrometheusText::Type;

template<typename Value>
void perHost(PrometheusText &out, const QByteArray &name, const QByteArray &help, const QList<HostGauges> &hosts, Value value)
{
    out.family(name, Gauge::Gauge, help);
    for (const HostGauges &h : hosts)
        out.sample(name, {{"host", h.host}}, double(value(h)));
}

} // namespace

void writeHostGauges(PrometheusText &out, const QList<HostGauges> &hosts, const QStringList &stateNames)
{
    perHost(out, "switchyard_host_requests_in_flight", "Requests a host is serving now.", hosts,
            [](const HostGauges &h) { return h.running; });
    perHost(out, "switchyard_host_requests_waiting", "Requests waiting for a host (a switch, a load, a lease).", hosts,
            [](const HostGauges &h) { return h.waiting; });
    perHost(out, "switchyard_host_lease_held", "1 while a lease owns the host's GPU.", hosts,
            [](const HostGauges &h) { return h.leased ? 1 : 0; });
    perHost(out, "switchyard_host_models_loaded", "Models the host's running engine has loaded.", hosts,
            [](const HostGauges &h) { return h.modelsLoaded; });

    out.family("switchyard_host_state", Gauge::Gauge, "1 for the state a host is in, 0 for the others.");
    for (const HostGauges &h : hosts) {
        for (const QString &state : stateNames)
            out.sample("switchyard_host_state", {{"host", h.host}, {"state", state}}, h.state == state ? 1 : 0);
    }
    out.family("switchyard_engine_running", Gauge::Gauge, "1 for the engine that runs on a host, 0 for the others.");
    for (const HostGauges &h : hosts) {
        for (const QString &engine : h.engines)
            out.sample("switchyard_engine_running", {{"host", h.host}, {"engine", engine}}, h.engine == engine ? 1 : 0);
    }
}

} // namespace switchyard
