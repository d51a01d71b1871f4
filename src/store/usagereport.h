#pragma once

#include "journal/requestrecord.h"
#include "store/historyevent.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <chrono>
#include <optional>

namespace switchyard {

// Who used the fleet how much over a period: `switchyard usage` and GET /admin/usage
// (docs/METRICS.md, "Usage per client key", says how each column is counted).
struct UsageRow
{
    QString name;                          // the key's name, client app, alias or host; empty: none
    qint64 requests = 0;
    qint64 tokensIn = 0;                   // prompt tokens, the cached part included
    qint64 tokensOut = 0;                  // generated tokens
    std::chrono::nanoseconds gpuTime{0};   // its requests' time on a host's engine: from being forwarded
                                           // to the end, the waits before that (switch, wake, queue) not
    qint64 switches = 0;                   // engine switches its requests caused
};

struct UsageReport
{
    enum class By { Key, Client, Alias, Host };

    By by = By::Key;
    QList<UsageRow> rows;                  // most requests first, then by name
    UsageRow total;                        // every request and every switch, caused by one or not

    // Requests to the admin API and /metrics count nowhere: they use the relay, not the fleet.
    qint64 unattributedSwitches = 0;       // switches no request caused (admin, a lease's end)

    static QString byName(By by);          // "key", "client", "alias", "host"
    static std::optional<By> byFromName(QStringView name);

    // requests and events: those of the period, in any order.
    static UsageReport build(const QList<RequestRecord> &requests, const QList<HistoryEvent> &events, By by);

    // The request that caused a switch: one routed to the switch's host and target engine that
    // had arrived and not yet ended when the switch started; of several, one for the alias the
    // switch was for, else the earliest. nullptr when none did (an admin's or a lease's switch).
    // requests: those of the period (a report passes only the switch's host's).
    static const RequestRecord *switchCause(const HistoryEvent &switchStart,
                                            const QList<const RequestRecord *> &requests);
};

} // namespace switchyard
