#pragma once

#include "replies/clientreplies.h"

#include <QString>
#include <QStringList>

namespace switchyard {

// What the admin API (/admin/...) answers when it cannot do what was asked, in English like every
// reply (ClientReplies); a host's own refusals come from ClientReplies::fromHost.
namespace AdminReplies {

ClientReply noSuchHost(const QString &host);
ClientReply noSuchEndpoint(const QString &method, const QString &path);
ClientReply leaseOwnerMissing();
ClientReply leaseTtlOutOfRange();
ClientReply engineMissing(const QStringList &engines);
ClientReply requestStateUnknown(const QString &state);
ClientReply noHistoryStore();
ClientReply sinceUnreadable(const QString &since);
ClientReply usageByUnknown(const QString &by);

} // namespace AdminReplies

} // namespace switchyard
