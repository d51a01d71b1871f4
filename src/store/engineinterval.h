#pragma once

#include <QDateTime>
#include <QString>

namespace switchyard {

// A span in which one engine was up on a host, for painting a timeline.
struct EngineInterval
{
    QString engine;
    QDateTime start;
    QDateTime end;
    bool ongoing = false;    // still up at the end of the asked-for range: draw it open-ended
};

} // namespace switchyard
