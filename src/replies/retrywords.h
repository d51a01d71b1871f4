#pragma once

#include <QString>

namespace switchyard {

// Words and numbers in an error's text that make opencode (1.18) and pi (0.73) retry whatever
// the status and X-Should-Retry say (their retry code matches the message). The relay's own
// refusals must not contain them, or a refusal that a retry cannot fix is retried anyway.
// tests/e2e/lib/clients.mjs checks the same list against the real clients' behaviour.
namespace RetryWords {
bool present(const QString &text);
// An error inside a stream is also retried by opencode when it says "unavailable", "exhausted"
// or "too_many_requests" (1.18.33, SessionRetry.retryable: the stream's error object becomes
// an UnknownError whose message is that object's JSON).
bool presentInStream(const QString &text);
}

} // namespace switchyard
