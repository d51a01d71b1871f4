#pragma once

// What the security tests share: the keys and tokens they configure, the fake router's one
// model, and one request on a fresh connection (from a chosen address, to play a LAN peer).
#include "rawhttpclient.h"
#include "relayfixture.h"

#include <QHostAddress>
#include <QTest>

namespace switchyard::test::security {

using namespace Qt::StringLiterals;

inline const QString ClientKey = u"sk-relay-client-key-0123456789abcdef"_s;
inline const QString OtherClientKey = u"second-client-key-XYZ"_s;
inline const QString AdminToken = u"admin-token-f00dfeedbeef"_s;
inline const QString MetricsToken = u"scraper-token-5ca1ab1e0ff"_s;
inline const QByteArray WrongKey = "sk-wrong-key-that-must-not-be-logged-42";
inline const QByteArray WrongAdminToken = "wrong-admin-token-never-logged-77";

inline fake::FakeOptions routerOptions()
{
    fake::FakeOptions o;
    o.models = {u"alpha"_s};
    o.loaded = {u"alpha"_s};
    o.tokensPerSecond = 1000;
    return o;
}

inline QByteArray chatBody(bool stream = false)
{
    return R"({"model":"h1-alpha","messages":[{"role":"user","content":"hi"}],"max_tokens":2)"
        + QByteArray(stream ? R"(,"stream":true})" : "}");
}

// Sends one request on a fresh connection (from `from`, when given) and returns the answer.
inline RawHttpClient::Response roundTrip(quint16 port, const QByteArray &raw, const QHostAddress &from = {})
{
    RawHttpClient client(port);
    if (!from.isNull() && !client.socket()->bind(from))
        qFatal("cannot bind the test client to %s", qPrintable(from.toString()));
    if (!client.connectToServer())
        return {};
    client.send(raw);
    if (!QTest::qWaitFor([&] { return client.completedResponses() >= 1; }, 15000))
        return {};
    return client.responses().first();
}

} // namespace switchyard::test::security
