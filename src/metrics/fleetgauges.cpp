#include "metrics/fleetgauges.h"

#include "catalog/catalog.h"
#include "hosts/hostcontroller.h"

#include <algorithm>

namespace switchyard {

QList<HostGauges> fleetGauges(const Catalog &catalog, const QHash<QString, HostController *> &controllers)
{
    QList<HostGauges> out;
    for (const QString &name : catalog.hostNames()) {
        const Catalog::HostState *host = catalog.host(name);
        if (!host)
            continue;
        HostGauges g;
        g.host = name;
        for (const Catalog::EngineModels &e : host->engines)
            g.engines << e.name;
        g.modelsLoaded = int(std::count_if(host->models.cbegin(), host->models.cend(),
                                           [](const ModelEntry &m) { return m.status == u"loaded"; }));
        if (const HostController *c = controllers.value(name)) {
            g.state = c->stateName();
            g.engine = c->currentEngine();
            g.running = c->runningRequests();
            g.waiting = c->waitingRequests();
            g.leased = !c->leaseOwner().isEmpty();
            g.box = c->box();
        } else {
            g.state = host->reachable ? QStringLiteral("serving") : QStringLiteral("down");
            g.engine = host->reachable ? host->engine : QString();
        }
        out << g;
    }
    return out;
}

} // namespace switchyard
