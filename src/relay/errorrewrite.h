#pragma once

#include <QByteArray>

#include <optional>

namespace switchyard {

// llama.cpp errors that Claude Code can act on once they are in its own words, on /v1/messages
// only: a chat template refusing a late system message becomes the 400 Claude Code answers by
// folding the system text into the user turn; a context overflow becomes the "prompt is too long"
// 400 its compaction looks for. Pure, so it can be fuzzed; the words are the catalogue's
// (relay/clientreplies.cpp).
struct RewrittenError
{
    int status = 400;
    QByteArray body;   // Anthropic error shape
};

namespace ErrorRewrite {
std::optional<RewrittenError> forAnthropic(int status, const QByteArray &upstreamBody);
}

} // namespace switchyard
