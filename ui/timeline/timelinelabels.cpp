#include "timeline/timelinelabels.h"

#include <algorithm>

namespace switchyard {

namespace {

// Along the time axis only: labels and bars share their row. Touching edges do not overlap.
bool overlaps(const QRectF &a, const QRectF &b)
{
    return a.left() < b.right() && b.left() < a.right();
}

} // namespace

QList<QRectF> TimelineLabels::place(const QList<Bar> &bars, const QList<QRectF> &obstacles, qreal left, qreal right)
{
    QList<QRectF> placed;
    QList<QRectF> taken;   // labels placed so far
    for (const Bar &bar : bars) {
        const qreal width = bar.textWidth + 2 * Padding;
        const QRectF beside[] = {
            QRectF(bar.rect.right() + Gap, bar.rect.top(), width, bar.rect.height()),
            QRectF(bar.rect.left() - Gap - width, bar.rect.top(), width, bar.rect.height()),
        };
        QRectF chosen;
        for (const QRectF &candidate : beside) {
            if (candidate.left() < left || candidate.right() > right)
                continue;
            // A gap's width clear of every other bar, so the label reads as its own bar's.
            const QRectF clearance = candidate.adjusted(-Gap, 0, Gap, 0);
            const auto hits = [&](const QRectF &other) { return other != bar.rect && overlaps(clearance, other); };
            if (std::any_of(obstacles.cbegin(), obstacles.cend(), hits) || std::any_of(taken.cbegin(), taken.cend(), hits))
                continue;
            const auto hitsBar = [&](const Bar &other) { return other.rect != bar.rect && overlaps(clearance, other.rect); };
            if (std::any_of(bars.cbegin(), bars.cend(), hitsBar))
                continue;
            chosen = candidate;
            break;
        }
        if (!chosen.isNull())
            taken.append(chosen);
        placed.append(chosen);
    }
    return placed;
}

qreal TimelineLabels::labelStart(const QRectF &bar, qreal textWidth, const QList<QRectF> &labels, qreal inset)
{
    qreal start = bar.left() + inset;
    // Sorted by their left edge, one pass moves the start past every label it would touch.
    QList<QRectF> sorted = labels;
    std::sort(sorted.begin(), sorted.end(), [](const QRectF &a, const QRectF &b) { return a.left() < b.left(); });
    for (const QRectF &label : std::as_const(sorted)) {
        if (label.isNull() || label.right() <= bar.left() || label.left() >= bar.right())
            continue;
        if (overlaps(QRectF(start - Gap, bar.top(), textWidth + 2 * Gap, bar.height()), label))
            start = label.right() + inset;
    }
    return start + textWidth < bar.right() - inset ? start : -1;
}

} // namespace switchyard
