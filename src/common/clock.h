#pragma once

#include <QDateTime>

#include <chrono>

namespace switchyard {

// Where "now" comes from, so that timestamps, retention, leases and switch durations can be
// tested with a fake clock. The composition root passes one clock to everything it builds.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0;
    // For durations and ages: monotonic, never jumps with the wall clock. The system's steady
    // clock unless a fake also fakes the passing of time.
    virtual std::chrono::steady_clock::time_point steadyNow() const { return std::chrono::steady_clock::now(); }
};

// The wall clock. Stateless, so one instance may be shared by everything that needs a clock.
class SystemClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::currentDateTime(); }
};

// The shared SystemClock, for constructors whose caller passes no clock (a test of one class,
// a command-line tool). Stateless, so sharing it hides nothing.
const Clock &systemClock();

} // namespace switchyard
