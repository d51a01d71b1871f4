#!/usr/bin/env bash
# The scale run (issue 33, item 4): one relay in front of up to 20 fake llama.cpp routers, 10 to
# 1,000 concurrent streams, and a /models/sse fan-out to up to 200 watchers. Every cell runs the
# same load straight at the fakes ("direct") and through the relay ("relay"), interleaved, in one
# run, on loopback only; the report gives the relay's numbers as ratios against direct.
#
#   bench/scale.sh [--quick] [--no-doc] [--hosts "1 5 20"] [--streams "10 100 1000"]
#                  [--watchers "10 100 200"] [--reps N]
#
#   --quick      one repetition per cell (a smoke run, well under a minute)
#   --no-doc     do not rewrite the scale section of docs/PERFORMANCE.md
#   --hosts      host counts of the grid (one relay per count, with that many --upstream)
#   --streams    concurrent streams of the grid (spread round-robin over the hosts)
#   --watchers   /models/sse watchers of the fan-out (through the relay of the most hosts)
#   --reps N     repetitions per cell (default 3)
#
# Environment: BUILD_DIR (default <repo>/build; switchyard, switchyard-fakellama and the bench
# tools are built there if missing), BENCH_BIN (a folder of prebuilt binaries instead),
# RESULTS_DIR (default a new temp dir, kept and printed at the end), SCALE_RATE (tokens/s of the
# fakes per stream, default 20), SCALE_TOKENS (tokens per stream, default 40: 2 s streams).
# Every process it starts is ended by PID.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
DOC=1 REPS=3
HOSTS_LIST="1 5 20" STREAMS_LIST="10 100 1000" WATCHERS_LIST="10 100 200"
while (($#)); do
    case "$1" in
        --quick) REPS=1 ;;
        --no-doc) DOC=0 ;;
        --hosts) HOSTS_LIST=$2; shift ;;
        --streams) STREAMS_LIST=$2; shift ;;
        --watchers) WATCHERS_LIST=$2; shift ;;
        --reps) REPS=$2; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "scale.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
RATE=${SCALE_RATE:-20}
TOKENS=${SCALE_TOKENS:-40}
MODELS_PER_HOST=20

