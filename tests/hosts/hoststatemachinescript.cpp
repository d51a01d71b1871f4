#include "hoststatemachinescript.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace switchyard::test {

QString describe(const SM::Actions &actions)
{
    QStringList parts;
    for (const SM::Action &a : actions) {
        if (auto p = std::get_if<SM::Admit>(&a))
            parts << u"admit %1"_s.arg(p->id);
        else if (auto p = std::get_if<SM::Refuse>(&a))
            parts << u"refuse %1 %2"_s.arg(p->id).arg(p->why.status());
        else if (auto p = std::get_if<SM::StartEngine>(&a))
            parts << u"start %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::StopEngine>(&a))
            parts << u"stop %1"_s.arg(p->engine);
        else if (auto p = std::get_if<SM::LeaseGranted>(&a))
            parts << u"granted %1"_s.arg(p->owner);
        else if (std::get_if<SM::Journal>(&a))
            parts << u"journal"_s;
        else if (std::get_if<SM::SendWake>(&a))
            parts << u"wake"_s;
        else if (std::get_if<SM::RunSleepCommand>(&a))
            parts << u"sleep"_s;
    }
    return parts.join(u", "_s);
}

const SM::TimePoint t0 = SM::TimePoint() + std::chrono::hours(1000);

SM::TimePoint at(double seconds)
{
    return t0 + std::chrono::duration_cast<SM::TimePoint::duration>(std::chrono::duration<double>(seconds));
}

SM::Actions apply(SM &sm, const QString &step, SM::TimePoint now)
{
    const QStringList w = step.split(u' ');
    const QString &verb = w.at(0);
    if (verb == "arrive"_L1)
        return sm.requestArrived(w.at(1).toULongLong(), w.at(2), u"h-"_s + w.at(2), now);
    if (verb == "side"_L1)
        return sm.requestArrived(w.at(1).toULongLong(), w.at(2), u"h-"_s + w.at(2), now, true);
    if (verb == "command"_L1)
        return sm.commandArrived(w.at(1).toULongLong(), w.at(2), u"the window"_s, now);
    if (verb == "finish"_L1)
        return sm.requestFinished(w.at(1).toULongLong(), now);
    if (verb == "started"_L1)
        return sm.engineStarted(w.at(1), now);
    if (verb == "failed"_L1)
        return sm.engineStartFailed(w.at(1), u"no /health"_s, now);
    if (verb == "stopped"_L1)
        return sm.engineStopped(w.at(1), now);
    if (verb == "probe"_L1)
        return sm.probed(w.at(1) == "-"_L1 ? QString() : w.at(1), now);
    if (verb == "lease"_L1)
        return sm.takeLease(w.at(1), QDateTime::fromSecsSinceEpoch(2000000000, Qt::UTC), now);
    if (verb == "release"_L1)
        return sm.releaseLease(now);
    if (verb == "tick"_L1)
        return sm.tick(now);
    if (verb == "woke"_L1)
        return sm.woke(w.at(1) == "-"_L1 ? QString() : w.at(1), now);
    if (verb == "unreachable"_L1)
        return sm.unreachable(now);
    qFatal("unknown step %s", qPrintable(step));
}

QString due(const SM &sm)
{
    const std::optional<SM::TimePoint> wake = sm.nextWakeUp();
    if (!wake)
        return u"-"_s;
    return QString::number(std::chrono::duration<double>(*wake - t0).count());
}

SchedulingConfig policy(const QString &name)
{
    SchedulingConfig s;
    s.policy = name == "arrival"_L1 ? SchedulingConfig::Policy::Arrival : SchedulingConfig::Policy::Batch;
    s.dwell = std::chrono::seconds(5);
    s.maxWait = std::chrono::seconds(30);
    s.sideCallMaxWait = std::chrono::seconds(10);
    return s;
}

void runScript(const QString &policyName, const QStringList &steps, const QString &power)
{
    const QStringList words = power.split(u' ', Qt::SkipEmptyParts);
    const bool isStatic = words.contains("static"_L1);
    SM sm(u"h"_s, !isStatic, isStatic ? u"a"_s : QString(), policy(policyName));
    SM::Power p;
    if (words.contains("idle"_L1))
        p.idleStopAfter.insert(u"a"_s, std::chrono::seconds(10));
    p.sleeps = words.contains("sleep"_L1);
    p.canWake = words.contains("wake"_L1);
    p.wakeTimeout = std::chrono::seconds(20);
    sm.setPower(p);
    SM::TimePoint now = t0;
    for (const QString &line : steps) {
        QStringList parts = line.split(u"=>"_s);
        for (QString &p : parts)
            p = p.trimmed();
        if (parts.at(0) == "due"_L1) {   // "due => T": the next wake-up, nothing else
            QCOMPARE(parts.size(), 2);
            QVERIFY2(due(sm) == parts.at(1), qPrintable(u"next wake-up %1, expected %2"_s.arg(due(sm), parts.at(1))));
            continue;
        }
        QCOMPARE(parts.size(), 3);
        if (parts[0].startsWith(u'@')) {
            const qsizetype space = parts[0].indexOf(u' ');
            now = at(parts[0].mid(1, space - 1).toDouble());
            parts[0] = parts[0].mid(space + 1);
        }
        const QString got = describe(apply(sm, parts.at(0), now));
        QVERIFY2(got == parts.at(1).trimmed(),
                 qPrintable(u"after '%1': actions '%2', expected '%3'"_s.arg(parts.at(0), got, parts.at(1))));
        QVERIFY2(SM::stateName(sm.state()) == parts.at(2).trimmed(),
                 qPrintable(u"after '%1': state %2, expected %3"_s.arg(parts.at(0), SM::stateName(sm.state()), parts.at(2))));
    }
}

} // namespace switchyard::test
