#!/usr/bin/env python3
"""Writes sample-requests.json: a small /admin/requests export in the relay's exact shape
(src/admin/adminapi.cpp, recordJson), newest first as the admin API answers, for the switching
simulator's trace (d). Made up, from a fixed seed: an afternoon of two coding agents on the two
engines of host 3090 (Claude Code on mainline, opencode on fork), the SDK's title calls, a few
curl requests, and a static host's requests the simulator leaves out.

    python3 bench/switchsim/traces/make-sample-export.py > bench/switchsim/traces/sample-requests.json
"""
import datetime
import json
import random

rng = random.Random(19)
START = datetime.datetime(2026, 11, 30, 13, 0, 0, tzinfo=datetime.timezone.utc)
HOURS = 4
rows = []


def add(at, model, host, engine, duration, ttfb, client, ua, app, tokens):
    started = START + datetime.timedelta(seconds=at)
    ended = started + datetime.timedelta(seconds=duration)
    dur_text = f"{duration:.1f}s" if duration < 60 else f"{int(duration // 60)}m{int(duration % 60)}s"
    rows.append({
        "started_at": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "method": "POST",
        "path": "/v1/messages" if app == "claude-code" else "/v1/chat/completions",
        "model": model,
        "host": host,
        "engine": engine,
        "status": 200,
        "bytes": tokens * 9,
        "duration_ms": round(duration * 1000, 1),
        "client": client,
        "user_agent": ua,
        "client_app": app,
        "journal": f"{ended.strftime('%Y/%m/%d %H:%M:%S')} POST /v1/chat/completions model=\"{model}\" host={host} "
                   f"status=200 bytes={tokens * 9} dur={dur_text} from={client} ua=\"{ua}\"",
        "ttfb_ms": round(ttfb * 1000, 1),
        "tokens": tokens,
        "tokens_per_s": round(tokens / max(0.1, duration - ttfb), 1),
    })


def agent(model, engine, client, ua, app, sessions):
    """Sessions of turns: answer, then a tool run or a read, then the next turn."""
    for start, length in sessions:
        t = start
        while t < start + length:
            ttfb = rng.uniform(1, 6)
            duration = ttfb + rng.uniform(8, 35)
            add(t, model, "3090", engine, duration, ttfb, client, ua, app, int((duration - ttfb) * 35))
            t += duration + rng.uniform(2, 20)


agent("3090-qwen3-coder", "mainline", "192.168.1.20", "claude-cli/2.1.197 (external, cli)", "claude-code",
      [(0, 50 * 60), (75 * 60, 40 * 60), (140 * 60, 70 * 60)])
agent("3090-flint-40b", "fork", "192.168.1.21", "opencode/1.18.33 ai-sdk/provider-utils/3.0.9", "opencode",
      [(20 * 60, 45 * 60), (100 * 60, 60 * 60), (180 * 60, 50 * 60)])
# Title and summary calls for the coder's chats: short, on the other engine.
t = 300.0
while t < HOURS * 3600:
    ttfb = rng.uniform(0.3, 1.0)
    add(t, "3090-flint-40b", "3090", "fork", ttfb + rng.uniform(1, 3), ttfb, "192.168.1.20",
        "OpenAI/Python 1.109.1", "openai-sdk-python", 40)
    t += rng.uniform(300, 1200)
# Someone trying the big model by hand now and then.
for at in (33 * 60, 128 * 60, 205 * 60):
    ttfb = rng.uniform(1, 3)
    add(at, "3090-flint-40b", "3090", "fork", ttfb + rng.uniform(10, 30), ttfb, "192.168.1.30", "curl/8.5.0", "curl", 400)
# A static host's requests: not host 3090's, so not replayed.
for i in range(20):
    ttfb = rng.uniform(0.2, 1)
    add(rng.uniform(0, HOURS * 3600), "box-llama3-8b", "box", "main", ttfb + rng.uniform(2, 8), ttfb,
        "192.168.1.40", "Mozilla/5.0 (X11; Linux x86_64)", "browser", 150)

rows.sort(key=lambda r: r["started_at"], reverse=True)
for i, r in enumerate(reversed(rows), start=1):
    r["id"] = i
print("[\n" + ",\n".join(json.dumps({"id": r.pop("id"), **r}) for r in rows) + "\n]")
