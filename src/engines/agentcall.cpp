#include "engines/agentcall.h"

#include "engines/boxprotocol.h"

namespace switchyard {

UpstreamExchange::Request AgentCall::request(const QByteArray &accept) const
{
    UpstreamExchange::Request request;
    request.base = agent;
    request.method = method;
    request.target = path;
    request.body = body;
    request.connectTimeout = connectTimeout;
    request.headers.append(qMakePair(QByteArray("Accept"), accept));
    if (!body.isEmpty())
        request.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    request.headers.append(qMakePair(BoxProtocol::Header.toByteArray(), QByteArray::number(BoxProtocol::Version)));
    if (!token.isEmpty())
        request.headers.append(qMakePair(QByteArray("Authorization"), "Bearer " + token));
    return request;
}

} // namespace switchyard
