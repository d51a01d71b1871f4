#!/usr/bin/env python3
"""The sticky-replica benchmark (issue 31, item 5): what keeping each conversation on the replica
that holds its prompt cache saves, against stickiness per client and against none.

The real llama-server (scripts/llama-setup.sh) twice, as two static hosts `h1` and `h2` of the
real relay (headless), one replicated alias `coder` over both, on loopback. Several agent-like
conversations (a system prompt, then turns of tool output and short answers) run at once, each
turn after the previous one's answer, in three ways one after the other on the same relay and
engines (each way's conversations are its own, so none reuses another's cache). Between turns an
agent runs its tools: a pause drawn from 0 to --think-ms (seeded), so turns do not arrive in
lock-step:

  conversation: through the alias; the relay keeps each conversation (client key + prompt prefix)
                on the replica that served its previous turn, new ones spread by load;
  client:       stickiness per client, as before issue 31 (the conversations of one client are
                not told apart): each turn goes to the replica that served the client's previous
                request, of any conversation, while it has a free slot, else to the least loaded.
                The relay has no switch for that, so the benchmark simulates it: it names the
                replica itself (`h1-tiny`, `h2-tiny`, through the same relay);
  least-load:   no stickiness: each request to the replica with the fewest requests in flight,
                the first on a tie (what the relay does for a request it cannot tell a
                conversation of; the benchmark names the replica).

What llama-server reports per answer (`timings.prompt_n`: prompt tokens evaluated, `cache_n`:
reused from a slot or its RAM cache) gives, for turns 2 on, the cache hit rate (tokens reused of
the previous turn's prompt, which this turn repeats) and the tokens re-evaluated per turn (those
of the previous turn's prompt evaluated again: what a kept cache saves); which replica
served each turn comes from the relay's /admin/requests (one User-Agent per request). Ratios only:
the machine is shared. Every process it starts is ended by its PID. Prints Markdown, or writes it
with --markdown; --json writes the raw numbers.
"""
import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from promptcache import engine_argv, free_port, get_json, healthy, stop_process, tool_output, wait_until  # noqa: E402

MODES = ("conversation", "client", "least-load")
TARGETS = ("h1-tiny", "h2-tiny")


