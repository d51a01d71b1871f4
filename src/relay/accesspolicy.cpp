#include "relay/accesspolicy.h"

#include "common/constanttime.h"
#include "http/incomingrequest.h"

namespace switchyard {

AccessPolicy::AccessPolicy(const AccessConfig &config)
    : m_adminToken(config.adminToken.toUtf8())
    , m_metricsToken(config.metricsToken.toUtf8())
{
    for (const QString &key : config.clientKeys)
        m_clientKeys.append(key.toUtf8());
}

QByteArray AccessPolicy::bearerToken(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    constexpr QByteArrayView scheme = "bearer ";
    if (value.size() <= scheme.size() || value.left(scheme.size()).toLower() != scheme)
        return {};
    return value.mid(scheme.size()).trimmed();
}

AccessPolicy::Verdict AccessPolicy::client(const IncomingRequest &request) const
{
    if (m_clientKeys.isEmpty())
        return Verdict::Allowed;
    const QByteArray bearer = bearerToken(request.header("authorization"));
    const QByteArray apiKey = request.header("x-api-key").trimmed();
    if (bearer.isEmpty() && apiKey.isEmpty())
        return Verdict::MissingKey;
    // No early exit: every key is compared against both headers.
    bool match = false;
    for (const QByteArray &key : m_clientKeys) {
        const bool viaBearer = constantTimeEquals(bearer, key);
        const bool viaHeader = constantTimeEquals(apiKey, key);
        match = match | (viaBearer && !bearer.isEmpty()) | (viaHeader && !apiKey.isEmpty());
    }
    return match ? Verdict::Allowed : Verdict::WrongKey;
}

bool AccessPolicy::admin(const IncomingRequest &request) const
{
    // A browser on this machine also connects from loopback, and the CORS preflight lets any web
    // page it shows send a POST here; browsers mark such requests with Origin. So a page gets no
    // lease without the token, while curl and `switchyard lease` (no Origin) need none.
    if (m_peers.isTrusted(request.peer) && request.header("origin").isEmpty())
        return true;
    if (m_adminToken.isEmpty())
        return false;
    const QByteArray bearer = bearerToken(request.header("authorization"));
    return constantTimeEquals(bearer, m_adminToken) && !bearer.isEmpty();
}

bool AccessPolicy::metrics(const IncomingRequest &request) const
{
    if (admin(request))
        return true;
    if (m_metricsToken.isEmpty())
        return false;
    const QByteArray bearer = bearerToken(request.header("authorization"));
    return constantTimeEquals(bearer, m_metricsToken) && !bearer.isEmpty();
}

} // namespace switchyard
