#include "cli/adminclient.h"

#include "upstream/upstreamexchange.h"
#include "upstream/upstreampool.h"

#include <QEventLoop>
#include <QTimer>

namespace switchyard {

using namespace Qt::StringLiterals;

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
    QObject::connect(&exchange, &UpstreamExchange::failed, &loop, [&](UpstreamExchange::Failure, const QString &message) {
        reply.error = message;
        loop.quit();
    });
    QTimer::singleShot(timeout, &loop, [&] {
        reply.error = u"no answer within %1 s"_s.arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
        exchange.abort();
        loop.quit();
    });
    exchange.start();
    loop.exec();
    return reply;
}

} // namespace switchyard
