#include "cli/logcommand.h"

#include "cli/adminclient.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("LogCommand", text);
}

struct Line
{
    QString at;     // ISO time, for ordering requests and events together
    QString text;
};

} // namespace

// Reads the running relay's history through its admin API (loopback), so it never writes to the
// store the relay owns.
int runLogCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    bool follow = false;
    QString host;
    QString model;
    QString relayFlag;
    int limit = 100;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        auto value = [&]() -> QString { return i + 1 < arguments.size() ? arguments.at(++i) : QString(); };
        if (a == "--follow"_L1 || a == "-f"_L1)
            follow = true;
        else if (a == "--host"_L1)
            host = value();
        else if (a == "--model"_L1)
            model = value();
        else if (a == "--relay"_L1)
            relayFlag = value();
        else if (a == "--limit"_L1)
            limit = qMax(1, value().toInt());
        else if (a == "--help"_L1 || a == "-h"_L1) {
            out << tr("Usage: switchyard log [--follow] [--host H] [--model M] [--limit N] [--relay URL]\n"
                      "Prints the running relay's request history and host events in the journal format,\n"
                      "oldest first; --follow keeps printing new lines as they happen.\n");
            return 0;
        } else {
            err << tr("switchyard log: unknown argument %1 (see --help)").arg(a) << Qt::endl;
            return 2;
        }
    }
    const QUrl relay = relayUrlFrom(relayFlag);
    QString since;
    QSet<qint64> seenRequests;
    QSet<qint64> seenEvents;
    auto fetch = [&]() -> bool {
        QUrlQuery q;
        if (!host.isEmpty())
            q.addQueryItem(u"host"_s, host);
        if (!model.isEmpty())
            q.addQueryItem(u"model"_s, model);
        if (!since.isEmpty())
            q.addQueryItem(u"since"_s, since);
        q.addQueryItem(u"limit"_s, QString::number(limit));
        const QByteArray query = q.toString(QUrl::FullyEncoded).toUtf8();
        const AdminReply requests = callRelay(relay, "GET", "/admin/requests?" + query);
        if (requests.status != 200) {
            err << tr("switchyard log: no history from the relay at %1: %2")
                       .arg(relay.toString(), requests.status ? QString::fromUtf8(requests.body) : requests.error)
                << Qt::endl;
            return false;
        }
        QList<Line> lines;
        for (const QJsonValue &v : QJsonDocument::fromJson(requests.body).array()) {
            const QJsonObject o = v.toObject();
            if (seenRequests.contains(o.value("id"_L1).toInteger()))
                continue;
            seenRequests.insert(o.value("id"_L1).toInteger());
            lines.append({o.value("started_at"_L1).toString(), o.value("journal"_L1).toString()});
        }
        if (model.isEmpty()) {
            const AdminReply events = callRelay(relay, "GET", "/admin/events?" + (since.isEmpty() ? QByteArray() : "since=" + QUrl::toPercentEncoding(since)));
            for (const QJsonValue &v : QJsonDocument::fromJson(events.body).array()) {
                const QJsonObject o = v.toObject();
                if ((!host.isEmpty() && o.value("host"_L1).toString() != host) || seenEvents.contains(o.value("id"_L1).toInteger()))
                    continue;
                seenEvents.insert(o.value("id"_L1).toInteger());
                const QDateTime at = QDateTime::fromString(o.value("at"_L1).toString(), Qt::ISODateWithMs);
                lines.append({o.value("at"_L1).toString(), at.toLocalTime().toString(u"yyyy/MM/dd HH:mm:ss"_s) + u' ' + o.value("text"_L1).toString()});
            }
        }
        std::sort(lines.begin(), lines.end(), [](const Line &a, const Line &b) { return a.at < b.at; });
        for (const Line &l : std::as_const(lines)) {
            out << l.text << '\n';
            since = std::max(since, l.at);
        }
        out.flush();
        return true;
    };
    if (!fetch())
        return 1;
    if (!follow)
        return 0;
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (!fetch())
            loop.exit(1);
    });
    poll.start(std::chrono::seconds(1));
    return loop.exec();
}

} // namespace switchyard
