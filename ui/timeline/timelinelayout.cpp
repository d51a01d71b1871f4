#include "timeline/timelinelayout.h"

#include "timeline/timelinescale.h"

#include <algorithm>

namespace switchyard {

TimelineLayout::TimelineLayout(int width, const TimelineScale &scale, int lanes)
    : m_width(width)
    , m_plotLeft(scale.left())
    , m_plotWidth(scale.width())
    , m_lanes(lanes)
{
}

int TimelineLayout::plotWidthFor(int width)
{
    return std::max(1, width - LabelWidth - RightMargin);
}

int TimelineLayout::heightFor(int lanes)
{
    return HeaderHeight + std::max(1, lanes) * LaneHeight + 2;
}

QRect TimelineLayout::laneRect(int lane) const
{
    return QRect(0, HeaderHeight + lane * LaneHeight, m_width, LaneHeight);
}

QRect TimelineLayout::row(int lane, int top, int height) const
{
    return QRect(m_plotLeft, laneRect(lane).top() + top, m_plotWidth, height);
}

QRect TimelineLayout::engineBarRect(int lane) const
{
    return row(lane, BarTop, BarHeight);
}

QRect TimelineLayout::markerRect(int lane) const
{
    return row(lane, MarkerTop, MarkerHeight);
}

QRect TimelineLayout::densityRect(int lane) const
{
    return row(lane, DensityTop, DensityHeight);
}

int TimelineLayout::laneAt(int y) const
{
    if (y < HeaderHeight)
        return -1;
    const int lane = (y - HeaderHeight) / LaneHeight;
    return lane < m_lanes ? lane : -1;
}

int TimelineLayout::densityBucketLeft(int x) const
{
    return m_plotLeft + (x - m_plotLeft) / DensityBucketPixels * DensityBucketPixels;
}

} // namespace switchyard
