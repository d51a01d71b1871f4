#pragma once

#include <QRect>

namespace switchyard {

class TimelineScale;

// Where the switch timeline puts things: a header of time labels, then one lane per host, each
// with its name on the left and three rows over the plot area (the engine bar, a row of
// markers and leases, the request histogram). Pure geometry, shared by painting, hit tests and
// tests.
class TimelineLayout final
{
public:
    static constexpr int HeaderHeight = 24;
    static constexpr int LaneHeight = 66;
    static constexpr int LabelWidth = 128;
    static constexpr int RightMargin = 8;
    // The rows, from the lane's top.
    static constexpr int BarTop = 8;        // engine bar
    static constexpr int BarHeight = 20;
    static constexpr int MarkerTop = 30;    // loads, unloads, leases
    static constexpr int MarkerHeight = 10;
    static constexpr int DensityTop = 42;   // request histogram
    static constexpr int DensityHeight = 20;
    static constexpr int DensityBucketPixels = 2;

    // width: the whole widget's; the plot area comes from the scale.
    TimelineLayout(int width, const TimelineScale &scale, int lanes);

    // How wide the plot area is in a widget this wide (at least 1 px).
    static int plotWidthFor(int width);
    // Header and every lane (at least one, so an empty timeline keeps its place).
    static int heightFor(int lanes);

    QRect laneRect(int lane) const;
    QRect engineBarRect(int lane) const;
    QRect markerRect(int lane) const;
    QRect densityRect(int lane) const;
    // The lane under y, or -1 over the header or below the last lane.
    int laneAt(int y) const;
    // The left edge of the histogram bucket that holds x.
    int densityBucketLeft(int x) const;

private:
    QRect row(int lane, int top, int height) const;

    int m_width;
    int m_plotLeft;
    int m_plotWidth;
    int m_lanes;
};

} // namespace switchyard
