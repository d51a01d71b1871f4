#include "admin/usagequery.h"

#include "store/historystore.h"
#include "store/requestquery.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace UsageQuery {

std::optional<QDateTime> parseSince(const QString &text, const QDateTime &now)
{
    static const QRegularExpression relative(u"\\A(\\d{1,6})([smhdw])\\z"_s);
    const QRegularExpressionMatch m = relative.match(text);
    if (m.hasMatch()) {
        const qint64 n = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0);
        const qint64 seconds = unit == u's' ? n : unit == u'm' ? n * 60 : unit == u'h' ? n * 3600
                : unit == u'd' ? n * 86400 : n * 7 * 86400;
        return now.addSecs(-seconds);
    }
    bool isNumber = false;
    const qint64 epoch = text.toLongLong(&isNumber);
    if (isNumber)
        return QDateTime::fromSecsSinceEpoch(epoch);
    const QDateTime parsed = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (parsed.isValid())
        return parsed;
    return std::nullopt;
}

UsageReport report(HistoryStore &store, const QDateTime &since, UsageReport::By by)
{
    RequestQuery query;
    query.since = since;
    query.limit = 0;
    return UsageReport::build(store.requests(query), store.events(since, 0), by);
}

namespace {

QJsonObject rowJson(const UsageRow &row)
{
    return QJsonObject{{"name"_L1, row.name},
                       {"requests"_L1, row.requests},
                       {"tokens_in"_L1, row.tokensIn},
                       {"tokens_out"_L1, row.tokensOut},
                       {"gpu_seconds"_L1, std::chrono::duration<double>(row.gpuTime).count()},
                       {"switches"_L1, row.switches}};
}

} // namespace

QJsonObject toJson(const UsageReport &report, const QDateTime &since)
{
    QJsonArray rows;
    for (const UsageRow &row : report.rows)
        rows.append(rowJson(row));
    QJsonObject total = rowJson(report.total);
    total.remove("name"_L1);
    return QJsonObject{{"since"_L1, since.toString(Qt::ISODateWithMs)},
                       {"by"_L1, UsageReport::byName(report.by)},
                       {"rows"_L1, rows},
                       {"total"_L1, total},
                       {"unattributed_switches"_L1, report.unattributedSwitches}};
}

} // namespace UsageQuery

} // namespace switchyard
