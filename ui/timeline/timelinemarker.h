#pragma once

#include <QPointF>

class QPainter;
class QPalette;

namespace switchyard {

struct HistoryEvent;

// One event's glyph in a lane's marker row, centred on `centre`: loads and unloads as diamonds
// (red for a failed load or a failover), prompt-cache saves and restores as small squares (hollow
// when nothing was saved or restored), wakes and sleeps as circles.
void paintTimelineMarker(QPainter &p, const QPalette &palette, const HistoryEvent &e, QPointF centre);

} // namespace switchyard
