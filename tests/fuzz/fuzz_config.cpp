// Config files: any bytes give either a config or errors that say where, never a crash.
#include "config/configloader.h"

#include <cstdint>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const ConfigResult result = ConfigLoader::parse(input, QStringLiteral("fuzz.json"));
    if (result.ok()) {
        if (result.config->hosts.isEmpty())
            abort();
        return 0;
    }
    if (result.errors.isEmpty())
        abort();
    for (const ConfigError &e : result.errors) {
        if (e.message.isEmpty() || e.toString().isEmpty())
            abort();
    }
    return 0;
}
