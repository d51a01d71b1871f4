// Request heads as ClientConnection reads them from a client.
#include "http/requesthead.h"

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));
    const RequestHead head = RequestHead::parse(input, 64 * 1024);
    if (head.state == RequestHead::State::Complete) {
        // A complete head ends at its blank line, inside the input.
        if (head.headLength < 4 || head.headLength > input.size() || input.sliced(head.headLength - 4, 4) != "\r\n\r\n")
            abort();
        // ...at the first blank line, and no line break hides inside a parsed field.
        if (input.indexOf("\r\n\r\n") != head.headLength - 4)
            abort();
        for (const auto &[name, value] : head.headers) {
            if (name.contains('\r') || name.contains('\n') || value.contains('\r') || value.contains('\n'))
                abort();
        }
        if (head.contentLength < -1)
            abort();
        (void)head.keepAlive();
    }
    return 0;
}
