#pragma once

#include "fakecompletionformat.h"
#include "fakefailure.h"

#include <chrono>
#include <optional>

namespace switchyard::fake {

// Everything one generation needs, decided by the server before it starts.
struct FakeGenerationPlan
{
    FakeCompletionFormat format;
    bool stream = false;
    int promptTokens = 0;
    int cachedTokens = 0;                      // of promptTokens, reused from the slot's cache
    int completionTokens = 0;
    bool hitLimit = true;                      // max_tokens or the context end, not a natural stop
    double tokensPerSecond = 0;                // 0 = as fast as possible
    std::chrono::milliseconds prefill{0};
    std::chrono::milliseconds pingInterval{0}; // 0 = no pings during the prefill
    bool routed = true;                        // proxied by a router: Connection: close after it
    bool keepAlive = false;                    // single-model server and the client keeps the connection
    std::optional<FakeFailure> failure;        // CrashMidStream or ErrorMidStream
};

} // namespace switchyard::fake