log() { printf '[scale %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

max_of() { local m=0 v; for v in "$@"; do ((v > m)) && m=$v; done; echo "$m"; }
MAX_HOSTS=$(max_of $HOSTS_LIST)
MAX_STREAMS=$(max_of $STREAMS_LIST)
MAX_WATCHERS=$(max_of $WATCHERS_LIST)

# Through the relay every stream holds two sockets (client and upstream), and the client holds
# one more: ask for enough descriptors, up to the hard limit.
want_fds=$((3 * MAX_STREAMS + 3 * MAX_WATCHERS + 1024))
if (($(ulimit -n) < want_fds)); then
    hard=$(ulimit -Hn)
    [[ $hard == unlimited ]] || ((hard >= want_fds)) || die "ulimit -Hn is $hard, the run needs $want_fds descriptors"
    ulimit -n "$want_fds"
fi

# --- build ----------------------------------------------------------------------------------------
if [[ -n ${BENCH_BIN:-} ]]; then
    BIN=$BENCH_BIN
    BUILD_TYPE="prebuilt ($BENCH_BIN)"
else
    if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
        log "configuring a Release build in $BUILD_DIR"
        cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON >/dev/null
    fi
    log "building switchyard, switchyard-fakellama and the bench tools in $BUILD_DIR"
    nice cmake --build "$BUILD_DIR" --target switchyard switchyard-fakellama switchyard-bench-client \
        switchyard-bench-backlog -- -j1 >/dev/null
    BIN=$BUILD_DIR/bin
    BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
fi

# --- bookkeeping ----------------------------------------------------------------------------------
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d /tmp/switchyard-scale.XXXXXX)}
mkdir -p "$RESULTS_DIR"
WORK=$(mktemp -d /tmp/switchyard-scale-work.XXXXXX)
RAW=$RESULTS_DIR/raw.jsonl
META=$RESULTS_DIR/meta.env
: >"$RAW"
: >"$META"
PIDS=()
stop_pid() {
    kill -TERM "$1" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
meta() { printf '%s=%q\n' "$1" "$2" >>"$META"; }
wait_for_line() { # file regex timeout pid
    local file=$1 regex=$2 timeout=$3 pid=$4
    local deadline=$((SECONDS + timeout))
    while ((SECONDS < deadline)); do
        if grep -m1 -E "$regex" "$file" 2>/dev/null; then return 0; fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    log "no line /$regex/ in $file:"; tail -5 "$file" >&2 || true
    return 1
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# CPU seconds of a process's threads, from the scheduler's nanosecond accounting.
run_s() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%.6f", s / 1e9}'; }
models_list() { local i out=(); for i in $(seq -w 1 "$1"); do out+=("m$i"); done; (IFS=,; echo "${out[*]}"); }

meta started "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta cpu "$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
meta cores "$(nproc)"
meta memory "$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
meta build_type "$BUILD_TYPE"
meta commit "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD -- src 2>/dev/null || echo ' + uncommitted changes in src/')"
meta load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
meta reps "$REPS"
meta rate "$RATE"
meta tokens "$TOKENS"
meta fd_limit "$(ulimit -n)"

# --- the fakes: MAX_HOSTS routers, MODELS_PER_HOST models each, m01 loaded ------------------------
# Their listen backlog is raised (bench/listenbacklog.cpp) so that 1,000 connects at once measure
# the path, not Qt's accept queue of 50; the relay keeps its own.
FAKE_ENV=(env "LD_PRELOAD=$BIN/switchyard-bench-backlog.so" SWITCHYARD_BENCH_BACKLOG=4096)
log "starting $MAX_HOSTS fake routers ($RATE tokens/s per stream)"
FAKE_PORTS=() FAKE_PIDS=()
for h in $(seq 1 "$MAX_HOSTS"); do
    "${FAKE_ENV[@]}" "$BIN/switchyard-fakellama" --port 0 --models "$(models_list $MODELS_PER_HOST)" --loaded m01 \
        --max-models $MODELS_PER_HOST --load-ms 100 --tokens-per-s "$RATE" >"$WORK/fake-$h.log" 2>&1 &
    PIDS+=($!)
    FAKE_PIDS+=($!)
done
for h in $(seq 1 "$MAX_HOSTS"); do
    line=$(wait_for_line "$WORK/fake-$h.log" 'listening on' 20 "${FAKE_PIDS[h-1]}") || die "fake $h did not start"
    FAKE_PORTS+=("${line##*:}")
done

CLIENT=("$BIN/switchyard-bench-client")
RELAY_PID= RELAY_PORT=
start_relay() { # hosts
    local n=$1 args=() h line
    for h in $(seq 1 "$n"); do args+=(--upstream "h$(printf %02d "$h")=http://127.0.0.1:${FAKE_PORTS[h-1]}"); done
    rm -rf "$WORK/relay-data"; mkdir -p "$WORK/relay-data"
    "$BIN/switchyard" --headless --listen 127.0.0.1:0 --data-dir "$WORK/relay-data" "${args[@]}" \
        >"$WORK/relay-$n.log" 2>&1 &
    RELAY_PID=$!
    PIDS+=("$RELAY_PID")
    line=$(wait_for_line "$WORK/relay-$n.log" 'listening on http://' 30 "$RELAY_PID") || die "the relay did not start"
    RELAY_PORT=$(sed -E 's|.*listening on http://[^ ]*:([0-9]+).*|\1|' <<<"$line")
    python3 - "$RELAY_PORT" "$((n * MODELS_PER_HOST))" <<'EOF' || die "the relay's /models never listed every host's models"
import json, sys, time, urllib.request
deadline = time.time() + 30
while time.time() < deadline:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/models", timeout=2) as r:
            if len(json.load(r).get("data", [])) >= int(sys.argv[2]):
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.2)
sys.exit(1)
EOF
    sleep 0.5
}
targets_for() { # hosts -> --target arguments: direct spreads over the fakes, relay over its hosts
    local n=$1 h out=()
    for h in $(seq 1 "$n"); do out+=(--target "direct=127.0.0.1:${FAKE_PORTS[h-1]},m01"); done
    for h in $(seq 1 "$n"); do out+=(--target "relay=127.0.0.1:$RELAY_PORT,h$(printf %02d "$h")-m01,$RELAY_PID"); done
    printf '%s\n' "${out[@]}"
}

for hosts in $HOSTS_LIST; do
    log "relay with $hosts hosts"
    start_relay "$hosts"
    meta "relay_rss_idle_kb_$hosts" "$(rss_kb "$RELAY_PID")"
    # What the idle relay spends anyway (its catalog polls of every host): taken off each cell's CPU.
    idle0=$(run_s "$RELAY_PID"); sleep 3; idle1=$(run_s "$RELAY_PID")
    meta "relay_idle_cpu_s_per_s_$hosts" "$(awk -v a="$idle0" -v b="$idle1" 'BEGIN {printf "%.6f", (b - a) / 3}')"
    mapfile -t targets < <(targets_for "$hosts")
    for streams in $STREAMS_LIST; do
        log "  $streams concurrent streams over $hosts hosts, $REPS x direct and relay"
        "${CLIENT[@]}" --mode concurrent --phase scale --streams "$streams" --reps "$REPS" --warmup 0 \
            --max-tokens "$TOKENS" --timeout-s 60 "${targets[@]}" >>"$RAW"
    done
    meta "relay_rss_after_kb_$hosts" "$(rss_kb "$RELAY_PID")"
    meta "relay_cpu_total_s_$hosts" "$(run_s "$RELAY_PID")"
    if ((hosts == MAX_HOSTS)); then
        # The fan-out: watchers of the relay's merged feed (all hosts) against watchers of one
        # fake's own feed; a model load on that fake makes the event both report.
        for watchers in $WATCHERS_LIST; do
            log "  /models/sse fan-out to $watchers watchers, $REPS x direct and relay"
            "${CLIENT[@]}" --mode fanout --streams "$watchers" --reps "$REPS" --warmup 0 --timeout-s 20 \
                --trigger "127.0.0.1:${FAKE_PORTS[0]}" \
                --target "direct=127.0.0.1:${FAKE_PORTS[0]},m01" --target "relay=127.0.0.1:$RELAY_PORT,h01-m01,$RELAY_PID" >>"$RAW"
            # The models loaded for the events go again, so the next round loads them anew.
            for m in $(seq -w 2 $MODELS_PER_HOST); do
                curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"model\":\"m$m\"}" \
                    "http://127.0.0.1:${FAKE_PORTS[0]}/models/unload" || true
            done
            sleep 0.3
        done
    fi
    stop_pid "$RELAY_PID"
done
meta load_after "$(cut -d' ' -f1-3 /proc/loadavg)"

python3 "$ROOT/bench/scalereport.py" "$RAW" "$META" "$RESULTS_DIR/results.md" \
    $([[ $DOC == 1 ]] && echo --doc "$ROOT/docs/PERFORMANCE.md")
cat "$RESULTS_DIR/results.md"
log "results in $RESULTS_DIR"
