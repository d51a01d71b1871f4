// A relayed request's lifecycle (relay/requestlifecycle), as tables: every (state, event) pair
// against the table written out below, then random event sequences against its invariants:
// exactly one conclusion, nothing sent after it, one status line at most (an early 200 is never
// followed by another), one retry per upstream, no failover once an upstream answered.
//
// The random part is bounded in time (SWITCHYARD_FUZZ_SECONDS, default 2); a failure prints its
// seed, and SWITCHYARD_FUZZ_SEED=N replays that one sequence.
#include "relay/requestlifecycle.h"

#include <QElapsedTimer>
#include <QMap>
#include <QTest>

#include <random>
#include <set>

using namespace switchyard;
using namespace Qt::StringLiterals;

using Lifecycle = RequestLifecycle;
using State = RequestLifecycle::State;
using Event = RequestLifecycle::Event;

namespace {

QList<State> allStates()
{
    QList<State> out;
    for (int i = 0; i < Lifecycle::StateCount; ++i)
        out.append(State(i));
    return out;
}

QList<Event> allEvents()
{
    QList<Event> out;
    for (int i = 0; i < Lifecycle::EventCount; ++i)
        out.append(Event(i));
    return out;
}

std::optional<State> stateNamed(const QString &name)
{
    for (State s : allStates()) {
        if (Lifecycle::stateName(s) == name)
            return s;
    }
    return std::nullopt;
}

std::optional<Event> eventNamed(const QString &name)
{
    for (Event e : allEvents()) {
        if (Lifecycle::eventName(e) == name)
            return e;
    }
    return std::nullopt;
}

bool writesStatusLine(Event e)
{
    return e == Event::Early200 || e == Event::PassHead || e == Event::InspectHead;
}

bool isUpstreamHead(Event e)
{
    return e == Event::PassHead || e == Event::InspectHead || e == Event::HoldHead || e == Event::ContinueStream
        || e == Event::HoldAfterEarly200;
}

bool sendsSomething(Event e)
{
    return e == Event::Early200 || e == Event::Begin || e == Event::Retry || e == Event::PassHead
        || e == Event::InspectHead || e == Event::Answer;
}

// One random sequence: events drawn from the seed, half of them among those the table allows (to
// reach the deep states), half from all. The test keeps its own account of what went out and
// checks the lifecycle's facts and the invariants against it after every step.
class Sequence
{
public:
    explicit Sequence(quint64 seed) : m_rng(seed) {}

    std::set<State> reached;

    QString run()
    {
        Lifecycle l;
        reached.insert(l.state());
        int refused = 0;
        const int steps = std::uniform_int_distribution<int>(1, 25)(m_rng);
        for (int i = 0; i < steps && !l.concluded(); ++i) {
            const QString failure = step(l, draw(l), refused);
            if (!failure.isEmpty())
                return failure;
        }
        // Past the end: a few more events after the conclusion (late answers, a late client
        // leaving), then the request must end if it has not: an answer or the client leaving.
        for (int i = 0; i < 3 && l.concluded(); ++i) {
            const QString failure = step(l, Event(std::uniform_int_distribution<int>(0, Lifecycle::EventCount - 1)(m_rng)), refused);
            if (!failure.isEmpty())
                return failure;
        }
        if (!l.concluded()) {
            const Event end = chance(0.5) ? Event::Answer : Event::ClientLeft;
            if (!l.allows(end))
                return u"%1 refused in %2: a live request could not end"_s.arg(Lifecycle::eventName(end), Lifecycle::stateName(l.state()));
            const QString failure = step(l, end, refused);
            if (!failure.isEmpty())
                return failure;
        }
        if (m_conclusions != 1)
            return u"%1 conclusions (trace: %2)"_s.arg(m_conclusions).arg(m_trace.join(u", "));
        if (l.refusedMoves() != refused)
            return u"%1 refusals counted, %2 refused"_s.arg(l.refusedMoves()).arg(refused);
        return {};
    }

private:
    bool chance(double p) { return std::bernoulli_distribution(p)(m_rng); }

    Event draw(const Lifecycle &l)
    {
        if (chance(0.5)) {
            QList<Event> allowed;
            for (Event e : allEvents()) {
                if (l.allows(e))
                    allowed.append(e);
            }
            if (!allowed.isEmpty())
                return allowed.at(std::uniform_int_distribution<qsizetype>(0, allowed.size() - 1)(m_rng));
        }
        return Event(std::uniform_int_distribution<int>(0, Lifecycle::EventCount - 1)(m_rng));
    }

