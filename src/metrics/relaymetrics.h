#pragma once

#include "metrics/hostgauges.h"
#include "metrics/requestmetrics.h"

#include <QDateTime>
#include <QObject>

#include <functional>

namespace switchyard {

struct HistoryEvent;

// Everything GET /metrics answers: the request counters (fed by the relay's finished requests),
// the switch counters (fed by the hosts' history events), and at scrape time the hosts' gauges
// and the process's own numbers.
class RelayMetrics : public QObject
{
    Q_OBJECT

public:
    using HostSnapshot = std::function<QList<HostGauges>()>;
    using AliasCheck = std::function<bool(const QString &alias)>;

    // servedAlias says whether a model name is one the relay serves: only those become an alias
    // label, any other name a client sends is counted as "other" (labels stay bounded).
    RelayMetrics(QDateTime startedAt, HostSnapshot hosts, AliasCheck servedAlias, QObject *parent = nullptr);

    void requestFinished(const RequestRecord &request);
    void historyEvent(const HistoryEvent &event);

    QByteArray exposition() const;
    static QByteArray contentType() { return QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8"); }

private:
    QDateTime m_startedAt;
    HostSnapshot m_hosts;
    AliasCheck m_servedAlias;
    RequestMetrics m_requests;
    CounterFamily m_switches;
    CounterFamily m_switchFailures;
    HistogramFamily m_switchDuration;
    CounterFamily m_loads;
    CounterFamily m_cacheSaves;
    CounterFamily m_cacheRestores;
    CounterFamily m_wakes;
    CounterFamily m_idleStops;
};

} // namespace switchyard
