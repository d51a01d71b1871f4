#pragma once

#include "metrics/hostgauges.h"

#include <QHash>

namespace switchyard {

class Catalog;
class HostController;

// The gauges of every host the catalog knows, read now: from its controller where it has one
// (state, requests, lease), else from the catalog (a static host serves while it answers).
QList<HostGauges> fleetGauges(const Catalog &catalog, const QHash<QString, HostController *> &controllers);

} // namespace switchyard
