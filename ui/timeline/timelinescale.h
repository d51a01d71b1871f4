#pragma once

#include <QList>
#include <QtGlobal>

#include <chrono>
#include <optional>

namespace switchyard {

// The switch timeline's mapping between time (ms since the epoch) and x (pixels): a plot area
// [left, left + width) that shows the span ending at end(). Pure arithmetic, no widgets, so
// zooming, panning and the tick grid are unit-tested without painting.
class TimelineScale final
{
public:
    static constexpr double MinMsPerPixel = 10.0;                    // 1 px = 10 ms
    static constexpr double MaxMsPerPixel = 7 * 24 * 3600 * 1000.0 / 200;   // a week in 200 px

    TimelineScale() = default;
    TimelineScale(qint64 endMs, double msPerPixel, int left, int width);

    qint64 endMs() const { return m_endMs; }
    qint64 startMs() const;
    void setEndMs(qint64 ms) { m_endMs = ms; }

    double msPerPixel() const { return m_msPerPixel; }
    void setMsPerPixel(double msPerPixel);
    // Shows `span` in the current width, keeping the end.
    void setSpan(std::chrono::milliseconds span);
    // The span to show by default when the newest events go back `age` from now: the first of
    // 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12, 24 h with room for them (a quarter more), so
    // recent switches are not squeezed to the right edge, nor old ones cut off.
    // But no wider than shows the newest switch, switchLength long, at least switchPixels wide
    // in a plot plotWidth wide (issue 30, item 9: a 3 s switch in 2 h was a 2 px sliver): the
    // widest of those steps that does, yet never under ReadableFloor. Older history is then a
    // zoom-out away.
    static constexpr std::chrono::minutes ReadableFloor{5};
    static std::chrono::milliseconds suggestedSpan(std::chrono::milliseconds age,
                                                   std::optional<std::chrono::milliseconds> switchLength = std::nullopt,
                                                   int switchPixels = 0, int plotWidth = 0);
    qint64 spanMs() const;

    int left() const { return m_left; }
    int width() const { return m_width; }
    int right() const { return m_left + m_width; }
    void setPlotArea(int left, int width);

    // May lie outside the plot area for times outside the range.
    double xForTime(qint64 ms) const;
    qint64 timeForX(double x) const;
    bool isVisible(qint64 ms) const { return ms >= startMs() && ms <= m_endMs; }

    // factor > 1 zooms in. The time under x stays under x (within the zoom limits).
    void zoomAround(double x, double factor);
    // dx > 0 moves the view towards the past, as when the content is dragged right.
    void panByPixels(double dx);

    // The grid: a "nice" step (1 s, 2 s, 5 s, ... 1 h, 2 h, ... 1 day, ...) whose ticks are at
    // least minPixels apart, and the ticks inside the range, aligned to local wall-clock time
    // (whole minutes and hours as a clock shows them). utcOffsetSeconds is the local offset.
    qint64 tickStepMs(int minPixels) const;
    QList<qint64> ticks(int minPixels, int utcOffsetSeconds) const;

    friend bool operator==(const TimelineScale &a, const TimelineScale &b)
    {
        return a.m_endMs == b.m_endMs && a.m_msPerPixel == b.m_msPerPixel && a.m_left == b.m_left
                && a.m_width == b.m_width;
    }

private:
    qint64 m_endMs = 0;
    double m_msPerPixel = 1000.0;
    int m_left = 0;
    int m_width = 1;
};

} // namespace switchyard
