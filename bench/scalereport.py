#!/usr/bin/env python3
"""Turns bench/scale.sh's raw results into the markdown of docs/PERFORMANCE.md's scale section.

usage: scalereport.py RAW.jsonl META.env OUT.md [--doc docs/PERFORMANCE.md]

With --doc, the part of the document between the two scale-results markers is replaced.
"""
import json
import shlex
import sys

# The percentiles bench/run.sh reports with, the same interpolation for both tables.
from report import med, pct

BEGIN = "<!-- scale-results:begin (written by bench/scale.sh) -->"
END = "<!-- scale-results:end -->"
# Per-stream (per-watcher) cost that grows more than this from the smallest cell to the largest
# is called faster than linear.
SUPERLINEAR = 2.0


def fmt(x, digits=1):
    if x is None:
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def ratio(x, base):
    if x is None or base in (None, 0):
        return "–"
    return f"{x / base:.2f}×"


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                parts = shlex.split(value) if value else [""]
                meta[key] = parts[0] if parts else ""
    return meta


def main(argv):
    raw, meta_path, out = argv[1], argv[2], argv[3]
    doc = argv[argv.index("--doc") + 1] if "--doc" in argv else None
    rows = [json.loads(l) for l in open(raw) if l.strip().startswith("{")]
    meta = read_meta(meta_path)
    num = lambda k: float(meta[k]) if meta.get(k, "").replace(".", "", 1).isdigit() else None

    md = [f"Run of {meta.get('started', '?')}, {meta.get('build_type', '?')} build, commit {meta.get('commit', '?')}; "
          f"{meta.get('cpu', '?')}, {meta.get('cores', '?')} cores, {meta.get('memory', '?')}. "
          f"Load average before {meta.get('load_before', '?')}, after {meta.get('load_after', '?')}: "
          "**a busy 2-core machine** (other sessions' builds ran on it), so absolute times are "
          "rough; the ratios compare direct and relay runs made one right after the other.",
          "",
          f"Streams of {meta.get('tokens', '?')} tokens at {meta.get('rate', '?')} tokens/s each, all connected at "
          f"once and spread round-robin over the hosts; {meta.get('reps', '?')} repetition(s) per cell, medians. "
          "Times run from the first connect of the burst. *CPU per stream* is the relay's CPU time over the burst "
          "(the scheduler's nanosecond count of its threads, `/proc/PID/task/*/schedstat`) less what the idle relay "
          "spends in as long (its catalog polls), divided by the streams; *RSS* is sampled "
          "when every stream has had its first line, and its growth is against the idle relay of that many hosts.",
          "",
          "| hosts | streams | complete, direct / relay | first line p50 ms, direct / relay | p90 | p99 | "
          "events/s, direct / relay | relay CPU per stream, ms | relay RSS, MiB (growth per stream, KiB) |",
          "|---|---|---|---|---|---|---|---|---|"]

    cells = sorted({(r["endpoints"], r["streams"]) for r in rows if r["phase"] == "scale"})
    per_stream_cpu = {}
    for hosts, streams in cells:
        def of(target):
            return [r for r in rows if r["phase"] == "scale" and r["target"] == target
                    and r["endpoints"] == hosts and r["streams"] == streams]
        d, r = of("direct"), of("relay")
        m = lambda rs, k: med([x[k] for x in rs if x[k] is not None and x[k] >= 0])
        rate = lambda rs: med([x["events"] / (x["total_ms"] / 1000.0) for x in rs if x["total_ms"] > 0])
        lat = {p: (m(d, k), m(r, k)) for p, k in (("p50", "first_event_median_ms"), ("p90", "first_event_p90_ms"),
                                                 ("p99", "first_event_p99_ms"))}
        idle_rate = num(f"relay_idle_cpu_s_per_s_{hosts}") or 0.0
        cpu = med([max(0.0, x["proxy_cpu_s"] - idle_rate * x["wall_ms"] / 1000.0) / streams
                   for x in r if x["proxy_cpu_s"] >= 0])
        per_stream_cpu[(hosts, streams)] = cpu
        rss = m(r, "rss_kb_all_open")
        idle = num(f"relay_rss_idle_kb_{hosts}")
        growth = (rss - idle) / streams if rss is not None and idle is not None else None
        ok = lambda rs: f"{min(x['ok'] for x in rs)}" if rs else "–"
        lat_cell = lambda p: f"{fmt(lat[p][0])} / {fmt(lat[p][1])} ({ratio(lat[p][1], lat[p][0])})"
        md.append(f"| {hosts} | {streams:,} | {ok(d)} / {ok(r)} | {lat_cell('p50')} | {lat_cell('p90')} | {lat_cell('p99')} | "
                  f"{fmt(rate(d), 0)} / {fmt(rate(r), 0)} ({ratio(rate(r), rate(d))}) | "
                  f"{fmt(None if cpu is None else cpu * 1000, 2)} | {fmt(None if rss is None else rss / 1024)} ({fmt(growth)}) |")
    md.append("")

    # Growth: per-stream cost along each axis of the grid; flat means linear in the total.
    hosts_axis = sorted({h for h, _ in cells})
    streams_axis = sorted({s for _, s in cells})
    growth_lines = []
    flagged = []
    if len(streams_axis) > 1:
        for h in hosts_axis:
            a, b = per_stream_cpu.get((h, streams_axis[0])), per_stream_cpu.get((h, streams_axis[-1]))
            if a and b:
                growth_lines.append(f"{h} host(s), {streams_axis[0]} → {streams_axis[-1]:,} streams: CPU per stream {ratio(b, a)}")
                if b / a > SUPERLINEAR:
                    flagged.append(growth_lines[-1])
    if len(hosts_axis) > 1:
        for s in streams_axis:
            a, b = per_stream_cpu.get((hosts_axis[0], s)), per_stream_cpu.get((hosts_axis[-1], s))
            if a and b:
                growth_lines.append(f"{s:,} streams, {hosts_axis[0]} → {hosts_axis[-1]} hosts: CPU per stream {ratio(b, a)}")
                if b / a > SUPERLINEAR:
                    flagged.append(growth_lines[-1])
    if growth_lines:
        md.append("How the relay's CPU per stream moves along the grid (flat = the total grows linearly; "
                  f"above {SUPERLINEAR:g}× is called faster than linear): " + "; ".join(growth_lines) + ".")
        md.append("")
        md.append("Faster than linear: " + ("; ".join(flagged) if flagged else "nothing") + ".")
        md.append("")
    idle = [(h, num(f"relay_rss_idle_kb_{h}")) for h in hosts_axis]
    md.append("Relay RSS idle, by hosts: " + ", ".join(f"{h} → {fmt(v / 1024 if v else None)} MiB" for h, v in idle) + ". "
              "Its CPU idle (taken off the cells above): "
              + ", ".join(f"{h} → {fmt((num(f'relay_idle_cpu_s_per_s_{h}') or 0) * 1000, 2)} ms/s" for h in hosts_axis) + ".")
    md.append("")

    fan = [r for r in rows if r["phase"] == "fanout"]
    if fan:
        md.append("The `/models/sse` fan-out: the watchers subscribe (to one fake's feed directly, or to the relay's "
                  "merged feed of all its hosts), then one `POST /models/load` to that fake makes an event. Times run "
                  "from that request to each watcher's first `data:` line. *CPU per watcher* is the relay's CPU from the "
                  "load request until every watcher had the event, divided by the watchers.")
        md.append("")
        md.append("| watchers | heard, direct / relay | first event p50 ms, direct / relay | p90 | p99 | last | "
                  "relay CPU per watcher, µs | relay RSS growth per watcher, KiB |")
        md.append("|---|---|---|---|---|---|---|---|")
        for w in sorted({r["watchers"] for r in fan}):
            d = [r for r in fan if r["watchers"] == w and r["target"] == "direct"]
            rl = [r for r in fan if r["watchers"] == w and r["target"] == "relay"]
            m = lambda rs, k: med([x[k] for x in rs if x[k] is not None and x[k] >= 0])
            cell = lambda k: f"{fmt(m(d, k), 2)} / {fmt(m(rl, k), 2)} ({ratio(m(rl, k), m(d, k))})"
            cpu = med([x["proxy_cpu_s"] / w * 1e6 for x in rl if x["proxy_cpu_s"] >= 0])
            rss = med([(x["rss_kb_watching"] - x["rss_kb_before"]) / w for x in rl
                       if x.get("rss_kb_before", -1) >= 0 and x["rss_kb_watching"] >= 0])
            heard = lambda rs: f"{min(x['heard'] for x in rs)}" if rs else "–"
            md.append(f"| {w} | {heard(d)} / {heard(rl)} | {cell('first_event_median_ms')} | {cell('first_event_p90_ms')} | "
                      f"{cell('first_event_p99_ms')} | {cell('all_first_event_ms')} | {fmt(cpu, 1)} | "
                      f"{fmt(rss)} |")
        md.append("")

    text = "\n".join(md) + "\n"
    with open(out, "w") as f:
        f.write(text)
    if doc:
        body = open(doc).read()
        if BEGIN not in body or END not in body:
            sys.exit(f"scalereport.py: {doc} has no scale-results markers")
        head, _, rest = body.partition(BEGIN)
        _, _, tail = rest.partition(END)
        with open(doc, "w") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)


if __name__ == "__main__":
    main(sys.argv)
