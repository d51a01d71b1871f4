#pragma once

#include "shared/hostactivity.h"

#include <QColor>
#include <QIcon>
#include <QStringView>

namespace switchyard {

// Every status colour the desktop uses, in one place, so a model row, a host card, the
// timeline and the tray agree on what green and amber mean.
class StatusPalette final
{
public:
    static QColor good();        // loaded, up
    static QColor busy();        // loading, waiting
    static QColor idle();        // unloaded, unknown
    static QColor asleep();      // sleeping
    static QColor bad();         // failed, down, errors
    static QColor switching();   // engine switch in progress
    static QColor lease();       // the GPU is someone else's

    // llama.cpp's model states: loaded, loading, unloaded, sleeping, failed, ...
    static QColor forModelStatus(QStringView status);
    static QColor forActivity(HostActivity activity);
    // A stable colour per engine name, the same on every lane and every run.
    static QColor forEngine(QStringView engine);

    // A round dot of that colour, for item views' decoration role.
    static QIcon dot(const QColor &color);
    // A small rounded square: an engine's swatch, as the timeline paints its bars.
    static QIcon swatch(const QColor &color);

    StatusPalette() = delete;
};

} // namespace switchyard
