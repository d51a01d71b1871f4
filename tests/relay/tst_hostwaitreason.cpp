#include "relay/hostwaitreason.h"

#include <QTest>

using namespace switchyard;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(HostStateMachine::Wait::Phase)
Q_DECLARE_METATYPE(HostStateMachine::State)

// What the request log says a request waits for, from the host's own view of its wait.
class TestHostWaitReason final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reasonForEachPhase_data()
    {
        using Phase = HostStateMachine::Wait::Phase;
        using State = HostStateMachine::State;
        QTest::addColumn<Phase>("phase");
        QTest::addColumn<QString>("switchTo");   // Wait::engine: the engine it switches to (batching: the one running)
        QTest::addColumn<State>("state");
        QTest::addColumn<QString>("expected");   // WaitReason::toString()

        // The request is for "mainline"; "fork" runs now.
        QTest::newRow("draining for its engine") << Phase::Draining << u"mainline"_s << State::Draining << u"switch fork→mainline"_s;
        QTest::newRow("switching to its engine") << Phase::Switching << u"mainline"_s << State::Switching << u"switch fork→mainline"_s;
        // While batching, the host's wait names the engine that runs and still has work.
        QTest::newRow("held while fork has work") << Phase::Batching << u"fork"_s << State::Serving << u"switch fork→mainline"_s;
        // Behind a switch to another engine it waits for the switch from that one to its own, as
        // the requests held after that switch say (the demo's first 3090-flint request read "queue").
        QTest::newRow("behind a switch to another") << Phase::Switching << u"other"_s << State::Switching << u"switch other→mainline"_s;
        QTest::newRow("behind a drain for another") << Phase::Draining << u"other"_s << State::Draining << u"switch other→mainline"_s;
        QTest::newRow("draining, target not decided") << Phase::Draining << QString() << State::Draining << u"queue"_s;
        QTest::newRow("batching, its own engine runs") << Phase::Batching << u"mainline"_s << State::Serving << u"queue"_s;
        QTest::newRow("stopping for a lease") << Phase::Stopping << QString() << State::Draining << u"lease"_s;
        QTest::newRow("waking") << Phase::Waking << QString() << State::Waking << u"host wake"_s;
        QTest::newRow("leased") << Phase::Other << QString() << State::Leased << u"lease"_s;
        QTest::newRow("anything else queues") << Phase::Other << QString() << State::Serving << u"queue"_s;
    }

    void reasonForEachPhase()
    {
        QFETCH(HostStateMachine::Wait::Phase, phase);
        QFETCH(QString, switchTo);
        QFETCH(HostStateMachine::State, state);
        QFETCH(QString, expected);
        HostStateMachine::Wait wait;
        wait.phase = phase;
        wait.engine = switchTo;
        QCOMPARE(hostWaitReason(wait, state, u"fork"_s, u"mainline"_s).toString(), expected);
    }
};

QTEST_GUILESS_MAIN(TestHostWaitReason)
#include "tst_hostwaitreason.moc"
