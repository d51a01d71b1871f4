#pragma once
// What the timeline content tests share (tst_timelinecontent, tst_timelinespan): events at whole
// seconds from a fixed origin, a lane written one line a span, and a model holding some history.
#include "store/timelinemodel.h"
#include "timeline/timelinecontent.h"

#include <QStringList>

#include <chrono>

namespace timelinetest {

using namespace switchyard;
using namespace Qt::StringLiterals;

using Span = TimelineContent::Span;
using Kind = Span::Kind;

// Whole seconds from a fixed origin, so expected values read as seconds.
inline constexpr qint64 T0 = 1'700'000'000'000;
constexpr qint64 at(int seconds)
{
    return T0 + seconds * 1000LL;
}

inline HistoryEvent historyEvent(HistoryEvent::Kind kind, int seconds, const QString &engine = {}, const QString &detail = {},
                          const QString &host = u"h1"_s)
{
    HistoryEvent e;
    e.kind = kind;
    e.at = QDateTime::fromMSecsSinceEpoch(at(seconds));
    e.host = host;
    e.engine = engine;
    e.detail = detail;
    return e;
}

// One line a span, to compare a lane in one QCOMPARE: "Switch 60-63 fork flint-40b", with the
// times in seconds from T0 and "open" when it runs on at the end of the range.
inline QStringList describe(const QList<Span> &spans)
{
    static const char *const kinds[] = {"Engine", "Switch", "FailedSwitch", "Down", "Lease", "Sleep", "Unobserved"};
    QStringList out;
    for (const Span &s : spans) {
        QStringList words{QString::fromLatin1(kinds[int(s.kind)]),
                          u"%1-%2"_s.arg((s.startMs - T0) / 1000).arg((s.endMs - T0) / 1000)};
        if (!s.engine.isEmpty())
            words << s.engine;
        if (!s.text.isEmpty())
            words << s.text;
        if (s.ongoing)
            words << u"open"_s;
        out << words.join(u' ');
    }
    return out;
}

// A timeline model holding some of one host's history, and the content that reads it.
struct History
{
    explicit History(const QList<HistoryEvent> &events)
    {
        for (const HistoryEvent &e : events)
            model.append(e);
        content.setEvents(&model);
    }
    QStringList lane(int fromSeconds, int toSeconds, const QString &host = u"h1"_s) const
    {
        return describe(content.spans(host, at(fromSeconds), at(toSeconds)));
    }

    TimelineModel model;
    TimelineContent content;
};

// The relay's own start or stop: no host.
inline HistoryEvent relayEvent(HistoryEvent::Kind kind, int seconds)
{
    return historyEvent(kind, seconds, {}, {}, {});
}

inline HistoryEvent withModel(HistoryEvent e, const QString &model)
{
    e.model = model;
    return e;
}

inline HistoryEvent withDuration(HistoryEvent e, std::chrono::milliseconds duration)
{
    e.duration = duration;
    return e;
}

} // namespace timelinetest
