#include "relay/accesspolicy.h"

#include "common/constanttime.h"
#include "http/incomingrequest.h"

namespace switchyard {

using namespace Qt::StringLiterals;

AccessPolicy::AccessPolicy(const AccessConfig &config)
    : m_adminToken(config.adminToken.toUtf8())
    , m_metricsToken(config.metricsToken.toUtf8())
{
    for (const ClientApiKey &key : config.clientKeys) {
        m_clientKeys.append(key.key.toUtf8());
        m_clientKeyNames.append(key.name);
    }
}

QByteArray AccessPolicy::bearerToken(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    constexpr QByteArrayView scheme = "bearer ";
    if (value.size() <= scheme.size() || value.left(scheme.size()).toLower() != scheme)
        return {};
    return value.mid(scheme.size()).trimmed();
}

AccessPolicy::Verdict AccessPolicy::client(const IncomingRequest &request, QString *keyName) const
{
    if (m_clientKeys.isEmpty())
        return Verdict::Allowed;
    const QByteArray bearer = bearerToken(request.header("authorization"));
    const QByteArray apiKey = request.header("x-api-key").trimmed();
    if (bearer.isEmpty() && apiKey.isEmpty())
        return Verdict::MissingKey;
    // No early exit and no branch on a match: every key is compared against both headers, and the
    // matching one's index is summed in (keys are unique; should both headers match different
    // keys, the sum names neither and the bearer's wins below).
    qsizetype matchedBearer = 0;   // index + 1 of the key that matched, 0: none
    qsizetype matchedHeader = 0;
    for (qsizetype i = 0; i < m_clientKeys.size(); ++i) {
        const QByteArray &key = m_clientKeys.at(i);
        const bool viaBearer = constantTimeEquals(bearer, key) && !bearer.isEmpty();
        const bool viaHeader = constantTimeEquals(apiKey, key) && !apiKey.isEmpty();
        matchedBearer += qsizetype(viaBearer) * (i + 1);
        matchedHeader += qsizetype(viaHeader) * (i + 1);
    }
    const qsizetype matched = matchedBearer ? matchedBearer : matchedHeader;
    if (!matched)
        return Verdict::WrongKey;
    if (keyName)
        *keyName = m_clientKeyNames.value(matched - 1);
    return Verdict::Allowed;
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

std::optional<IncomingRequest> AccessPolicy::adminModelAction(const IncomingRequest &request)
{
    if (request.method != "POST" || (request.path != "/admin/models/load"_L1 && request.path != "/admin/models/unload"_L1))
        return std::nullopt;
    IncomingRequest action = request;
    action.path = request.path.mid(int(qstrlen("/admin")));
    action.headers.removeIf([](const QPair<QByteArray, QByteArray> &h) {
        return h.first.compare("authorization", Qt::CaseInsensitive) == 0 || h.first.compare("x-api-key", Qt::CaseInsensitive) == 0;
    });
    return action;
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
