#pragma once

#include "config/config.h"
#include "http/incomingrequest.h"
#include "relay/peerpolicy.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <optional>

namespace switchyard {

// Who may use what (docs/SECURITY.md). Client routes need one of the configured client keys, as
// "Authorization: Bearer KEY" or "x-api-key: KEY"; the admin API and leases need a trusted peer
// (loopback) that is not a browser page (no Origin header), or "Authorization: Bearer ADMIN_TOKEN".
// Every comparison is constant-time and goes
// through all candidates, so timing says nothing about which key was close or which matched.
class AccessPolicy final
{
public:
    enum class Verdict { Allowed, MissingKey, WrongKey };

    AccessPolicy() = default;
    explicit AccessPolicy(const AccessConfig &config);

    bool keysRequired() const { return !m_clientKeys.isEmpty(); }
    // keyName: set to the name of the key that matched (empty when no keys are configured).
    Verdict client(const IncomingRequest &request, QString *keyName = nullptr) const;
    bool admin(const IncomingRequest &request) const;
    // /metrics: whoever may use the admin API, or a scraper with the metrics token.
    bool metrics(const IncomingRequest &request) const;

    void setPeerPolicy(const PeerPolicy &peers) { m_peers = peers; }
    const PeerPolicy &peers() const { return m_peers; }

    // POST /admin/models/load or /admin/models/unload, let in by admin(): the client request
    // (/models/load, /models/unload) it stands for, without the caller's credentials (they never
    // go to an engine); nullopt for any other request. A window watching this relay from
    // elsewhere loads with the admin token, which opens no client route.
    static std::optional<IncomingRequest> adminModelAction(const IncomingRequest &request);

    // The token of "Authorization: Bearer TOKEN" (scheme case-insensitive), or empty.
    static QByteArray bearerToken(const QByteArray &authorization);

private:
    QList<QByteArray> m_clientKeys;
    QStringList m_clientKeyNames;     // by the index of m_clientKeys
    QByteArray m_adminToken;
    QByteArray m_metricsToken;
    PeerPolicy m_peers;
};

} // namespace switchyard
