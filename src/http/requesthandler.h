#pragma once

namespace switchyard {

struct IncomingRequest;
class ResponseWriter;

// Answers requests. The writer lives until finish() or until the client goes away; hold it in a
// QPointer when answering later.
class RequestHandler
{
public:
    virtual ~RequestHandler() = default;
    virtual void handleRequest(const IncomingRequest &request, ResponseWriter *writer) = 0;
};

} // namespace switchyard
