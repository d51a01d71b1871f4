#pragma once

#include "upstream/upstreamexchange.h"

#include <QByteArray>
#include <QUrl>

#include <chrono>

namespace switchyard {

// One call to a GPU box's agent: where, with which token, what. The agent's answers
// (AgentRequest) and its event streams (AgentStream) both go out as request() builds them.
struct AgentCall
{
    QUrl agent;
    QByteArray token;       // empty = send no Authorization header
    QByteArray method = "GET";
    QByteArray path;
    QByteArray body;        // JSON
    std::chrono::milliseconds connectTimeout{std::chrono::seconds(10)};

    // The exchange's request: the agent protocol's version, the token, a JSON body, and what
    // the caller accepts back.
    UpstreamExchange::Request request(const QByteArray &accept) const;
};

} // namespace switchyard
