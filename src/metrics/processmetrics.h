#pragma once

#include "metrics/prometheustext.h"

#include <QDateTime>

namespace switchyard {

// The relay's own process, under the names Prometheus' client libraries use:
// process_resident_memory_bytes, process_open_fds, process_start_time_seconds. Read from /proc;
// a value that cannot be read is left out rather than written as 0.
void writeProcessMetrics(PrometheusText &out, const QDateTime &startedAt);

} // namespace switchyard