    QString step(Lifecycle &l, Event e, int &refused)
    {
        const State from = l.state();
        const bool allowed = l.allows(e);
        const bool moved = l.apply(e);
        m_trace.append(u"%1%2"_s.arg(Lifecycle::eventName(e), moved ? QString() : u"(refused)"_s));
        if (allowed != moved)
            return u"allows() and apply() disagree on %1 in %2"_s.arg(Lifecycle::eventName(e), Lifecycle::stateName(from));
        if (!moved) {
            ++refused;
            if (l.state() != from)
                return u"a refused %1 moved the state"_s.arg(Lifecycle::eventName(e));
            return {};
        }
        reached.insert(l.state());
        const auto fail = [&](const QString &what) {
            return u"%1 (trace: %2)"_s.arg(what, m_trace.join(u", "));
        };
        if (m_concluded)
            return fail(u"%1 accepted after the conclusion%2"_s.arg(Lifecycle::eventName(e), sendsSomething(e) ? u": something sent"_s : QString()));
        // What went out, by the test's own account.
        if (writesStatusLine(e) || (e == Event::Answer && !m_statusLine)) {
            if (m_early200)
                return fail(u"a second status line after the early 200"_s);
            if (m_statusLine)
                return fail(u"a second status line"_s);
            m_statusLine = true;
        }
        if (e == Event::Early200)
            m_early200 = true;
        if (e == Event::Begin) {
            if (m_inFlight)
                return fail(u"sent upstream while a send was under way"_s);
            m_inFlight = true;
        }
        if (e == Event::Retry) {
            if (!m_inFlight || m_answered)
                return fail(u"a retry with nothing to retry"_s);
            if (++m_retries > 1)
                return fail(u"a second retry to the same upstream"_s);
        }
        if (e == Event::Retarget) {
            if (m_answered)
                return fail(u"a failover after an upstream answered"_s);
            m_inFlight = false;
            m_retries = 0;
        }
        if (isUpstreamHead(e)) {
            if (!m_inFlight || m_answered)
                return fail(u"an upstream head with no request upstream, or a second one"_s);
            m_answered = true;
        }
        if (e == Event::Answer || e == Event::ClientLeft) {
            m_concluded = true;
            ++m_conclusions;
        }
        if (l.concluded() != m_concluded)
            return fail(u"concluded() reads %1"_s.arg(l.concluded()));
        if (m_concluded)
            return {};
        // The lifecycle's facts agree with what went out.
        const State s = l.state();
        if (Lifecycle::early200Out(s) != m_early200)
            return fail(u"early200Out(%1) reads %2"_s.arg(Lifecycle::stateName(s)).arg(!m_early200));
        if (Lifecycle::statusLineOut(s) != m_statusLine)
            return fail(u"statusLineOut(%1) reads %2"_s.arg(Lifecycle::stateName(s)).arg(!m_statusLine));
        if (Lifecycle::upstreamAnswered(s) != m_answered)
            return fail(u"upstreamAnswered(%1) reads %2"_s.arg(Lifecycle::stateName(s)).arg(!m_answered));
        return {};
    }

    std::mt19937_64 m_rng;
    QStringList m_trace;
    bool m_concluded = false;
    int m_conclusions = 0;
    bool m_statusLine = false;
    bool m_early200 = false;
    bool m_inFlight = false;   // sent upstream, to the upstream of now
    bool m_answered = false;   // an upstream's head arrived
    int m_retries = 0;         // to the upstream of now
};

} // namespace

class TestRequestLifecycle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void transitions_data();
    void transitions();
    void aRefusedMoveKeepsTheStateAndIsCounted();
    void randomSequencesKeepTheInvariants();
};

