#include "metrics/boxgauges.h"

#include <QJsonArray>

namespace switchyard {

using namespace Qt::StringLiterals;

BoxGauges BoxGauges::fromBox(const QString &host, const QStringList &engines, const QJsonObject &box)
{
    BoxGauges g;
    g.host = host;
    g.engines = engines;
    const QString engine = box.value("engine"_L1).toString();
    bool anyRunning = false;
    QSet<QString> waitedFor;
    for (const QJsonValue &v : box.value("holds"_L1).toArray()) {
        const QJsonObject hold = v.toObject();
        const QString relay = hold.value("relay"_L1).toString();
        if (hold.value("state"_L1).toString() == "running"_L1) {
            ++g.running[relay];
            anyRunning = true;
        } else {
            ++g.waiting[relay];
            waitedFor.insert(hold.value("engine"_L1).toString());
        }
    }
    // A drain toward the target, or requests for another engine waiting while the running one
    // still serves: either way the switch waits for the running requests.
    const QString target = box.value("target"_L1).toString();
    if (box.value("state"_L1).toString() == "draining"_L1 && !target.isEmpty())
        g.switchHeld.insert(target);
    if (anyRunning) {
        for (const QString &wanted : std::as_const(waitedFor)) {
            if (!wanted.isEmpty() && wanted != engine)
                g.switchHeld.insert(wanted);
        }
    }
    g.leaseOwner = box.value("lease"_L1).toObject().value("owner"_L1).toString();
    return g;
}

namespace {

using Gauge = PrometheusText::Type;

void perRelay(PrometheusText &out, const QByteArray &name, const QByteArray &help, const QList<BoxGauges> &boxes,
              QMap<QString, int> BoxGauges::*counts)
{
    out.family(name, Gauge::Gauge, help);
    for (const BoxGauges &b : boxes) {
        for (auto it = (b.*counts).cbegin(); it != (b.*counts).cend(); ++it)
            out.sample(name, {{"host", b.host}, {"relay", it.key()}}, it.value());
    }
}

} // namespace

void writeBoxGauges(PrometheusText &out, const QList<BoxGauges> &boxes)
{
    perRelay(out, "switchyard_box_requests_in_flight",
             "Requests a shared box's agent lets run now, by the relay that sent them.", boxes, &BoxGauges::running);
    perRelay(out, "switchyard_box_requests_waiting",
             "Requests waiting at a shared box's agent, by the relay that sent them.", boxes, &BoxGauges::waiting);
    out.family("switchyard_box_switch_held", Gauge::Gauge,
               "1 for an engine a shared box switches to once the running requests (of any relay) have ended.");
    for (const BoxGauges &b : boxes) {
        for (const QString &engine : b.engines)
            out.sample("switchyard_box_switch_held", {{"host", b.host}, {"engine", engine}}, b.switchHeld.contains(engine) ? 1 : 0);
    }
    out.family("switchyard_box_lease_held", Gauge::Gauge, "1 while a lease holds a shared box, by its owner (whichever relay took it).");
    for (const BoxGauges &b : boxes) {
        if (!b.leaseOwner.isEmpty())
            out.sample("switchyard_box_lease_held", {{"host", b.host}, {"owner", b.leaseOwner}}, 1);
    }
}

} // namespace switchyard
