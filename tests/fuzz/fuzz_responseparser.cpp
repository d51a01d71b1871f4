// Upstream answers, fed in two pieces split where the first byte says: the parser must reach the
// same end whatever the split, and never consume more than it was given.
#include "http/responseparser.h"

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

namespace {
struct Result
{
    ResponseParser::State state;
    int status;
    QByteArray body;
};

Result run(QByteArrayView input, qsizetype split)
{
    ResponseParser parser;
    QByteArray body;
    qsizetype used = parser.feed(input.first(split), &body);
    if (used < 0 || used > split)
        abort();
    QByteArray rest = input.first(split).sliced(used).toByteArray() + input.sliced(split).toByteArray();
    const qsizetype more = parser.feed(rest, &body);
    if (more < 0 || more > rest.size())
        abort();
    if (!parser.isDone() && !parser.hasError())
        parser.connectionClosed();
    return {parser.state(), parser.status(), body};
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArrayView input(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    const qsizetype split = input.isEmpty() ? 0 : data[0] % (input.size() + 1);
    const Result whole = run(input, input.size());
    const Result pieces = run(input, split);
    if (whole.state == ResponseParser::State::Done && (pieces.state != whole.state || pieces.body != whole.body))
        abort();
    return 0;
}
