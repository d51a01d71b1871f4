#include "cli/adminclient.h"

#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// The exchange words a failure for the engines it usually talks to ("the engine refused the
// connection"); here the other end is the relay, which is what a user must go and check.
QString relayFailure(UpstreamExchange::Failure failure, const QString &message)
{
    switch (failure) {
    case UpstreamExchange::Failure::Refused:
        return QCoreApplication::translate("AdminClient", "the connection was refused: is the relay running?");
    case UpstreamExchange::Failure::HostNotFound:
        return QCoreApplication::translate("AdminClient", "the relay's host name does not resolve");
    case UpstreamExchange::Failure::Dropped:
        return QCoreApplication::translate("AdminClient", "the relay closed the connection without answering");
    default:
        return message;   // neutral already ("no connection within 10 s"), or the parser's words
    }
}

} // namespace

QUrl relayUrlFrom(const QString &flag)
{
    return QUrl(flag.isEmpty() ? u"http://127.0.0.1:18766"_s : flag);
}

AdminReply callRelay(const QUrl &relay, const QByteArray &method, const QByteArray &target, const QByteArray &body,
                     std::chrono::milliseconds timeout)
{
    UpstreamPool pool;
    UpstreamExchange::Request request;
    request.base = relay;
    request.method = method;
    request.target = target;
    request.body = body;
    if (!body.isEmpty())
        request.headers = {{"Content-Type", "application/json"}};
    // For a relay on another machine: its admin API wants the admin token from there.
    if (const QByteArray token = qgetenv("SWITCHYARD_ADMIN_TOKEN"); !token.isEmpty())
        request.headers.append({"Authorization", "Bearer " + token});
    UpstreamExchange exchange(&pool, request);
    AdminReply reply;
    QEventLoop loop;
    QObject::connect(&exchange, &UpstreamExchange::bodyData, &loop, [&reply](const QByteArray &d) { reply.body += d; });
    QObject::connect(&exchange, &UpstreamExchange::finished, &loop, [&] {
        reply.status = exchange.status();
        loop.quit();
    });
    QObject::connect(&exchange, &UpstreamExchange::failed, &loop, [&](UpstreamExchange::Failure failure, const QString &message) {
        reply.error = relayFailure(failure, message);
        loop.quit();
    });
    QTimer::singleShot(timeout, &loop, [&] {
        reply.error = QCoreApplication::translate("AdminClient", "no answer within %1 s").arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
        exchange.abort();
        loop.quit();
    });
    exchange.start();
    loop.exec();
    return reply;
}

} // namespace switchyard
