#include "store/usagereport.h"

#include "journal/clientapp.h"

#include <QHash>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString groupOf(const RequestRecord &r, UsageReport::By by)
{
    switch (by) {
    case UsageReport::By::Key: return r.keyName;
    case UsageReport::By::Client: return clientAppName(clientAppFromUserAgent(r.userAgent));
    case UsageReport::By::Alias: return r.model;
    case UsageReport::By::Host: return r.host;
    }
    return {};
}

// The admin API and /metrics: the relay's own business, not use of the fleet (a scraper alone
// would be 40,000 requests a week).
bool isRelaysOwn(const RequestRecord &r)
{
    return r.path == u"/metrics" || r.path == u"/admin" || r.path.startsWith(u"/admin/");
}

// From when the engine began on it to its end: the duration less its waits before that (the
// host check, a switch, a wake, the queue, a lease; a router's model load until its first
// byte). From forwarding, not from the first byte: the prompt's processing before the first
// byte is the engine's work for it (most of it, for a long agent context), and an answer that
// is not streamed has its first byte at its end. Never below zero: both are rounded.
std::chrono::nanoseconds gpuTime(const RequestRecord &r)
{
    return std::max(std::chrono::nanoseconds(0), r.duration - r.waited);
}

void count(UsageRow &row, const RequestRecord &r)
{
    ++row.requests;
    row.tokensIn += r.promptTokens.value_or(0);
    row.tokensOut += r.streamedTokens.value_or(0);
    if (!r.host.isEmpty())
        row.gpuTime += gpuTime(r);
}

} // namespace

QString UsageReport::byName(By by)
{
    switch (by) {
    case By::Key: return u"key"_s;
    case By::Client: return u"client"_s;
    case By::Alias: return u"alias"_s;
    case By::Host: return u"host"_s;
    }
    return {};
}

std::optional<UsageReport::By> UsageReport::byFromName(QStringView name)
{
    for (By by : {By::Key, By::Client, By::Alias, By::Host}) {
        if (name == byName(by))
            return by;
    }
    return std::nullopt;
}

const RequestRecord *UsageReport::switchCause(const HistoryEvent &switchStart,
                                              const QList<const RequestRecord *> &requests)
{
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    const qint64 at = switchStart.at.toMSecsSinceEpoch();
    const RequestRecord *best = nullptr;
    bool bestForAlias = false;
    for (const RequestRecord *candidate : requests) {
        const RequestRecord &r = *candidate;
        if (r.host != switchStart.host || r.engine != switchStart.engine)
            continue;
        const qint64 start = r.startedAt.toMSecsSinceEpoch();
        // +1: both ends are cut to whole milliseconds.
        const qint64 end = start + duration_cast<milliseconds>(r.duration).count() + 1;
        if (start > at || end < at)
            continue;
        const bool forAlias = !switchStart.model.isEmpty() && r.model == switchStart.model;
        const bool earlier = !best || start < best->startedAt.toMSecsSinceEpoch()
                || (start == best->startedAt.toMSecsSinceEpoch() && r.id < best->id);
        if (!best || (forAlias && !bestForAlias) || (forAlias == bestForAlias && earlier)) {
            best = &r;
            bestForAlias = forAlias;
        }
    }
    return best;
}

UsageReport UsageReport::build(const QList<RequestRecord> &requests, const QList<HistoryEvent> &events, By by)
{
    UsageReport report;
    report.by = by;
    QHash<QString, qsizetype> index;
    auto rowFor = [&](const QString &name) -> UsageRow & {
        auto it = index.constFind(name);
        if (it == index.constEnd()) {
            it = index.insert(name, report.rows.size());
            report.rows.append(UsageRow{name});
        }
        return report.rows[*it];
    };
    QHash<QString, QList<const RequestRecord *>> byHost;   // what each switch's cause is looked for in
    for (const RequestRecord &r : requests) {
        if (isRelaysOwn(r))
            continue;
        count(rowFor(groupOf(r, by)), r);
        count(report.total, r);
        if (!r.host.isEmpty())
            byHost[r.host].append(&r);
    }
    for (const HistoryEvent &e : events) {
        if (e.kind != HistoryEvent::Kind::SwitchStart)
            continue;
        ++report.total.switches;
        if (const RequestRecord *cause = switchCause(e, byHost.value(e.host)))
            ++rowFor(groupOf(*cause, by)).switches;
        else
            ++report.unattributedSwitches;
    }
    std::sort(report.rows.begin(), report.rows.end(), [](const UsageRow &a, const UsageRow &b) {
        return a.requests != b.requests ? a.requests > b.requests : a.name < b.name;
    });
    return report;
}

} // namespace switchyard
