#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <chrono>
#include <optional>

namespace switchyard {

// One llama.cpp server build on a host (usually a router serving several models).
struct EngineConfig
{
    QString name;
    QUrl url;                 // base URL of the llama-server, e.g. http://gpu-3090.lan:8080
    QStringList models;       // explicit model keys; empty = learn them from the engine's /models
    QStringList argv;         // driver "local" (and the agent's own file): how to start it
    QString startCommand;     // driver "command"
    QString stopCommand;      // driver "command"
    // From starting it until its /health answers 200; a single-model server loads its model first.
    std::chrono::milliseconds startTimeout{std::chrono::seconds(120)};
    // From SIGTERM (or the stop command) until it is gone; then SIGKILL.
    std::chrono::milliseconds stopTimeout{std::chrono::seconds(10)};
    // "idle_stop_after_s": stopped after this long without a request; unset = the host's.
    std::optional<std::chrono::milliseconds> idleStopAfter;
};

// "prompt_cache" of a host: llama-server's slot saves (KV caches) kept across a switch
// (docs/HOSTS.md). Off when dir is empty.
struct PromptCacheConfig
{
    QString dir;                // the engines' --slot-save-path, on the GPU box
    qint64 maxBytes = qint64(10) * 1024 * 1024 * 1024;   // max_size_mb: oldest saves dropped first
    // save_budget_s: a switch waits at most this long for saves; one that would not fit is skipped.
    std::chrono::milliseconds saveBudget{std::chrono::seconds(10)};

    bool enabled() const { return !dir.isEmpty(); }
};

// One GPU box. One engine runs on it at a time.
// How a host that can switch orders the requests for its engines (docs/HOSTS.md, "Which request
// goes next"). Arrival: strictly in arrival order, a switch for every change of engine. Batch:
// the running engine keeps the host while it has work (requests running, or one finished within
// dwell), a request for another engine waits at most maxWait, then the host drains and switches.
// A side call (a title, a coding agent's small-model call) waits at most sideCallMaxWait.
struct SchedulingConfig
{
    enum class Policy { Arrival, Batch };
    Policy policy = Policy::Batch;
    // Nobody waits minutes for a turn, and nobody waits for a title at all (issue 31): the
    // simulator's tables in docs/PERFORMANCE.md show what each costs in switches.
    std::chrono::milliseconds dwell{std::chrono::seconds(20)};
    std::chrono::milliseconds maxWait{std::chrono::seconds(90)};
    std::chrono::milliseconds sideCallMaxWait{std::chrono::seconds(30)};

    // The longest a request of its class waits for the running engine's work.
    std::chrono::milliseconds waitLimit(bool sideCall) const
    {
        return sideCall ? std::min(sideCallMaxWait, maxWait) : maxWait;
    }
};

// "wake" of a host: wake-on-LAN for a box that sleeps (docs/HOSTS.md, "Wake and idle stop").
struct WakeConfig
{
    QByteArray mac;              // six bytes; empty = the host is never woken
    QHostAddress broadcast;      // IPv4, e.g. the LAN's 192.168.1.255
    quint16 port = 9;
    // From the magic packet until the host's engine answers /health; then the waiters get 424.
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};

    bool enabled() const { return mac.size() == 6; }
};

struct HostConfig
{
    QString name;
    QString driver = QStringLiteral("static");   // static | local | agent | command
    QUrl agent;                                   // driver "agent"
    QString token;                                // driver "agent": sent as "Authorization: Bearer"
    QString apiKey;                               // sent to its engines as "Authorization: Bearer" (llama-server --api-key)
    QList<EngineConfig> engines;                  // in file order; the first is the default
    SchedulingConfig scheduling;                  // "scheduling": used by hosts that can switch
    PromptCacheConfig promptCache;
    WakeConfig wake;
    // "idle_stop_after_s": the engine is stopped after this long without a request (an engine's
    // own value wins); unset = never.
    std::optional<std::chrono::milliseconds> idleStopAfter;
    QStringList sleepCommand;                     // argv, run once after an idle stop
};

// "claude-*" -> "3090-flint-40b": a glob pattern and the alias it resolves to. A replicated alias
// ("coder" -> ["3090-flint-40b", "a9-flint-40b"]) names several targets; each request goes to one
// of them (docs/HOSTS.md, "Replicas and failover").
struct AliasRule
{
    QString pattern;
    QString target;         // the first of targets
    QStringList targets;    // one or more "<host>-<key>", in file order

    bool isPattern() const { return pattern.contains(u'*') || pattern.contains(u'?'); }
    // Several targets under a plain name: /models lists it once, with its replicas.
    bool isReplicated() const { return targets.size() > 1 && !isPattern(); }
};

struct WaitingConfig
{
    std::chrono::milliseconds early200After{std::chrono::seconds(10)};
    std::chrono::milliseconds commentEvery{std::chrono::seconds(15)};
};

