#include "trace.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <algorithm>
#include <random>

namespace switchyard::switchsim {

using namespace Qt::StringLiterals;

namespace {

constexpr double Horizon = 2 * 3600;   // each synthetic trace: two hours of turns

class Draw
{
public:
    explicit Draw(quint64 seed) : m_rng(seed) {}
    double operator()(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(m_rng); }
    int count(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }

private:
    std::mt19937_64 m_rng;
};

struct TurnShape
{
    double prefill[2];
    double gen[2];
    double think[2];
};

// A coding agent's turn: a few thousand new tokens of tool output to prefill, an answer of
// hundreds of tokens, then a tool run or a short read before the next turn.
constexpr TurnShape Coder{{1, 4}, {8, 30}, {2, 12}};

QList<Turn> turns(Draw &draw, const QString &engine, const TurnShape &shape, int count)
{
    QList<Turn> out;
    for (int i = 0; i < count; ++i)
        out.append({engine, draw(shape.prefill[0], shape.prefill[1]), draw(shape.gen[0], shape.gen[1]),
                    draw(shape.think[0], shape.think[1])});
    return out;
}

// Enough turns to keep the agent busy past the horizon (the simulator stops issuing turns there).
int turnsFor(const TurnShape &shape)
{
    return int(Horizon / (shape.prefill[0] + shape.gen[0] + shape.think[0])) + 1;
}

Agent coder(Draw &draw, const QString &name, const QString &engine, double start)
{
    Agent a;
    a.name = name;
    a.startS = start;
    a.contextS = 20;     // ~20k tokens of system prompt, tools and files on a large model
    a.growthS = 1;       // its own answer joins the conversation
    a.turns = turns(draw, engine, Coder, turnsFor(Coder));
    return a;
}

// Why the batch policy's p95 wait is above strict order's where both engines are busy: it
// switches less by holding each engine longer, so the other side's wait comes once per hold.
const QString OneWaitPerHold =
    u"both engines busy: strict order makes every turn wait for the other agent's turn, a "
    "switch and a re-prefill; batch holds each engine while its agent works, up to max_wait_s, so an agent "
    "waits about max_wait_s once per hold and not at all for the turns in between (p50 0 s), and does about three "
    "times the turns per hour. Fewer switches need longer holds: when both engines stay busy, a quarter of strict "
    "order's switches means holds of about max_wait_s, and the wait of one turn in every hold stays above p95 "
    "until an agent makes 20 turns per hold. No dwell_s and max_wait_s of the sweep below keep the p95 within 25 % "
    "and switch 4x less on (a)"_s;

// Why a side call waits longer under batch than in strict order.
const QString SideCallsWaitForTheHold =
    u"a side call waits until the agent's engine has been idle for dwell_s, at most side_call_max_wait_s; "
    "strict order switches for it at once and makes the agent re-prefill its whole conversation "
    "after every side call"_s;

// How an exported client's side calls are told from its turns (its agent's name ends so).
const QString SideCallsSuffix = u" side calls"_s;

// Why a client with a request now and then waits longer under batch while busy agents hold the
// other engine.
const QString OccasionalWaitsForTheHold =
    u"an occasional client: its request for the engine that is not running waits for the busy agents' hold on "
    "the other one, up to max_wait_s; strict order switched for it after the running turn, and made the busy "
    "agents re-prefill their conversations instead"_s;

} // namespace

Trace twoAgentsAlternating()
{
    Draw draw(19001);
    Trace t;
    t.key = u"a"_s;
    t.title = u"two agents alternating on two engines"_s;
    t.switchS = {{u"mainline"_s, 20}, {u"fork"_s, 30}};
    t.firstEngine = u"mainline"_s;
    t.horizonS = Horizon;
    t.agents = {coder(draw, u"agent A"_s, u"mainline"_s, 0), coder(draw, u"agent B"_s, u"fork"_s, 3)};
    t.why.insert(u"*"_s, OneWaitPerHold);
    return t;
}

Trace agentWithSideRequests()
{
    Draw draw(19002);
    Trace t;
    t.key = u"b"_s;
    t.title = u"one agent plus side requests (titles, summaries) for a small engine"_s;
    t.switchS = {{u"mainline"_s, 20}, {u"small"_s, 6}};
    t.firstEngine = u"mainline"_s;
    t.horizonS = Horizon;
    t.agents.append(coder(draw, u"agent"_s, u"mainline"_s, 0));
    Agent side;
    side.name = u"side calls"_s;
    side.startS = 90;
    side.contextS = 0.5;
    side.sideCalls = true;
    const TurnShape shape{{0.2, 0.8}, {1, 3}, {120, 600}};
    side.turns = turns(draw, u"small"_s, shape, turnsFor(shape));
    t.agents.append(side);
    t.why.insert(u"side calls"_s, SideCallsWaitForTheHold);
    return t;
}

Trace subagentBurst()
{
    Draw draw(19003);
    Trace t;
    t.key = u"c"_s;
    t.title = u"bursts of subagents on one engine while an agent works on the other"_s;
    t.switchS = {{u"mainline"_s, 20}, {u"fork"_s, 30}};
    t.firstEngine = u"fork"_s;
    t.horizonS = Horizon;
    t.agents.append(coder(draw, u"agent"_s, u"fork"_s, 0));
    const TurnShape sub{{1, 3}, {5, 20}, {1, 6}};
    int n = 0;
    for (double burst = 300; burst < Horizon; burst += 900) {
        const int fanOut = draw.count(3, 6);
        for (int i = 0; i < fanOut; ++i) {
            Agent a;
            a.name = u"subagent %1"_s.arg(++n);
            a.group = u"subagents"_s;
            a.startS = burst + draw(0, 5);
            a.contextS = 8;
            a.growthS = 0.5;
            a.turns = turns(draw, u"mainline"_s, sub, draw.count(4, 8));
            t.agents.append(a);
        }
    }
    t.why.insert(u"subagents"_s,
                 u"a burst's subagents wait for the agent's hold on the other engine, up to max_wait_s, then run "
                 "together; strict order switches on nearly every subagent turn, and the agent re-prefills after each"_s);
    return t;
}

QList<Trace> syntheticTraces()
{
    return {twoAgentsAlternating(), agentWithSideRequests(), subagentBurst()};
}

std::optional<Trace> traceFromRequestExport(const QString &path, QString *error, const QString &host)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!doc.isArray()) {
        *error = parse.error != QJsonParseError::NoError
            ? u"%1: offset %2: %3"_s.arg(path).arg(parse.offset).arg(parse.errorString())
            : u"%1: expected the JSON array of GET /admin/requests"_s.arg(path);
        return std::nullopt;
    }
    struct Row
    {
        double start;
        double duration;
        double ttfb;
        QString engine;
    };
    QMap<QString, QMap<QString, QList<Row>>> byHostClient;
    QDateTime first;
    const QJsonArray rows = doc.array();
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonObject o = rows.at(i).toObject();
        const QDateTime at = QDateTime::fromString(o.value("started_at"_L1).toString(), Qt::ISODateWithMs);
        const QString engine = o.value("engine"_L1).toString();
        const QString h = o.value("host"_L1).toString();
        if (!at.isValid() || engine.isEmpty() || h.isEmpty() || !o.value("duration_ms"_L1).isDouble())
            continue;   // not a model request (or refused before it reached a host)
        if (!first.isValid() || at < first)
            first = at;
        const double duration = o.value("duration_ms"_L1).toDouble() / 1000;
        const double ttfb = o.value("ttfb_ms"_L1).isDouble() ? o.value("ttfb_ms"_L1).toDouble() / 1000 : 0.1 * duration;
        // A client's side calls (its titles, its small-model calls: "side_call", schema step 7)
        // are an agent of their own, whose requests wait at most side_call_max_wait_s.
        QString client = o.value("client"_L1).toString() + u' ' + o.value("client_app"_L1).toString();
        if (o.value("side_call"_L1).toBool())
            client += SideCallsSuffix;
        byHostClient[h][client].append({double(at.toMSecsSinceEpoch()), duration, std::min(ttfb, duration), engine});
    }
    if (byHostClient.isEmpty()) {
        *error = u"%1: no request that reached a host's engine"_s.arg(path);
        return std::nullopt;
    }
    QString chosen = host;
    if (chosen.isEmpty()) {
        qsizetype most = -1;
        for (auto it = byHostClient.cbegin(); it != byHostClient.cend(); ++it) {
            qsizetype n = 0;
            for (const QList<Row> &r : it.value())
                n += r.size();
            if (n > most) {
                most = n;
                chosen = it.key();
            }
        }
    }
    if (!byHostClient.contains(chosen)) {
        *error = u"%1: no requests for host %2"_s.arg(path, chosen);
        return std::nullopt;
    }
    Trace t;
    t.key = u"d"_s;
    t.title = u"a mixed day: host %1 of the relay's request history (%2)"_s.arg(chosen, path.section(u'/', -1));
    const double origin = double(first.toMSecsSinceEpoch());
    double earliest = -1;
    for (auto it = byHostClient[chosen].begin(); it != byHostClient[chosen].end(); ++it) {
        QList<Row> &list = it.value();
        std::sort(list.begin(), list.end(), [](const Row &a, const Row &b) { return a.start < b.start; });
        Agent a;
        a.name = it.key().trimmed();
        a.sideCalls = it.key().endsWith(SideCallsSuffix);
        a.startS = (list.first().start - origin) / 1000;
        // The history has no token counts: the first answer's wait stands for the conversation's
        // prefill, and each turn's time to first byte for its new part.
        a.contextS = list.first().ttfb;
        a.growthS = 0.5;
        for (qsizetype i = 0; i < list.size(); ++i) {
            const Row &r = list.at(i);
            double think = 0;
            if (i + 1 < list.size())
                think = std::max(0.0, (list.at(i + 1).start - r.start) / 1000 - r.duration);
            a.turns.append({r.engine, r.ttfb, r.duration - r.ttfb, think});
            if (!t.switchS.contains(r.engine))
                t.switchS.insert(r.engine, 20);   // the history's requests do not say; a mid-size model's load
        }
        if (earliest < 0 || a.startS < earliest) {
            earliest = a.startS;
            t.firstEngine = a.turns.first().engine;
        }
        t.agents.append(a);
    }
    // The history does not say which client is an agent: one with a turn every ten minutes or more
    // often over the day is.
    double endS = 0;
    for (const Agent &a : std::as_const(t.agents)) {
        double at = a.startS;
        for (const Turn &turn : a.turns)
            at += turn.prefillS + turn.genS + turn.thinkS;
        endS = std::max(endS, at);
    }
    for (const Agent &a : std::as_const(t.agents)) {
        const bool busy = a.turns.size() >= 6 * std::max(1.0, endS / 3600);
        t.why.insert(a.name, a.sideCalls ? SideCallsWaitForTheHold : busy ? OneWaitPerHold : OccasionalWaitsForTheHold);
    }
    return t;
}

} // namespace switchyard::switchsim
