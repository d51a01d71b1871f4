#include "timeline/timelinescale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace switchyard {

namespace {

constexpr qint64 Second = 1000;
constexpr qint64 Minute = 60 * Second;
constexpr qint64 Hour = 60 * Minute;
constexpr qint64 Day = 24 * Hour;

constexpr std::array<qint64, 22> NiceSteps = {
    Second, 2 * Second, 5 * Second, 10 * Second, 15 * Second, 30 * Second,
    Minute, 2 * Minute, 5 * Minute, 10 * Minute, 15 * Minute, 30 * Minute,
    Hour, 2 * Hour, 3 * Hour, 6 * Hour, 12 * Hour,
    Day, 2 * Day, 7 * Day, 14 * Day, 28 * Day,
};

qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

} // namespace

TimelineScale::TimelineScale(qint64 endMs, double msPerPixel, int left, int width)
    : m_endMs(endMs)
{
    setPlotArea(left, width);
    setMsPerPixel(msPerPixel);
}

qint64 TimelineScale::startMs() const
{
    return m_endMs - spanMs();
}

qint64 TimelineScale::spanMs() const
{
    return qint64(std::llround(m_msPerPixel * m_width));
}

void TimelineScale::setMsPerPixel(double msPerPixel)
{
    m_msPerPixel = std::clamp(msPerPixel, MinMsPerPixel, MaxMsPerPixel);
}

void TimelineScale::setSpan(std::chrono::milliseconds span)
{
    setMsPerPixel(double(span.count()) / m_width);
}

void TimelineScale::setPlotArea(int left, int width)
{
    m_left = left;
    m_width = std::max(1, width);
}

double TimelineScale::xForTime(qint64 ms) const
{
    return m_left + double(ms - startMs()) / m_msPerPixel;
}

qint64 TimelineScale::timeForX(double x) const
{
    return startMs() + qint64(std::llround((x - m_left) * m_msPerPixel));
}

void TimelineScale::zoomAround(double x, double factor)
{
    if (factor <= 0)
        return;
    const qint64 anchor = timeForX(x);
    setMsPerPixel(m_msPerPixel / factor);
    // Keep `anchor` under x: the end is where anchor + (right - x) pixels lands.
    m_endMs = anchor + qint64(std::llround((right() - x) * m_msPerPixel));
}

void TimelineScale::panByPixels(double dx)
{
    m_endMs -= qint64(std::llround(dx * m_msPerPixel));
}

qint64 TimelineScale::tickStepMs(int minPixels) const
{
    const double wanted = std::max(1, minPixels) * m_msPerPixel;
    for (qint64 step : NiceSteps) {
        if (double(step) >= wanted)
            return step;
    }
    return NiceSteps.back();
}

QList<qint64> TimelineScale::ticks(int minPixels, int utcOffsetSeconds) const
{
    const qint64 step = tickStepMs(minPixels);
    const qint64 offset = qint64(utcOffsetSeconds) * Second;
    // Align in local time: a tick at every local multiple of step.
    qint64 t = floorDiv(startMs() + offset, step) * step - offset;
    if (t < startMs())
        t += step;
    QList<qint64> out;
    for (; t <= m_endMs; t += step)
        out.append(t);
    return out;
}

std::chrono::milliseconds TimelineScale::suggestedSpan(std::chrono::milliseconds age,
                                                       std::optional<std::chrono::milliseconds> switchLength,
                                                       int switchPixels, int plotWidth)
{
    using namespace std::chrono;
    static constexpr minutes Steps[] = {minutes(2), minutes(5), minutes(10), minutes(15), minutes(30), hours(1),
                                        hours(2), hours(3), hours(6), hours(12), hours(24)};
    const milliseconds wanted = age + age / 4;
    milliseconds span = hours(24);
    for (const minutes step : Steps) {
        if (step >= wanted) {
            span = step;
            break;
        }
    }
    if (!switchLength || switchPixels <= 0 || plotWidth <= 0)
        return span;
    // The widest span in which the switch still gets its pixels: length * width / pixels.
    const double readableMs = double(switchLength->count()) * plotWidth / switchPixels;
    milliseconds readable = ReadableFloor;
    for (const minutes step : Steps) {
        if (step > ReadableFloor && double(milliseconds(step).count()) <= readableMs)
            readable = step;
    }
    return std::min(span, readable);
}

} // namespace switchyard
