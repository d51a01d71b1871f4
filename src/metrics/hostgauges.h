#pragma once

#include "metrics/prometheustext.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace switchyard {

// One host as the gauges see it at scrape time.
struct HostGauges
{
    QString host;
    QString state;            // one of the state names given to writeHostGauges
    QString engine;           // the engine that runs now, empty when none
    QStringList engines;      // every engine of the host, in config order
    int running = 0;
    int waiting = 0;
    bool leased = false;
    int modelsLoaded = 0;
    QJsonObject box;          // a box shared with other relays: its agent's view; empty otherwise
};

// The per-host gauges: requests in flight and waiting, one 0/1 series per state and per engine
// (so a dashboard can sum or pick them without parsing a label), lease held, models loaded.
void writeHostGauges(PrometheusText &out, const QList<HostGauges> &hosts, const QStringList &stateNames);

} // namespace switchyard
