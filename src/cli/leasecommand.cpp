#include "cli/leasecommand.h"

#include "cli/adminclient.h"
#include "common/unixsignals.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QUrl>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LeaseCommand", text);
}
} // namespace

int runLeaseCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QString host;
    QString owner;
    QString relayFlag;
    qint64 ttl = 24 * 3600;
    QStringList command;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        auto value = [&]() -> QString { return i + 1 < arguments.size() ? arguments.at(++i) : QString(); };
        if (a == "--"_L1) {
            command = arguments.mid(i + 1);
            break;
        }
        if (a == "--owner"_L1)
            owner = value();
        else if (a == "--relay"_L1)
            relayFlag = value();
        else if (a == "--ttl"_L1)
            ttl = value().toLongLong();
        else if (a == "--help"_L1 || a == "-h"_L1) {
            out << tr("Usage: switchyard lease HOST --owner NAME [--ttl SECONDS] [--relay URL] -- COMMAND...\n"
                      "Takes HOST's GPU from the relay: waits for its running requests to finish, stops its engine,\n"
                      "runs COMMAND, and gives the host back however COMMAND ends. Meanwhile model requests for\n"
                      "HOST get 423 naming NAME. Exits with COMMAND's exit code.\n");
            return 0;
        } else if (host.isEmpty() && !a.startsWith(u'-'))
            host = a;
        else {
            err << tr("switchyard lease: unknown argument %1 (see --help)").arg(a) << Qt::endl;
            return 2;
        }
    }
    if (host.isEmpty() || owner.isEmpty() || command.isEmpty() || ttl <= 0) {
        err << tr("switchyard lease: needs HOST, --owner NAME and -- COMMAND (see --help)") << Qt::endl;
        return 2;
    }
    const QUrl relay = relayUrlFrom(relayFlag);
    const QByteArray target = "/admin/hosts/" + QUrl::toPercentEncoding(host) + "/lease";
    err << tr("switchyard lease: waiting for host %1 to drain and stop its engine...").arg(host) << Qt::endl;
    const AdminReply taken = callRelay(relay, "POST", target,
                                       QJsonDocument(QJsonObject{{"owner"_L1, owner}, {"ttl_s"_L1, double(ttl)}}).toJson(QJsonDocument::Compact),
                                       std::chrono::hours(24));
    if (taken.status != 200) {
        err << tr("switchyard lease: the relay at %1 did not grant the lease: %2")
                   .arg(relay.toString(), taken.status ? QString::fromUtf8(taken.body) : taken.error)
            << Qt::endl;
        return 1;
    }
    err << tr("switchyard lease: host %1 is yours; running %2").arg(host, command.join(u' ')) << Qt::endl;

    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.setInputChannelMode(QProcess::ForwardedInputChannel);
    UnixSignals signals_;
    QObject::connect(&signals_, &UnixSignals::terminationRequested, &process, [&process](int) { process.terminate(); });
    int exitCode = 127;
    process.start(command.first(), command.mid(1));
    if (process.waitForStarted(-1)) {
        QEventLoop loop;
        QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
        if (process.state() != QProcess::NotRunning)
            loop.exec();
        exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : 128 + 15;
    } else {
        err << tr("switchyard lease: cannot run %1: %2").arg(command.first(), process.errorString()) << Qt::endl;
    }
    const AdminReply released = callRelay(relay, "DELETE", target);
    if (released.status != 200)
        err << tr("switchyard lease: could not give host %1 back: %2 (it is released when the lease's time runs out)")
                   .arg(host, released.status ? QString::fromUtf8(released.body) : released.error)
            << Qt::endl;
    else
        err << tr("switchyard lease: host %1 given back").arg(host) << Qt::endl;
    return exitCode;
}

} // namespace switchyard