struct LimitsConfig
{
    qint64 maxBodyBytes = 8 * 1024 * 1024;
    std::chrono::milliseconds clientIdleTimeout{std::chrono::seconds(60)};
    std::chrono::milliseconds headerTimeout{std::chrono::seconds(30)};
    std::chrono::milliseconds upstreamConnectTimeout{std::chrono::seconds(10)};
    // An engine that sends no byte for this long is given up on. Generous: a non-streaming
    // answer is silent until it is complete, and llama.cpp's ':' pings keep a prefill alive.
    std::chrono::milliseconds upstreamInactivityTimeout{std::chrono::seconds(600)};
    std::chrono::milliseconds pollInterval{std::chrono::seconds(30)};
};

// Who may use the relay. See docs/SECURITY.md.
// One client key and the name the history, the journal and the metrics know it by (the key
// itself never leaves the access check).
struct ClientApiKey
{
    QString name;                // "laptop"; plain keys get "key1", "file1", "env1" (docs/CONFIG.md)
    QString key;
};

struct AccessConfig
{
    bool lan = false;            // "lan": true allows a listen address that is not loopback
    QList<ClientApiKey> clientKeys;   // clients.api_keys (+ _file, _env); empty = no key needed
    QString adminToken;          // admin.token (or _file, _env); empty = admin API from loopback only
    QString metricsToken;        // metrics.token (or _file, _env): opens /metrics alone, for a scraper
    QString tlsCertFile;         // tls.cert, PEM; both set = HTTPS only
    QString tlsKeyFile;          // tls.key, PEM, unencrypted

    bool tls() const { return !tlsCertFile.isEmpty() && !tlsKeyFile.isEmpty(); }
};

struct Config
{
    QHostAddress listenAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 listenPort = 18766;
    AccessConfig access;
    QList<HostConfig> hosts;
    QList<AliasRule> aliases;
    WaitingConfig waiting;
    LimitsConfig limits;
    QString stateDir;   // where "local" and "command" hosts keep their state; empty = the default

    const HostConfig *host(const QString &name) const
    {
        for (const HostConfig &h : hosts) {
            if (h.name == name)
                return &h;
        }
        return nullptr;
    }

    // Every secret in this config, for the redactor: client keys, the admin token, agent tokens.
    QStringList secrets() const
    {
        QStringList out;
        for (const ClientApiKey &k : access.clientKeys)
            out.append(k.key);
        if (!access.adminToken.isEmpty())
            out.append(access.adminToken);
        if (!access.metricsToken.isEmpty())
            out.append(access.metricsToken);
        for (const HostConfig &h : hosts) {
            if (!h.token.isEmpty())
                out.append(h.token);
            if (!h.apiKey.isEmpty())
                out.append(h.apiKey);
        }
        return out;
    }
};

// What is wrong with a config, and where: file, line (0 = unknown), JSON field path.
struct ConfigError
{
    QString file;
    int line = 0;
    QString fieldPath;   // e.g. "hosts.3090.engines.fork.url"
    QString message;
    int column = 0;      // 1-based, JSON syntax errors only (0 = unknown)

    // "FILE:LINE: hosts.3090.engines.fork.url: not a valid http(s) URL"; unknown parts are left out.
    QString toString() const;
};

struct ConfigResult
{
    std::optional<Config> config;
    QList<ConfigError> errors;
    QList<ConfigError> warnings;   // legal but probably not meant; never stop loading
    bool ok() const { return config.has_value() && errors.isEmpty(); }
};

// `switchyard agent --config FILE`: the engines one GPU box runs, and where it answers the relay.
struct AgentConfig
{
    QHostAddress listenAddress = QHostAddress(QHostAddress::AnyIPv4);
    quint16 listenPort = 18767;
    QString token;      // empty = no token required
    QString stateDir;   // empty = the default
    QList<EngineConfig> engines;   // url, argv, start and stop timeouts
    SchedulingConfig scheduling;   // the box's, for every relay's requests (agent protocol 2)
    // The box's saved prompt caches (issue 33): on unless "prompt_cache": false; the agent saves
    // and restores them for every relay, and keeps their index in state_dir.
    PromptCacheConfig promptCache;
    // "idle_stop_after_s" (an engine's own wins) and "sleep_command": the box's engine stops after
    // that long without a request from any relay, then the command runs once (issue 33: on a
    // shared box these are the agent's to decide, never a relay's).
    std::optional<std::chrono::milliseconds> idleStopAfter;
    QStringList sleepCommand;

    // The box as a host whose engines this program starts: what its arbiter's power policy and
    // prompt-cache keeper read.
    HostConfig asLocalHost(const QString &name) const;

    const EngineConfig *engine(const QString &name) const
    {
        for (const EngineConfig &e : engines) {
            if (e.name == name)
                return &e;
        }
        return nullptr;
    }
};

struct AgentConfigResult
{
    std::optional<AgentConfig> config;
    QList<ConfigError> errors;
    QList<ConfigError> warnings;
    bool ok() const { return config.has_value() && errors.isEmpty(); }
};

} // namespace switchyard
