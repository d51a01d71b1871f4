#pragma once

#include "config/config.h"
#include "relay/jsonmodelfield.h"
#include "upstream/upstreamexchange.h"

namespace switchyard {

class Catalog;
struct IncomingRequest;
struct ModelRoute;

// What goes to the engine for a client's request: the engine's URL, the path and query with the
// model's key, the headers it may see (the host's own api_key instead of the client's key to the
// relay) and the body with the model's value replaced by the engine's key.
class UpstreamRequestBuilder
{
public:
    // keysRequired: clients need a key to the relay, which must not reach the engine.
    UpstreamRequestBuilder(const Config &config, const Catalog *catalog, bool keysRequired);

    UpstreamExchange::Request build(const IncomingRequest &request, const ModelRoute &route,
                                    const QString &engine, const JsonModelField &field) const;
    static QByteArray target(const IncomingRequest &request, const QString &key);

private:
    Config m_config;
    const Catalog *m_catalog;
    bool m_keysRequired;
};

} // namespace switchyard
