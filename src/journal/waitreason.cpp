#include "journal/waitreason.h"

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
constexpr QStringView SwitchPrefix = u"switch ";
constexpr QStringView SwitchTo = u"switch to ";
constexpr QChar Arrow = QChar(0x2192);   // →
} // namespace

QString WaitReason::toString() const
{
    switch (kind) {
    case Kind::None: return {};
    case Kind::Switch:
        return from.isEmpty() ? SwitchTo.toString() + to : SwitchPrefix.toString() + from + Arrow + to;
    case Kind::ModelLoad: return u"model loading"_s;
    case Kind::Queue: return u"queue"_s;
    case Kind::Lease: return u"lease"_s;
    case Kind::HostCheck: return u"host check"_s;
    case Kind::Wake: return u"host wake"_s;
    }
    return {};
}

WaitReason WaitReason::fromString(const QString &text)
{
    WaitReason r;
    if (text == "model loading"_L1)
        r.kind = Kind::ModelLoad;
    else if (text == "queue"_L1)
        r.kind = Kind::Queue;
    else if (text == "lease"_L1)
        r.kind = Kind::Lease;
    else if (text == "host check"_L1)
        r.kind = Kind::HostCheck;
    else if (text == "host wake"_L1)
        r.kind = Kind::Wake;
    else if (text.startsWith(SwitchTo)) {
        r.kind = Kind::Switch;
        r.to = text.mid(SwitchTo.size());
    } else if (text.startsWith(SwitchPrefix) && text.contains(Arrow)) {
        r.kind = Kind::Switch;
        const QString engines = text.mid(SwitchPrefix.size());
        const qsizetype arrow = engines.indexOf(Arrow);
        r.from = engines.left(arrow);
        r.to = engines.mid(arrow + 1);
    }
    return r;
}

} // namespace switchyard
