#pragma once

#include <QtGlobal>

namespace switchyard {

// What the saved prompt caches of a host hold against its size budget: the window's "prompt
// caches" line (the card's tooltip) reads it, so it never looks at the box's folder itself.
struct PromptCacheUsage
{
    int saved = 0;
    qint64 bytes = 0;
    qint64 maxBytes = 0;
};

} // namespace switchyard