def log(msg):
    print(f"[replica-sticky {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def chat(port, model, messages, agent, max_tokens):
    """One streamed chat completion through the relay; returns llama-server's final timings."""
    body = json.dumps({"model": model, "messages": messages, "max_tokens": max_tokens, "temperature": 0,
                       "stream": True, "ignore_eos": True}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json", "User-Agent": agent})
    r = conn.getresponse()
    if r.status != 200:
        raise SystemExit(f"replica-sticky: {model} answered {r.status}: {r.read()[:400]!r}")
    timings = {}
    for line in r.read().split(b"\n"):
        line = line.strip()
        if line.startswith(b"data:") and line[5:].strip() != b"[DONE]":
            event = json.loads(line[5:])
            if "error" in event:
                raise SystemExit(f"replica-sticky: {model} streamed an error: {line[:400]!r}")
            timings = event.get("timings", timings)
    conn.close()
    if "prompt_n" not in timings:
        raise SystemExit("replica-sticky: an answer without timings.prompt_n")
    return timings


class Picker:
    """Which name a mode sends a turn to: the alias, or a replica the benchmark picks itself."""

    def __init__(self, mode, slots):
        self.mode, self.slots = mode, slots
        self.lock = threading.Lock()
        self.in_flight = {t: 0 for t in TARGETS}
        self.last = None   # the replica that answered the client's latest request

    def pick(self):
        with self.lock:
            if self.mode == "conversation":
                return "coder"
            if self.mode == "client" and self.last is not None and self.in_flight[self.last] < self.slots:
                target = self.last
            else:
                target = min(TARGETS, key=lambda t: self.in_flight[t])   # ties: h1, as the relay
            self.in_flight[target] += 1
            return target

    def done(self, target):
        with self.lock:
            if target in self.in_flight:
                self.in_flight[target] -= 1
                self.last = target


def run_conversation(args, port, mode, picker, index, out):
    rng = random.Random(1000 * MODES.index(mode) + index)
    think = random.Random(index)   # the same pauses in every way
    # Each way's system prompt of its own: no way finds another's conversations cached.
    messages = [{"role": "system", "content": f"You are coding agent {index} of the {mode} run. Read, then be brief."}]
    for turn in range(1, args.turns + 1):
        if turn > 1:
            time.sleep(think.uniform(0, args.think_ms / 1000.0))   # the agent runs its tools
        messages.append({"role": "user", "content": tool_output(rng, turn, args.lines_per_turn)})
        agent = f"replica-sticky/{mode}/{index}/{turn}"
        target = picker.pick()
        t0 = time.monotonic()
        try:
            timings = chat(port, target, messages, agent, args.max_tokens)
        finally:
            picker.done(target)
        out.append({"mode": mode, "conversation": index, "turn": turn, "agent": agent, "seconds": time.monotonic() - t0,
                    "prompt_n": timings["prompt_n"], "cache_n": timings.get("cache_n", 0)})
        messages.append({"role": "assistant", "content": f"Read module_{turn}; next the caller."})


def run_mode(args, port, mode):
    picker = Picker(mode, args.slots)
    turns = []
    t0 = time.monotonic()
    threads = [threading.Thread(target=run_conversation, args=(args, port, mode, picker, i, turns))
               for i in range(args.conversations)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.monotonic() - t0
    if len(turns) != args.conversations * args.turns:
        raise SystemExit(f"replica-sticky: {mode}: {len(turns)} turns answered of {args.conversations * args.turns}")
    _, records = get_json(port, "/admin/requests?limit=10000")
    host = {r["user_agent"]: r["host"] for r in records if r.get("user_agent", "").startswith("replica-sticky/")}
    for t in turns:
        t["host"] = host[t["agent"]]
    log(f"{mode}: {len(turns)} turns in {seconds:.1f} s")
    return {"seconds": seconds, "turns": sorted(turns, key=lambda t: (t["conversation"], t["turn"]))}


def summary(run):
    turns = run["turns"]
    later = [t for t in turns if t["turn"] > 1]
    by_conv = {}
    for t in turns:
        by_conv.setdefault(t["conversation"], {})[t["turn"]] = t
    prev = lambda t: by_conv[t["conversation"]][t["turn"] - 1]
    total = lambda t: t["prompt_n"] + t["cache_n"]
    stayed = sum(1 for t in later if prev(t)["host"] == t["host"])
    evaluated = sum(t["prompt_n"] for t in later)
    # The previous turn's prompt is this one's prefix: what of it was reused, what evaluated again.
    reusable = sum(total(prev(t)) for t in later)
    reused = sum(min(t["cache_n"], total(prev(t))) for t in later)
    again = [max(0, t["prompt_n"] - (total(t) - total(prev(t)))) for t in later]
    # How the first turns spread: conversations per replica.
    spread = sorted(sum(1 for t in turns if t["turn"] == 1 and t["host"] == h) for h in ("h1", "h2"))
    return {"stayed": stayed / len(later), "hit_rate": reused / max(1, reusable),
            "evaluated_per_turn": evaluated / len(later), "again_per_turn": sum(again) / len(later),
            "turns_missed": sum(1 for a in again if a > 0) / len(later),
            "turn_seconds": statistics.mean(t["seconds"] for t in later),
            "spread": f"{spread[1]}/{spread[0]}", "seconds": run["seconds"]}


def markdown(r):
    s = {m: summary(r["runs"][m]) for m in MODES}
    base = s["conversation"]
    out = [f"{r['conversations']} agent-like conversations at once, {r['turns']} turns each (a tool output of "
           f"{r['lines_per_turn']} lines per turn, {r['final_tokens']:,} tokens at the end, a pause of 0 to "
           f"{r['think_ms']} ms between turns), on the alias `coder` over two llama-servers of `{r['model']}` with "
           f"`-np {r['slots']}` (`-c {r['ctx']}`, `--threads {r['threads']}`). Turns 2 to {r['turns']}, from "
           f"llama-server's `timings`; each way against the relay's per-conversation stickiness in the same run. "
           f"The last two ways are simulated: the benchmark names the replica itself (the relay has no switch for "
           f"per-client stickiness).", "",
           "| replicas chosen by | first turns per replica | turns on the previous turn's replica | turns that "
           "re-evaluated some of the previous prompt | prompt-cache hit rate | prompt tokens evaluated per turn "
           "(of them re-evaluated) | × | time per turn × |",
           "|---|---|---|---|---|---|---|---|"]
    for m in MODES:
        x = s[m]
        name = {"conversation": "the relay: per conversation (client key + prompt prefix)",
                "client": "per client (simulated): the previous request's replica while it has a free slot",
                "least-load": "least load, no stickiness (simulated)"}[m]
        out.append(f"| {name} | {x['spread']} | {x['stayed']:.0%} | {x['turns_missed']:.0%} | {x['hit_rate']:.0%} | "
                   f"{x['evaluated_per_turn']:,.0f} ({x['again_per_turn']:,.0f}) | "
                   f"{x['evaluated_per_turn'] / max(1e-9, base['evaluated_per_turn']):.2f}x | "
                   f"{x['turn_seconds'] / base['turn_seconds']:.2f}x |")
    out.append("")
    out.append(f"The run took {r['seconds']:.0f} s on {r['cores']} cores (load average {r['load_before']:.1f} before, "
               f"{r['load_after']:.1f} after).")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--switchyard", required=True, help="the relay binary")
    p.add_argument("--llama", required=True, help="scripts/llama-setup.sh's folder (bin/, models/)")
    p.add_argument("--conversations", type=int, default=4, help="conversations at once (default 4)")
    p.add_argument("--turns", type=int, default=8, help="turns per conversation (default 8)")
    p.add_argument("--think-ms", type=int, default=400, help="the longest pause between turns (default 400)")
    p.add_argument("--lines-per-turn", type=int, default=20, help="lines of tool output per turn (default 20)")
    p.add_argument("--max-tokens", type=int, default=8, help="tokens generated per turn (default 8)")
    p.add_argument("--slots", type=int, default=2, help="llama-server -np per replica (default 2)")
    p.add_argument("--ctx", type=int, default=12288, help="llama-server -c per replica (default 12288)")
    p.add_argument("--threads", type=int, default=1, help="llama-server --threads (default 1)")
    p.add_argument("--workdir", help="keep configs and logs here (default a temporary folder, removed)")
    p.add_argument("--markdown", help="write the table here")
    p.add_argument("--json", help="write the raw numbers here")
    args = p.parse_args()

    tmp = None
    if args.workdir:
        workdir = args.workdir
        os.makedirs(workdir, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="switchyard-replicasticky.")
        workdir = tmp.name
    started = time.monotonic()
    result = {"model": "tiny-llama-a", "ctx": args.ctx, "threads": args.threads, "slots": args.slots,
              "conversations": args.conversations, "turns": args.turns, "think_ms": args.think_ms, "lines_per_turn": args.lines_per_turn,
              "cores": os.cpu_count(), "load_before": os.getloadavg()[0], "runs": {}}
    procs = []
    try:
        hosts = {}
        for name in ("h1", "h2"):
            port = free_port()
            argv = engine_argv(args.llama, os.path.join(args.llama, "models", "tiny-llama-a.gguf"), "tiny", port,
                               args.ctx, args.threads) + ["-np", str(args.slots)]
            with open(os.path.join(workdir, f"{name}.log"), "w") as out:
                procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT))
            hosts[name] = {"driver": "static", "engines": {"main": {"url": f"http://127.0.0.1:{port}", "models": ["tiny"]}}}
            wait_until(lambda: healthy(port), 60, f"llama-server {name} did not come up (see {workdir}/{name}.log)")
        relay_port = free_port()
        config = {"listen": f"127.0.0.1:{relay_port}", "state_dir": os.path.join(workdir, "state"),
                  "hosts": hosts, "aliases": {"coder": list(TARGETS)}}
        config_path = os.path.join(workdir, "relay.json")
        with open(config_path, "w") as f:
            json.dump(config, f, indent=1)
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(workdir, "data"),
                   XDG_CONFIG_HOME=os.path.join(workdir, "config"))
        with open(os.path.join(workdir, "relay.log"), "w") as out:
            procs.append(subprocess.Popen([args.switchyard, "--headless", "--config", config_path],
                                          stdout=out, stderr=subprocess.STDOUT, env=env))
        wait_until(lambda: healthy(relay_port), 30, f"the relay did not come up (see {workdir}/relay.log)")

        def both_loaded():
            _, models = get_json(relay_port, "/v1/models")
            status = {m["id"]: m.get("status", {}).get("value") for m in models["data"]}
            return all(status.get(t) == "loaded" for t in TARGETS)
        wait_until(both_loaded, 30, "both replicas loaded")
        for mode in MODES:
            result["runs"][mode] = run_mode(args, relay_port, mode)
        last = result["runs"]["conversation"]["turns"][-1]
        result["final_tokens"] = last["prompt_n"] + last["cache_n"]
    finally:
        for proc in reversed(procs):
            stop_process(proc)
    result["seconds"] = time.monotonic() - started
    result["load_after"] = os.getloadavg()[0]
    result["summary"] = {m: summary(result["runs"][m]) for m in MODES}
    text = markdown(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
