// Upstream streams, fed in two pieces split where the first byte says: the token count and rate
// must be the same whatever the split, and the scan of untrusted JSON must stay in its bounds.
#include "relay/streamstats.h"

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

namespace {
std::pair<std::optional<qint64>, std::optional<double>> run(QByteArrayView input, qsizetype split)
{
    StreamStats stats;
    stats.feed(input.first(split));
    stats.feed(input.sliced(split));
    return {stats.tokens(), stats.tokensPerSecond(std::chrono::seconds(1))};
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArrayView input(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    const qsizetype split = input.isEmpty() ? 0 : data[0] % (input.size() + 1);
    const auto whole = run(input, input.size());
    const auto pieces = run(input, split);
    if (whole.first != pieces.first)
        abort();
    if (whole.second.has_value() != pieces.second.has_value()
        || (whole.second && *whole.second == *whole.second && *whole.second != *pieces.second))
        abort();
    StreamStats body;
    body.feedWholeBody(input);   // a whole JSON answer: must not crash either
    return 0;
}
