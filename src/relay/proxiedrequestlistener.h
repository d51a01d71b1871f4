#pragma once

#include "relay/proxiedrequest.h"

#include <QString>

namespace switchyard {

// What a ProxiedRequest tells the one who started it (the Relay), and the few things it asks:
// one interface instead of a callback per question, so that a request's whole conversation with
// the relay is in one place. Every call names its request; the listener outlives its requests.
class ProxiedRequestListener
{
public:
    // Asked at each waiting comment after an early 200: what the request waits for now
    // ("host h1 to load alpha"), after any failover.
    virtual QString requestWaitingFor(const ProxiedRequest *request) = 0;
    // Sent upstream for the first time (a retry or a failover does not report it again).
    virtual void requestSent(ProxiedRequest *request) = 0;
    // The upstream's status arrived, before anything of its answer reaches the client.
    virtual void requestAnswering(ProxiedRequest *request, int status) = 0;
    // While it streams: the events so far (about one per token), a few times a second at most.
    virtual void requestStreamed(ProxiedRequest *request, qint64 tokens) = 0;
    // The engine cannot be reached before it answered (refused, reset, no connection in time, a
    // name that does not resolve): its host reads down, and the words of the relay's 424 come back.
    // A dead box is not a gateway error: clients retry every 5xx.
    virtual QString requestUnreachable(ProxiedRequest *request, const QString &why) = 0;
    // The same while nothing of any upstream answer has reached the client: true when the
    // request goes to another replica instead, which calls retarget() and then begin() (or refuse()).
    virtual bool requestFailover(ProxiedRequest *request, const QString &why) = 0;
    // Its end, exactly once; the request deletes itself after it.
    virtual void requestConcluded(ProxiedRequest *request, const ProxiedRequest::Outcome &outcome) = 0;

protected:
    ~ProxiedRequestListener() = default;
};

} // namespace switchyard
