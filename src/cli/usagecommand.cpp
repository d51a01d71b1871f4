#include "cli/usagecommand.h"

#include "cli/adminclient.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QUrlQuery>

#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("UsageCommand", text);
}

// "0s", "0.02s", "2.5s", "12s", "3m05s", "2h07m": exact enough for a bill, short enough for a column.
QString gpuTime(double seconds)
{
    if (seconds <= 0)
        return u"0s"_s;
    if (seconds < 1)
        return QString::number(seconds, 'f', 2) + u's';
    if (seconds < 10)
        return QString::number(seconds, 'f', 1) + u's';
    if (seconds < 60)
        return QString::number(std::lround(seconds)) + u's';
    const qint64 s = std::llround(seconds);
    if (s < 3600)
        return u"%1m%2s"_s.arg(s / 60).arg(int(s % 60), 2, 10, QChar(u'0'));
    return u"%1h%2m"_s.arg(s / 3600).arg(int(s / 60 % 60), 2, 10, QChar(u'0'));
}

QStringList cells(const QString &name, const QJsonObject &row)
{
    return {name,
            QString::number(row.value("requests"_L1).toInteger()),
            QString::number(row.value("tokens_in"_L1).toInteger()),
            QString::number(row.value("tokens_out"_L1).toInteger()),
            gpuTime(row.value("gpu_seconds"_L1).toDouble()),
            QString::number(row.value("switches"_L1).toInteger())};
}

} // namespace

int runUsageCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QString since = u"7d"_s;
    QString by = u"key"_s;
    QString relayFlag;
    bool json = false;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        auto value = [&]() -> QString { return i + 1 < arguments.size() ? arguments.at(++i) : QString(); };
        if (a == "--since"_L1)
            since = value();
        else if (a == "--by"_L1)
            by = value();
        else if (a == "--relay"_L1)
            relayFlag = value();
        else if (a == "--json"_L1)
            json = true;
        else if (a == "--help"_L1 || a == "-h"_L1) {
            out << tr("Usage: switchyard usage [--since 7d] [--by key|client|alias|host] [--json] [--relay URL]\n"
                      "Prints what each client key (or client app, alias, host) used of the fleet since then:\n"
                      "requests, tokens in (prompts) and out (generated), GPU time (its requests' time on an\n"
                      "engine, from being forwarded to their end, without waits for a switch, a wake or the queue)\n"
                      "and the engine switches its requests caused.\n"
                      "--since takes 30m, 24h, 7d, 2w, seconds since the epoch or an ISO time.\n");
            return 0;
        } else {
            err << tr("switchyard usage: unknown argument %1 (see --help)").arg(a) << Qt::endl;
            return 2;
        }
    }
    const QUrl relay = relayUrlFrom(relayFlag);
    QUrlQuery q;
    q.addQueryItem(u"since"_s, since);
    q.addQueryItem(u"by"_s, by);
    const AdminReply reply = callRelay(relay, "GET", "/admin/usage?" + q.toString(QUrl::FullyEncoded).toUtf8());
    if (reply.status != 200) {
        err << tr("switchyard usage: no usage from the relay at %1: %2")
                   .arg(relay.toString(), reply.status ? QString::fromUtf8(reply.body) : reply.error)
            << Qt::endl;
        return reply.status == 400 ? 2 : 1;
    }
    const QJsonObject report = QJsonDocument::fromJson(reply.body).object();
    if (json) {
        out << QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Indented));
        return 0;
    }
    const QString column = by == "client"_L1 ? tr("CLIENT") : by == "alias"_L1 ? tr("ALIAS")
            : by == "host"_L1 ? tr("HOST") : tr("KEY");
    QList<QStringList> table{{column, tr("REQUESTS"), tr("TOKENS IN"), tr("TOKENS OUT"), tr("GPU TIME"), tr("SWITCHES")}};
    for (const QJsonValue &v : report.value("rows"_L1).toArray()) {
        const QJsonObject row = v.toObject();
        const QString name = row.value("name"_L1).toString();
        table.append(cells(name.isEmpty() ? u"-"_s : name, row));
    }
    table.append(cells(tr("total"), report.value("total"_L1).toObject()));
    QList<qsizetype> widths(table.first().size(), 0);
    for (const QStringList &row : std::as_const(table)) {
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row.at(c).size());
    }
    const QDateTime from = QDateTime::fromString(report.value("since"_L1).toString(), Qt::ISODateWithMs);
    out << tr("Since %1, by %2:").arg(from.toLocalTime().toString(u"yyyy-MM-dd HH:mm"_s), by) << '\n';
    for (const QStringList &row : std::as_const(table)) {
        QString line = row.at(0).leftJustified(widths.at(0));
        for (qsizetype c = 1; c < row.size(); ++c)
            line += u"  "_s + row.at(c).rightJustified(widths.at(c));
        out << line << '\n';
    }
    if (const qint64 none = report.value("unattributed_switches"_L1).toInteger(); none > 0)
        out << tr("%1 of the switches were caused by no request (an admin's switch, a lease's end).").arg(none) << '\n';
    out.flush();
    return 0;
}

} // namespace switchyard
