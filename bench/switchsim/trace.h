#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace switchyard::switchsim {

// One turn of an agent: its request for an engine, what the engine spends on it when the
// agent's prompt cache there is warm (prefill of the new part, then generation), and the think
// or tool time before the agent's next request.
struct Turn
{
    QString engine;
    double prefillS = 0;
    double genS = 0;
    double thinkS = 0;   // after this turn, before the next one arrives
};

// An agent is a loop of turns on one conversation. Its conversation grows each turn; after a
// switch has thrown its prompt cache away, its next turn on that engine prefills all of it again.
struct Agent
{
    QString name;
    QString group;          // agents reported together (subagents); the name when empty
    double startS = 0;
    double contextS = 0;    // prefill time of the conversation before its first turn
    double growthS = 0;     // the conversation's prefill time grows by a turn's prefill plus this
    double maxContextS = 120;   // a full context (~128k tokens): the agent compacts it there
    bool sideCalls = false;     // its requests are side calls (titles, summaries): they wait less
    QList<Turn> turns;
};

struct Trace
{
    QString key;            // "a", "b", ... : the command line's name
    QString title;
    QHash<QString, double> switchS;   // engine -> seconds to switch to it (stop the old, start it)
    double restoreS = 0.3;            // a saved prompt cache read back (caches kept)
    QString firstEngine;              // the engine running when the trace starts
    double horizonS = 0;              // no turn starts after this (0: every turn)
    QList<Agent> agents;
    // Why a policy's p95 may be above strict order's for a group ("*": every group): printed
    // under its table.
    QHash<QString, QString> why;
};

// The synthetic traces, each two hours of agents from a fixed seed.
Trace twoAgentsAlternating();
Trace agentWithSideRequests();
Trace subagentBurst();
QList<Trace> syntheticTraces();

// The relay's own history: the JSON array GET /admin/requests?limit=N answers, one host's
// requests of it (the host with the most when host is empty). Each client (address and app) is
// an agent; its requests in order are its turns; the time between one's end and the next's start
// is think time. Prefill is the time to first byte, generation the rest. nullopt and error when
// the file cannot be read.
std::optional<Trace> traceFromRequestExport(const QString &path, QString *error, const QString &host = {});

} // namespace switchyard::switchsim
