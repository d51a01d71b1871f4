#include "relay/upstreamrequestbuilder.h"

#include "catalog/catalog.h"
#include "http/httpheaders.h"
#include "http/incomingrequest.h"
#include "relay/modelresolver.h"

#include <QUrlQuery>

namespace switchyard {

using namespace Qt::StringLiterals;

UpstreamRequestBuilder::UpstreamRequestBuilder(const Config &config, const Catalog *catalog, bool keysRequired)
    : m_config(config)
    , m_catalog(catalog)
    , m_keysRequired(keysRequired)
{
}

QByteArray UpstreamRequestBuilder::target(const IncomingRequest &request, const QString &key)
{
    QByteArray target = QUrl::toPercentEncoding(request.path, "/");
    if (!request.rawQuery.isEmpty()) {
        QUrlQuery query(QString::fromUtf8(request.rawQuery));
        if (query.hasQueryItem(u"model"_s)) {
            query.removeAllQueryItems(u"model"_s);
            query.addQueryItem(u"model"_s, QString::fromUtf8(QUrl::toPercentEncoding(key)));
        }
        target += '?' + query.toString(QUrl::FullyEncoded).toUtf8();
    }
    return target;
}

UpstreamExchange::Request UpstreamRequestBuilder::build(const IncomingRequest &request, const ModelRoute &route,
                                                        const QString &engine, const JsonModelField &field) const
{
    const Catalog::HostState *host = m_catalog->host(route.host);
    UpstreamExchange::Request up;
    up.base = host ? host->url : QUrl();
    if (host) {
        for (const Catalog::EngineModels &e : host->engines) {
            if (e.name == engine)
                up.base = e.url;
        }
    }
    up.method = request.method;
    up.target = target(request, route.key);
    up.headers = HttpHeaders::forwardable(request.headers);
    // A client's key to the relay is not the engine's business: the engine gets the host's own
    // api_key if it has one. Without either, the headers pass through as before, so an engine's
    // own --api-key still works for clients that send it.
    const HostConfig *hostConfig = m_config.host(route.host);
    const QString upstreamKey = hostConfig ? hostConfig->apiKey : QString();
    if (m_keysRequired || !upstreamKey.isEmpty()) {
        up.headers.removeIf([](const QPair<QByteArray, QByteArray> &h) {
            return h.first.compare("authorization", Qt::CaseInsensitive) == 0
                || h.first.compare("x-api-key", Qt::CaseInsensitive) == 0;
        });
    }
    if (!upstreamKey.isEmpty())
        up.headers.append({"Authorization", "Bearer " + upstreamKey.toUtf8()});
    up.headers.append({"X-Forwarded-For", request.clientAddress.toLatin1()});
    up.body = request.body;
    if (field.result == JsonModelField::Result::Found) {
        // The engine's own name for the model, spliced in as the body goes out.
        up.replaceFrom = field.start;
        up.replaceTo = field.end;
        up.replacement = JsonModelField::literal(route.key);
    }
    up.connectTimeout = m_config.limits.upstreamConnectTimeout;
    up.inactivityTimeout = m_config.limits.upstreamInactivityTimeout;
    return up;
}

} // namespace switchyard
