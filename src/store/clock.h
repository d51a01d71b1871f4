#pragma once

#include <QDateTime>

namespace switchyard {

// Where "now" comes from, so retention and default timestamps can be tested with a fake clock.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0;
};

// The wall clock. Stateless, so one instance may be shared by everything that needs a clock.
class SystemClock final : public Clock
{
public:
    QDateTime now() const override { return QDateTime::currentDateTime(); }
};

} // namespace switchyard
