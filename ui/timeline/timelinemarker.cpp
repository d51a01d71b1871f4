#include "timeline/timelinemarker.h"

#include "shared/statuspalette.h"
#include "store/historyevent.h"
#include "timeline/timelinecontent.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>

namespace switchyard {

using namespace Qt::StringLiterals;

void paintTimelineMarker(QPainter &p, const QPalette &palette, const HistoryEvent &e, QPointF centre)
{
    const double x = centre.x();
    const double cy = centre.y();
    if (e.kind == HistoryEvent::Kind::CacheSave || e.kind == HistoryEvent::Kind::CacheRestore) {
        // Prompt caches: small squares, hollow when the save or restore did not happen.
        const bool skipped = e.detail.contains(u" not "_s) || e.detail.contains(u" dropped"_s);
        p.setPen(QPen(skipped ? StatusPalette::idle() : palette.color(QPalette::Base), 1));
        p.setBrush(skipped ? palette.base() : palette.brush(QPalette::Highlight));
        p.drawRect(QRectF(x - 3.5, cy - 3.5, 7, 7));
        return;
    }
    if (TimelineContent::isPowerEvent(e.kind)) {
        // Wake and sleep: circles, filled while the host comes up, hollow as it goes to rest.
        const bool up = e.kind == HistoryEvent::Kind::WakeSent || e.kind == HistoryEvent::Kind::Woke;
        p.setPen(QPen(up ? palette.color(QPalette::Base) : StatusPalette::idle(), 1.5));
        p.setBrush(e.kind == HistoryEvent::Kind::WakeTimedOut ? StatusPalette::bad()
                   : up ? StatusPalette::good() : palette.base());
        p.drawEllipse(QPointF(x, cy), 4.0, 4.0);
        return;
    }
    if (e.kind == HistoryEvent::Kind::Load) {
        p.setPen(QPen(palette.color(QPalette::Base), 1));
        p.setBrush(e.detail.isEmpty() ? StatusPalette::good() : StatusPalette::bad());
    } else if (e.kind == HistoryEvent::Kind::Failover) {
        p.setPen(QPen(palette.color(QPalette::Base), 1));
        p.setBrush(StatusPalette::bad());
    } else {
        p.setPen(QPen(StatusPalette::idle(), 1.5));
        p.setBrush(palette.base());
    }
    QPainterPath diamond;
    diamond.moveTo(x, cy - 5);
    diamond.lineTo(x + 5, cy);
    diamond.lineTo(x, cy + 5);
    diamond.lineTo(x - 5, cy);
    diamond.closeSubpath();
    p.drawPath(diamond);
}

} // namespace switchyard
