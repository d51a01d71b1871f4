#include "fakefailure.h"

using namespace Qt::StringLiterals;

namespace switchyard::fake {

std::optional<FakeFailure::Mode> FakeFailure::modeFromName(const QString &name)
{
    if (name == u"drop")
        return Mode::Drop;
    if (name == u"stall")
        return Mode::Stall;
    if (name == u"status")
        return Mode::Status;
    if (name == u"crash")
        return Mode::CrashMidStream;
    if (name == u"error")
        return Mode::ErrorMidStream;
    if (name == u"garbage")
        return Mode::Garbage;
    return std::nullopt;
}

QString FakeFailure::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Drop: return u"drop"_s;
    case Mode::Stall: return u"stall"_s;
    case Mode::Status: return u"status"_s;
    case Mode::CrashMidStream: return u"crash"_s;
    case Mode::ErrorMidStream: return u"error"_s;
    case Mode::Garbage: return u"garbage"_s;
    }
    return {};
}

} // namespace switchyard::fake