void TestRequestLifecycle::transitions_data()
{
    // Each state's moves as "event -> next"; every event not listed is refused there.
    QTest::addColumn<QString>("state");
    QTest::addColumn<QStringList>("moves");
    auto row = [](const QString &state, QStringList moves) {
        QTest::newRow(qPrintable(state)) << state << moves;
    };
    row(u"admitting"_s, {u"early200 -> admitting-early200"_s, u"begin -> upstream"_s, u"retarget -> admitting"_s,
                         u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"admitting-early200"_s, {u"begin -> upstream-early200"_s, u"retarget -> admitting-early200"_s,
                                  u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"rerouting"_s, {u"early200 -> rerouting-early200"_s, u"begin -> upstream"_s, u"retarget -> rerouting"_s,
                         u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"rerouting-early200"_s, {u"begin -> upstream-early200"_s, u"retarget -> rerouting-early200"_s,
                                  u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"upstream"_s, {u"early200 -> upstream-early200"_s, u"retry -> upstream-retried"_s, u"retarget -> rerouting"_s,
                        u"pass-head -> passing"_s, u"inspect-head -> inspecting"_s, u"hold-head -> holding-error"_s,
                        u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"upstream-retried"_s, {u"early200 -> upstream-early200"_s, u"retarget -> rerouting"_s,
                                u"pass-head -> passing"_s, u"inspect-head -> inspecting"_s, u"hold-head -> holding-error"_s,
                                u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"upstream-early200"_s, {u"retarget -> rerouting-early200"_s, u"continue-stream -> streaming-early200"_s,
                                 u"hold-after-early200 -> error-after-early200"_s,
                                 u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"passing"_s, {u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"inspecting"_s, {u"stop-inspecting -> passing"_s, u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"holding-error"_s, {u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"streaming-early200"_s, {u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"error-after-early200"_s, {u"answer -> concluded"_s, u"client-left -> concluded"_s});
    row(u"concluded"_s, {});
}

void TestRequestLifecycle::transitions()
{
    QFETCH(QString, state);
    QFETCH(QStringList, moves);
    const std::optional<State> s = stateNamed(state);
    QVERIFY2(s, qPrintable(u"no state named %1"_s.arg(state)));
    QMap<Event, State> expected;
    for (const QString &move : std::as_const(moves)) {
        const QStringList parts = move.split(u" -> "_s);
        QCOMPARE(parts.size(), 2);
        const std::optional<Event> e = eventNamed(parts.at(0));
        const std::optional<State> to = stateNamed(parts.at(1));
        QVERIFY2(e && to, qPrintable(u"not an event and a state: %1"_s.arg(move)));
        expected.insert(*e, *to);
    }
    for (Event e : allEvents()) {
        const std::optional<State> got = Lifecycle::next(*s, e);
        const QString gotName = got ? Lifecycle::stateName(*got) : u"refused"_s;
        const QString wantName = expected.contains(e) ? Lifecycle::stateName(expected.value(e)) : u"refused"_s;
        QVERIFY2(gotName == wantName, qPrintable(u"%1 in %2: %3, expected %4"_s.arg(Lifecycle::eventName(e), state, gotName, wantName)));
    }
}

void TestRequestLifecycle::aRefusedMoveKeepsTheStateAndIsCounted()
{
    Lifecycle l;
    QVERIFY(l.apply(Event::Begin));
    QVERIFY(l.apply(Event::PassHead));
    QVERIFY(!l.apply(Event::Early200));   // a second status line
    QVERIFY(!l.apply(Event::Retarget));   // failover after the answer began
    QCOMPARE(l.state(), State::Passing);
    QCOMPARE(l.refusedMoves(), 2);
    QVERIFY(l.apply(Event::ClientLeft));
    QVERIFY(!l.apply(Event::Answer));     // a second conclusion
    QCOMPARE(l.state(), State::Concluded);
    QCOMPARE(l.refusedMoves(), 3);
}

void TestRequestLifecycle::randomSequencesKeepTheInvariants()
{
    if (qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SEED")) {
        const quint64 seed = qgetenv("SWITCHYARD_FUZZ_SEED").toULongLong();
        const QString failure = Sequence(seed).run();
        QVERIFY2(failure.isEmpty(), qPrintable(u"seed %1: %2"_s.arg(seed).arg(failure)));
        return;
    }
    const int seconds = qEnvironmentVariableIsSet("SWITCHYARD_FUZZ_SECONDS")
        ? qEnvironmentVariableIntValue("SWITCHYARD_FUZZ_SECONDS") : 2;
    const quint64 base = std::random_device{}();
    std::set<State> reached;
    QElapsedTimer clock;
    clock.start();
    int sequences = 0;
    while (clock.elapsed() < seconds * 1000 || sequences < 5000) {
        const quint64 seed = base + quint64(sequences);
        Sequence sequence(seed);
        const QString failure = sequence.run();
        if (!failure.isEmpty())
            QFAIL(qPrintable(u"seed %1: %2 (replay: SWITCHYARD_FUZZ_SEED=%1 %3)"_s.arg(seed).arg(failure)
                                 .arg(QCoreApplication::applicationFilePath())));
        reached.insert(sequence.reached.begin(), sequence.reached.end());
        ++sequences;
        if (clock.elapsed() > 30 * 1000)
            break;   // a slow machine still stops
    }
    qInfo("%d random sequences, every one concluded once", sequences);
    QVERIFY(sequences >= 1000);
    for (State s : allStates())
        QVERIFY2(reached.count(s) == 1, qPrintable(u"never reached %1"_s.arg(Lifecycle::stateName(s))));
}

QTEST_GUILESS_MAIN(TestRequestLifecycle)
#include "tst_requestlifecycle.moc"
