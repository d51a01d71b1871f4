#include "replies/adminreplies.h"

namespace switchyard::AdminReplies {

using namespace Qt::StringLiterals;

namespace {

ClientReply reply(int status, const QString &message)
{
    ClientReply r;
    r.status = status;
    r.message = message;
    return r;
}

} // namespace

ClientReply noSuchHost(const QString &host)
{
    return reply(404, u"no host %1 with a controller"_s.arg(host));
}

ClientReply noSuchEndpoint(const QString &method, const QString &path)
{
    return reply(404, u"no admin endpoint %1 %2"_s.arg(method, path));
}

ClientReply leaseOwnerMissing()
{
    return reply(400, u"\"owner\" is required: who holds the GPU"_s);
}

ClientReply leaseTtlOutOfRange()
{
    return reply(400, u"\"ttl_s\" must be between 1 and 604800"_s);
}

ClientReply engineMissing(const QStringList &engines)
{
    return reply(400, u"\"engine\" is required: one of %1"_s.arg(engines.join(u", "_s)));
}

ClientReply requestStateUnknown(const QString &state)
{
    return reply(400, u"\"state\" is active or done, not %1"_s.arg(state));
}

ClientReply noHistoryStore()
{
    // 424: the relay runs without its history (it could not open the database), not a bad request.
    return reply(424, u"no history store is open"_s);
}

ClientReply sinceUnreadable(const QString &since)
{
    return reply(400, u"since=%1: expected a period such as 7d, 24h, 30m or 2w, seconds since the epoch, or an ISO time"_s
                     .arg(since));
}

ClientReply usageByUnknown(const QString &by)
{
    return reply(400, u"by=%1: expected key, client, alias or host"_s.arg(by));
}

} // namespace switchyard::AdminReplies
