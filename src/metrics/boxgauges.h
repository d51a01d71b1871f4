#pragma once

#include "metrics/prometheustext.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace switchyard {

// A box shared by several relays as its agent describes it ("box" of /agent/events), read for
// the gauges: every relay scrapes the same truth, whoever asked for what.
struct BoxGauges
{
    QString host;                  // this relay's name for the box
    QStringList engines;           // the host's engines, in config order
    QMap<QString, int> running;    // requests the agent lets run, by relay ("machine:port")
    QMap<QString, int> waiting;    // requests waiting at the agent, by relay
    QSet<QString> switchHeld;      // engines a switch to waits for the running requests to end
    QString leaseOwner;            // empty when no lease

    // From the agent's "box" (state, engine, target, holds, lease).
    static BoxGauges fromBox(const QString &host, const QStringList &engines, const QJsonObject &box);
};

// The shared boxes' gauges: requests running and waiting per relay, switches held back for the
// running requests (of any relay), and who holds a lease.
void writeBoxGauges(PrometheusText &out, const QList<BoxGauges> &boxes);

} // namespace switchyard
