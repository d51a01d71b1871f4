#pragma once

#include "store/usagereport.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace switchyard {

class HistoryStore;

// GET /admin/usage?since=7d&by=key: the period's UsageReport as JSON, for `switchyard usage`.
namespace UsageQuery {

// "7d", "24h", "30m", "90s", "2w" back from now; also seconds since the epoch or an ISO time,
// like the other admin queries. nullopt for anything else.
std::optional<QDateTime> parseSince(const QString &text, const QDateTime &now);

// The report of the requests started at or after since and the switches begun since then.
UsageReport report(HistoryStore &store, const QDateTime &since, UsageReport::By by);

// {"since": ISO, "by": "key", "rows": [{"name", "requests", "tokens_in", "tokens_out",
//  "gpu_seconds", "switches"}...], "total": {...}, "unattributed_switches": n}
QJsonObject toJson(const UsageReport &report, const QDateTime &since);

} // namespace UsageQuery

} // namespace switchyard
