#pragma once

#include <QList>
#include <QRectF>

namespace switchyard {

// Where the switch timeline puts the label of a bar too narrow to hold it (issue 30: at the
// default span's 5 min floor a 3 s switch is a few pixels): beside the bar, right of it where
// there is room, else left of it, never over another bar that has its own meaning (a switch,
// downtime, sleep, a gap) nor over a label placed before it, and never out of the plot. Engine
// bars may be covered: their own label moves past it (labelStart()). Pure geometry, so it is
// tested without painting.
class TimelineLabels final
{
public:
    static constexpr qreal Gap = 3;        // between a bar and its label
    static constexpr qreal Padding = 5;    // each side of the text, inside the label's frame

    struct Bar
    {
        QRectF rect;        // the bar as painted
        qreal textWidth;    // its label's text
    };

    // bars in order of priority (the newest switch first): each one's label frame, or an empty
    // rect where none fits. obstacles: the bars no label may cover (bars' own rects among them
    // are fine: a label is beside its bar, not on it). left and right: the plot's edges (or now).
    static QList<QRectF> place(const QList<Bar> &bars, const QList<QRectF> &obstacles, qreal left, qreal right);

    // Where a label wanting textWidth starts in bar (from bar.left() + inset) when labels lie
    // over the bar: past each one it would touch. -1 when it no longer fits inset before bar's end.
    static qreal labelStart(const QRectF &bar, qreal textWidth, const QList<QRectF> &labels, qreal inset = 6);

    TimelineLabels() = delete;
};

} // namespace switchyard
