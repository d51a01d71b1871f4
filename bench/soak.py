#!/usr/bin/env python3
"""The soak test's client (bench/soak.sh starts the relay and its engines, then this).

Mixed traffic against one relay for a fixed time: OpenAI and Anthropic, streaming and not,
clients that cut their stream half-way, model lists, and requests that make a host switch
engines (the preferred engine of each host flips every --switch-every seconds, and a share of
requests always goes to the other one). Every request ends in exactly one bucket:

  completed  a 2xx answer that ended as the API ends it ([DONE], message_stop, a whole JSON)
  errored    an error response (status >= 400), or a 200 stream that ended with an error event
  cut        the client cut it on purpose, after reading part of the stream
  lost       anything else: no answer, a reset, a stream that stopped without an error event

lost must be 0. RSS and open fds of the relay are sampled every --sample-s seconds.
Writes a JSON summary to --json.
"""
import argparse
import asyncio
import json
import os
import random
import time
from collections import Counter


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Outcome(Exception):
    def __init__(self, bucket, kind):
        super().__init__(kind)
        self.bucket, self.kind = bucket, kind


async def read_head(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    return status, headers


async def read_body(reader, headers, on_piece=None):
    """The whole body; on_piece(bytes_so_far) may raise to stop early."""
    body = bytearray()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.strip().split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return bytes(body)
            body += await reader.readexactly(size)
            await reader.readexactly(2)
            if on_piece:
                on_piece(body)
    if "content-length" in headers:
        body += await reader.readexactly(int(headers["content-length"]))
        return bytes(body)
    body += await reader.read()
    return bytes(body)


class Soak:
    def __init__(self, args):
        self.args = args
        self.counts = Counter()
        self.errors = Counter()
        self.kinds = Counter()
        self.samples = []
        self.preferred = 0
        self.stop_at = 0.0

    def model_for(self):
        a = self.args
        host = random.choice(a.hosts)
        engines = a.engine_models  # list of lists: models per engine index
        engine = self.preferred if random.random() > a.other_share else 1 - self.preferred
        return f"{host}-{random.choice(engines[engine])}"

    async def one(self):
        kind = random.choices(
            ["openai-stream", "openai", "anthropic-stream", "anthropic", "cut", "models"],
            weights=[30, 15, 20, 10, 15, 10])[0]
        self.kinds[kind] += 1
        self.counts["sent"] += 1
        try:
            await asyncio.wait_for(self.request(kind), timeout=self.args.request_timeout)
            raise Outcome("lost", "no verdict")
        except Outcome as o:
            self.counts[o.bucket] += 1
            if o.bucket == "errored":
                self.errors[o.kind] += 1
            elif o.bucket == "lost":
                self.errors["LOST " + o.kind] += 1
        except asyncio.TimeoutError:
            self.counts["lost"] += 1
            self.errors["LOST timeout"] += 1
        except (ConnectionError, asyncio.IncompleteReadError, OSError, ValueError, IndexError) as e:
            self.counts["lost"] += 1
            self.errors["LOST " + type(e).__name__] += 1

    async def request(self, kind):
        model = self.model_for()
        tokens = random.randint(4, 40)
        stream = kind.endswith("-stream") or kind == "cut"
        anthropic = kind.startswith("anthropic") or (kind == "cut" and random.random() < 0.5)
        if kind == "models":
            raw = b"GET /v1/models HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n"
        else:
            path = "/v1/messages" if anthropic else "/v1/chat/completions"
            if kind == "cut":
                tokens = random.randint(30, 80)
            body = json.dumps({"model": model, "max_tokens": tokens, "stream": stream,
                               "messages": [{"role": "user", "content": "soak " * random.randint(1, 50)}]}).encode()
            raw = (f"POST {path} HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
        reader, writer = await asyncio.open_connection("127.0.0.1", self.args.port)
        try:
            writer.write(raw)
            await writer.drain()
            status, headers = await read_head(reader)
            if kind == "cut" and status == 200:
                cut_after = random.randint(200, 1500)

                def maybe_cut(body):
                    if len(body) >= cut_after:
                        raise Outcome("cut", "cut")
                body = await read_body(reader, headers, maybe_cut)
            else:
                body = await read_body(reader, headers)
        finally:
            writer.close()
        self.judge(kind, status, headers, body, anthropic)

    def judge(self, kind, status, headers, body, anthropic):
        if status >= 400:
            raise Outcome("errored", str(status))
        if status != 200:
            raise Outcome("lost", f"status {status}")
        if headers.get("content-type", "").startswith("text/event-stream"):
            if b"event: error" in body or b'data: {"error"' in body:
                raise Outcome("errored", "200 + SSE error event")
            if body.rstrip().endswith(b"data: [DONE]") or b"event: message_stop" in body:
                raise Outcome("completed", "")
            if kind == "cut":  # shorter than the cut point: it completed first
                raise Outcome("completed", "")
            raise Outcome("lost", "stream ended without its end or an error")
        try:
            json.loads(body)
        except ValueError:
            raise Outcome("lost", "200 with a body that is not JSON")
        raise Outcome("completed", "")

    async def worker(self):
        while time.monotonic() < self.stop_at:
            await self.one()
            await asyncio.sleep(random.uniform(0, self.args.think_s))

    async def sampler(self):
        start = time.monotonic()
        while True:
            t = time.monotonic() - start
            try:
                self.samples.append({"t": round(t), "rss_kib": rss_kib(self.args.pid), "fds": fd_count(self.args.pid),
                                     "sent": self.counts["sent"]})
            except FileNotFoundError:
                self.samples.append({"t": round(t), "rss_kib": -1, "fds": -1, "sent": self.counts["sent"]})
                return
            if time.monotonic() >= self.stop_at:
                return
            await asyncio.sleep(self.args.sample_s)

    async def flipper(self):
        while time.monotonic() < self.stop_at:
            await asyncio.sleep(self.args.switch_every)
            self.preferred = 1 - self.preferred

    async def run(self):
        self.stop_at = time.monotonic() + self.args.seconds
        tasks = [asyncio.create_task(self.worker()) for _ in range(self.args.clients)]
        tasks.append(asyncio.create_task(self.flipper()))
        sampler = asyncio.create_task(self.sampler())
        await asyncio.gather(*tasks)
        await asyncio.sleep(2)  # let the relay settle (close cut connections) before the last sample
        self.stop_at = 0
        await sampler
        self.samples.append({"t": round(self.args.seconds + 2), "rss_kib": rss_kib(self.args.pid),
                             "fds": fd_count(self.args.pid), "sent": self.counts["sent"]})


def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    with open("/proc/meminfo") as f:
        mem = f.readline().split()[1]
    return f"{os.uname().sysname} {os.uname().release}, {os.cpu_count()} CPUs ({model}), {int(mem) // 1024} MiB RAM"


def series(samples, key):
    values = [s[key] for s in samples if s[key] >= 0]
    return {"first": values[0], "last": values[-1], "min": min(values), "max": max(values)}


def markdown(summary, setup):
    c = Counter(summary["counts"])
    lost = c["sent"] - c["completed"] - c["errored"] - c["cut"]
    samples = summary["samples"]
    rss, fds = series(samples, "rss_kib"), series(samples, "fds")
    # After warm-up: the first sample is taken before any traffic.
    warm = [s for s in samples if s["t"] >= 60] or samples
    rss_warm, fds_warm = series(warm, "rss_kib"), series(warm, "fds")
    out = []
    w = out.append
    w("# Soak test")
    w("")
    w("`bench/soak.sh` runs the real `switchyard --headless` with two `local` hosts of two engines")
    w("each (every engine a `switchyard-fakellama` process the relay starts and stops), and")
    w("`bench/soak.py` sends mixed traffic for a fixed time: OpenAI and Anthropic requests,")
    w("streaming and not, clients that cut their stream half-way, model lists, and requests that")
    w("make the hosts switch engines (each host's preferred engine flips every "
      f"{setup['switch_every']:g} s, and {setup['other_share'] * 100:g} % of requests go to the other one).")
    w("It samples the relay's RSS and open fds. It is not part of ctest: run it by hand,")
    w("`bench/soak.sh --minutes 10`.")
    w("")
    w(f"- date: {time.strftime('%Y-%m-%d %H:%M %Z', time.localtime(summary['started']))}")
    w(f"- machine: {machine()}; shared with other builds and tests while this ran")
    w(f"- duration: {summary['seconds'] / 60:g} min, {summary['clients']} concurrent clients, "
      f"engines at {setup['tokens_per_s']} tokens/s")
    w("")
    w("## Requests")
    w("")
    w("| | count |")
    w("|---|---|")
    w(f"| sent | {c['sent']} |")
    w(f"| completed (2xx, ended as the API ends it) | {c['completed']} |")
    w(f"| errored (an error response or an SSE error event) | {c['errored']} |")
    w(f"| cut by the client on purpose | {c['cut']} |")
    w(f"| **lost** (sent − completed − errored − cut) | **{lost}** |")
    w("")
    w("By kind sent: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["kinds"].items())) + ".")
    w("")
    if summary["errors"]:
        w("Errors by kind:")
        w("")
        w("| kind | count |")
        w("|---|---|")
        for k, v in sorted(summary["errors"].items(), key=lambda kv: -kv[1]):
            w(f"| {k} | {v} |")
    else:
        w("No errors.")
    w("")
    w("## Relay resources")
    w("")
    w("| | first | min | max | last | after the first minute: min / max |")
    w("|---|---|---|---|---|---|")
    w(f"| RSS (MiB) | {rss['first'] / 1024:.1f} | {rss['min'] / 1024:.1f} | {rss['max'] / 1024:.1f} | "
      f"{rss['last'] / 1024:.1f} | {rss_warm['min'] / 1024:.1f} / {rss_warm['max'] / 1024:.1f} |")
    w(f"| open fds | {fds['first']} | {fds['min']} | {fds['max']} | {fds['last']} | {fds_warm['min']} / {fds_warm['max']} |")
    w("")
    w("The series (one sample every "
      f"{setup['sample_s']:g} s; the last one 2 s after the traffic stopped):")
    w("")
    w("| t (s) | requests sent | RSS (MiB) | fds |")
    w("|---|---|---|---|")
    for s in samples:
        w(f"| {s['t']} | {s['sent']} | {s['rss_kib'] / 1024:.1f} | {s['fds']} |")
    w("")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--seconds", type=float, default=600)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--think-s", type=float, default=0.2)
    p.add_argument("--sample-s", type=float, default=10)
    p.add_argument("--switch-every", type=float, default=20)
    p.add_argument("--other-share", type=float, default=0.05)
    p.add_argument("--request-timeout", type=float, default=180)
    p.add_argument("--hosts", default="h1,h2")
    p.add_argument("--engine-models", default="a1,a2;b1,b2")
    p.add_argument("--json", required=True)
    p.add_argument("--markdown", help="write the report here")
    p.add_argument("--tokens-per-s", type=int, default=0, help="the engines' rate, for the report")
    args = p.parse_args()
    args.hosts = args.hosts.split(",")
    args.engine_models = [e.split(",") for e in args.engine_models.split(";")]
    soak = Soak(args)
    started = time.time()
    asyncio.run(soak.run())
    summary = {"started": started, "seconds": args.seconds, "clients": args.clients,
               "counts": dict(soak.counts), "errors": dict(soak.errors), "kinds": dict(soak.kinds),
               "samples": soak.samples}
    with open(args.json, "w") as f:
        json.dump(summary, f, indent=1)
    if args.markdown:
        setup = {"switch_every": args.switch_every, "other_share": args.other_share,
                 "tokens_per_s": args.tokens_per_s, "sample_s": args.sample_s}
        with open(args.markdown, "w") as f:
            f.write(markdown(summary, setup))
    c = soak.counts
    print(f"sent {c['sent']} completed {c['completed']} errored {c['errored']} cut {c['cut']} lost {c['lost']}")


if __name__ == "__main__":
    main()
