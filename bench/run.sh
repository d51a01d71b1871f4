#!/usr/bin/env bash
# The relay benchmark (issue 8): the client straight to a fake llama.cpp router ("direct", the
# physical limit), through nginx configured for SSE ("nginx"), and through switchyard ("relay"),
# the same workloads against all three in one run, interleaved, on loopback only.
#
#   bench/run.sh [--quick] [--no-doc] [--no-callgrind] [--perf] [--no-nice]
#
#   --quick         fewer repetitions (a smoke run, about a minute)
#   --no-doc        do not rewrite the results section of docs/PERFORMANCE.md
#   --no-callgrind  skip the instructions-per-event measurement under valgrind
#   --perf          also sample the relay with `perf record` during the throughput runs
#   --no-nice       run at normal priority (by default, as root, every process of the benchmark
#                   but valgrind runs at nice -10, so that other work on the machine disturbs
#                   the three targets less; it changes nothing between them)
#
# Environment: BUILD_DIR (default <repo>/build-bench, a Release build made if missing), BENCH_BIN
# (a folder of prebuilt binaries instead of building),
# RESULTS_DIR (default a new temp dir, kept and printed at the end), BENCH_RELAY_ENV (extra
# environment for the relay, to try a change without rebuilding, e.g. 'QT_NO_GLIB=1' or
# 'LD_PRELOAD=@BIN@/switchyard-bench-backlog.so'; @BIN@ is the binaries' folder).
#
# Installs what it needs (nginx-light, valgrind, python3, build tools through the project's
# installer) with apt-get, through sudo when not root. Every process it starts is ended by PID.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
QUICK=0 DOC=1 CALLGRIND=1 PERF=0 NICE=1
for a in "$@"; do
    case "$a" in
        --quick) QUICK=1 ;;
        --no-doc) DOC=0 ;;
        --no-callgrind) CALLGRIND=0 ;;
        --perf) PERF=1 ;;
        --no-nice) NICE=0 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $a" >&2; exit 2 ;;
    esac
done

# Repetitions (each one runs direct, nginx, relay back to back; sequential ones rotate the order).
if [[ $QUICK == 1 ]]; then
    TTFB_REPS=30 MODELS_REPS=30 TPUT_REPS=3 CONC_REPS=2 TPUT_TOKENS=10000 PLACE_REPS=20
else
    TTFB_REPS=200 MODELS_REPS=200 TPUT_REPS=15 CONC_REPS=7 TPUT_TOKENS=20000 PLACE_REPS=100
fi
# A pause after each first-line request (µs): whatever a target does after answering (closing the
# upstream connection, logging, opening the next one) is over before the next target's clock
# starts, instead of landing in that target's time. Agents pause for seconds between requests.
GAP_US=1000
PACED_RATE=50          # tokens/s of the "realistic" upstream, per stream
CONC_STREAMS=200
CONC_TOKENS=50         # so each concurrent stream lasts about a second
CG_RATE=20             # the paced upstream of the callgrind run: slow enough for one event per relay wakeup
CG_SHORT=50 CG_LONG=300

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

SUDO=()
[[ $(id -u) == 0 ]] || SUDO=(sudo)
apt_install() {
    log "installing $*"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null \
        || { "${SUDO[@]}" apt-get update -q >/dev/null && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null; }
}

# --- what the benchmark needs -------------------------------------------------------------------
need=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx-light)
command -v python3 >/dev/null || need+=(python3)
[[ $CALLGRIND == 0 ]] || command -v valgrind >/dev/null || need+=(valgrind)
if ((${#need[@]})); then
    # Debian starts an installed nginx as a service on port 80 unless policy-rc.d says no.
    made_policy=0
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee /usr/sbin/policy-rc.d >/dev/null
        "${SUDO[@]}" chmod +x /usr/sbin/policy-rc.d
        made_policy=1
    fi
    apt_install "${need[@]}"
    [[ $made_policy == 0 ]] || "${SUDO[@]}" rm -f /usr/sbin/policy-rc.d
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    [[ -x $ROOT/installer/deps-debian.sh ]] && "$ROOT/installer/deps-debian.sh" >/dev/null
fi

# --- build ----------------------------------------------------------------------------------------
if [[ -n ${BENCH_BIN:-} ]]; then
    BIN=$BENCH_BIN   # prebuilt binaries (switchyard, switchyard-fakellama, switchyard-bench-client)
    BUILD_TYPE="prebuilt ($BENCH_BIN)"
else
    if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
        log "configuring a Release build in $BUILD_DIR"
        cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BENCH=ON >/dev/null
    fi
    log "building switchyard, switchyard-fakellama and the bench tools in $BUILD_DIR"
    cmake --build "$BUILD_DIR" --target switchyard switchyard-fakellama switchyard-bench-client \
        switchyard-bench-backlog >/dev/null
    BIN=$BUILD_DIR/bin
    BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
fi

# --- bookkeeping ----------------------------------------------------------------------------------
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d /tmp/switchyard-bench.XXXXXX)}
mkdir -p "$RESULTS_DIR"
WORK=$(mktemp -d /tmp/switchyard-bench-work.XXXXXX)
RAW=$RESULTS_DIR/raw.jsonl
META=$RESULTS_DIR/meta.env
: >"$RAW"
: >"$META"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
meta() { printf '%s=%q\n' "$1" "$2" >>"$META"; }

# Waits until FILE has a line matching REGEX; prints the first match.
wait_for_line() {
    local file=$1 regex=$2 timeout=${3:-30} pid=${4:-}
    local deadline=$((SECONDS + timeout))
    while ((SECONDS < deadline)); do
        if grep -m1 -E "$regex" "$file" 2>/dev/null; then return 0; fi
        if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then break; fi
        sleep 0.1
    done
    log "no line /$regex/ in $file:"; tail -5 "$file" >&2 || true
    return 1
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
models_list() { # prefix count
    local i out=()
    for i in $(seq -w 1 "$2"); do out+=("$1$i"); done
    (IFS=,; echo "${out[*]}")
}

PRIO=()
if [[ $NICE == 1 && $(id -u) == 0 ]]; then PRIO=(nice -n -10); else NICE=0; fi

# --- machine --------------------------------------------------------------------------------------
meta started "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta cpu "$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
meta cores "$(nproc)"
meta kernel "$(uname -sr)"
meta memory "$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
meta qt "$(dpkg-query -W -f '${Version}' libqt6core6 2>/dev/null || echo '?')"
meta nginx_version "$("$NGINX" -v 2>&1 | sed 's/.*nginx\///')"
meta build_type "$BUILD_TYPE"
meta commit "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD -- src 2>/dev/null || echo ' + uncommitted changes in src/')"
meta load_before "$(cut -d' ' -f1-3 /proc/loadavg)"
meta quick "$QUICK"
meta nice "$NICE"
meta gap_us "$GAP_US"

# --- upstreams: four fake routers with 50 models each ----------------------------------------------
# The fakes listen with a large backlog (bench/listenbacklog.cpp) so that 200 connections at once
# measure the path, not Qt's default accept queue of 50 in the fake; SWITCHYARD_BENCH_BACKLOG=0
# runs them as they are.
FAKE_ENV=()
if [[ ${SWITCHYARD_BENCH_BACKLOG:-4096} != 0 ]]; then
    FAKE_ENV=(env "LD_PRELOAD=$BIN/switchyard-bench-backlog.so" "SWITCHYARD_BENCH_BACKLOG=${SWITCHYARD_BENCH_BACKLOG:-4096}")
fi
meta upstream_backlog "${SWITCHYARD_BENCH_BACKLOG:-4096}"
start_fake() { # name tokens-per-s extra-args...
    local name=$1 rate=$2; shift 2
    "${PRIO[@]}" "${FAKE_ENV[@]}" "$BIN/switchyard-fakellama" --port 0 --models "$(models_list m 50)" --loaded m01 --tokens-per-s "$rate" "$@" \
        >"$WORK/fake-$name.log" 2>&1 &
    PIDS+=($!)
    eval "FAKE_PID_$name=$!"
    local line; line=$(wait_for_line "$WORK/fake-$name.log" 'listening on' 20 $!) || die "fake $name did not start"
    eval "FAKE_PORT_$name=${line##*:}"
}
log "starting 4 fake routers (200 models)"
start_fake fast 0 --ctx 1000000 --max-models 50
start_fake paced "$PACED_RATE" --max-models 50
start_fake h3 "$PACED_RATE"
start_fake h4 "$PACED_RATE"
if [[ $CALLGRIND == 1 ]]; then
    start_fake cg "$CG_RATE" --ctx 100000
fi

# --- nginx ----------------------------------------------------------------------------------------
NGX=$WORK/nginx
mkdir -p "$NGX/tmp" "$NGX/logs"
NGINX_FAST_PORT=$(free_port)
NGINX_PACED_PORT=$(free_port)
sed -e "s|@DIR@|$NGX|g" -e "s|@FAST_PORT@|$FAKE_PORT_fast|g" -e "s|@PACED_PORT@|$FAKE_PORT_paced|g" \
    -e "s|@NGINX_FAST_PORT@|$NGINX_FAST_PORT|g" -e "s|@NGINX_PACED_PORT@|$NGINX_PACED_PORT|g" \
    "$ROOT/bench/nginx.conf.in" >"$NGX/nginx.conf"
log "starting nginx"
"${PRIO[@]}" "$NGINX" -p "$NGX" -c "$NGX/nginx.conf" -g 'daemon off;' >"$NGX/stdout.log" 2>&1 &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PACED_PORT") 2>/dev/null && break
    kill -0 "$NGINX_PID" 2>/dev/null || { cat "$NGX/stdout.log" "$NGX/error.log" >&2 || true; die "nginx did not start"; }
    sleep 0.1
done
NGINX_PIDS="$NGINX_PID"
for w in $(pgrep -P "$NGINX_PID"); do NGINX_PIDS+="+$w"; done

RELAY_ENV=()
if [[ -n ${BENCH_RELAY_ENV:-} ]]; then
    read -r -a RELAY_ENV <<<"${BENCH_RELAY_ENV//@BIN@/$BIN}"
    RELAY_ENV=(env "${RELAY_ENV[@]}")
fi
meta relay_env "${BENCH_RELAY_ENV:-}"

# --- the relay ------------------------------------------------------------------------------------
log "starting the relay"
mkdir -p "$WORK/relay-data"
"${PRIO[@]}" "${RELAY_ENV[@]}" "$BIN/switchyard" --headless --listen 127.0.0.1:0 --data-dir "$WORK/relay-data" \
    --upstream "fast=http://127.0.0.1:$FAKE_PORT_fast" --upstream "paced=http://127.0.0.1:$FAKE_PORT_paced" \
    --upstream "h3=http://127.0.0.1:$FAKE_PORT_h3" --upstream "h4=http://127.0.0.1:$FAKE_PORT_h4" \
    >"$WORK/relay-journal.log" 2>&1 &
RELAY_PID=$!
PIDS+=("$RELAY_PID")
line=$(wait_for_line "$WORK/relay-journal.log" 'listening on http://' 30 "$RELAY_PID") || die "the relay did not start"
RELAY_PORT=$(sed -E 's|.*listening on http://[^ ]*:([0-9]+).*|\1|' <<<"$line")
# Wait for the merged list to hold all 200 models.
python3 - "$RELAY_PORT" <<'EOF' || die "the relay's /models never listed 200 models"
import json, sys, time, urllib.request
deadline = time.time() + 30
while time.time() < deadline:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/models", timeout=2) as r:
            if len(json.load(r).get("data", [])) >= 200:
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.2)
sys.exit(1)
EOF
sleep 1
command -v ss >/dev/null && ss -ltn >"$RESULTS_DIR/listeners.txt" 2>/dev/null || true
meta relay_backlog "$(ss -ltn 2>/dev/null | awk -v p=":$RELAY_PORT" '$4 ~ p"$" {print $3}')"
meta nginx_backlog "$(ss -ltn 2>/dev/null | awk -v p=":$NGINX_PACED_PORT" '$4 ~ p"$" {print $3}')"
meta fake_backlog "$(ss -ltn 2>/dev/null | awk -v p=":$FAKE_PORT_paced" '$4 ~ p"$" {print $3}')"
meta relay_rss_idle_kb "$(rss_kb "$RELAY_PID")"
NGINX_RSS=0; for p in ${NGINX_PIDS//+/ }; do NGINX_RSS=$((NGINX_RSS + $(rss_kb "$p"))); done
meta nginx_rss_idle_kb "$NGINX_RSS"

CLIENT=("${PRIO[@]}" "$BIN/switchyard-bench-client")
fast_targets=(--target "direct=127.0.0.1:$FAKE_PORT_fast,m01"
              --target "nginx=127.0.0.1:$NGINX_FAST_PORT,m01,$NGINX_PIDS"
              --target "relay=127.0.0.1:$RELAY_PORT,fast-m01,$RELAY_PID")
paced_targets=(--target "direct=127.0.0.1:$FAKE_PORT_paced,m01"
               --target "nginx=127.0.0.1:$NGINX_PACED_PORT,m01,$NGINX_PIDS"
               --target "relay=127.0.0.1:$RELAY_PORT,paced-m01,$RELAY_PID")

log "time to first SSE line: $TTFB_REPS x 3 short streaming requests, ${GAP_US} µs apart"
"${CLIENT[@]}" --mode ttfb --reps "$TTFB_REPS" --warmup 10 --max-tokens 16 --gap-us "$GAP_US" "${fast_targets[@]}" >>"$RAW"

log "time to first SSE line, back to back: $TTFB_REPS x 3"
"${CLIENT[@]}" --mode ttfb --phase ttfb_b2b --reps "$TTFB_REPS" --warmup 10 --max-tokens 16 "${fast_targets[@]}" >>"$RAW"

log "time to first SSE line with a 100 KB conversation: $((TTFB_REPS / 2)) x 3"
"${CLIENT[@]}" --mode ttfb --phase ttfb_agent --history-bytes 100000 --reps "$((TTFB_REPS / 2))" --warmup 5 \
    --max-tokens 16 --gap-us "$GAP_US" "${fast_targets[@]}" >>"$RAW"

# Which CPU the scheduler puts the client, the proxy and the upstream on decides more than the
# proxy's own work: waking a process on an idle CPU of a VM costs tens of µs, on a busy one it
# waits its turn. Each layout pins all three the same way for every target (two CPUs: 0 and 1).
if (($(nproc) >= 2)) && command -v taskset >/dev/null; then
    pin() { # cpus pid...
        local cpus=$1 p; shift
        for p in "$@"; do taskset -a -p -c "$cpus" "$p" >/dev/null; done
    }
    PROXY_PIDS=("$RELAY_PID" ${NGINX_PIDS//+/ })
    for layout in "one:0:0:0" "proxy_alone:1:1:0" "upstream_alone:0:1:0" "client_alone:0:1:1"; do
        IFS=: read -r name client_cpu upstream_cpu proxy_cpu <<<"$layout"
        log "time to first SSE line, CPU layout $name: $PLACE_REPS x 3"
        pin "$upstream_cpu" "$FAKE_PID_fast"
        pin "$proxy_cpu" "${PROXY_PIDS[@]}"
        taskset -c "$client_cpu" "${CLIENT[@]}" --mode ttfb --phase "ttfb_cpu_$name" --reps "$PLACE_REPS" --warmup 10 \
            --max-tokens 16 --gap-us "$GAP_US" "${fast_targets[@]}" >>"$RAW"
    done
    pin "0-$(($(nproc) - 1))" "$FAKE_PID_fast" "${PROXY_PIDS[@]}"
fi

log "GET /models: $MODELS_REPS x 3 (direct and nginx: one host's 50; relay: 200 merged from 4 hosts)"
"${CLIENT[@]}" --mode models --reps "$MODELS_REPS" --warmup 10 "${fast_targets[@]}" >>"$RAW"

PERF_PID=
if [[ $PERF == 1 ]] && command -v perf >/dev/null; then
    perf record -e cpu-clock -F 2000 -g -p "$RELAY_PID" -o "$RESULTS_DIR/perf.data" >/dev/null 2>&1 &
    PERF_PID=$!
    PIDS+=("$PERF_PID")
fi
log "single-stream throughput: $TPUT_REPS x 3 streams of $TPUT_TOKENS tokens at full upstream speed"
"${CLIENT[@]}" --mode throughput --reps "$TPUT_REPS" --warmup 1 --max-tokens "$TPUT_TOKENS" "${fast_targets[@]}" >>"$RAW"
if [[ -n $PERF_PID ]]; then
    kill -INT "$PERF_PID" 2>/dev/null || true
    wait "$PERF_PID" 2>/dev/null || true
    perf report -i "$RESULTS_DIR/perf.data" --no-children --percent-limit 1 --stdio >"$RESULTS_DIR/perf-self.txt" 2>/dev/null || true
    perf report -i "$RESULTS_DIR/perf.data" --children --percent-limit 2 --stdio -g none >"$RESULTS_DIR/perf-children.txt" 2>/dev/null || true
fi

log "$CONC_STREAMS concurrent streams at $PACED_RATE tokens/s: $CONC_REPS x 3"
"${CLIENT[@]}" --mode concurrent --reps "$CONC_REPS" --warmup 1 --streams "$CONC_STREAMS" --max-tokens "$CONC_TOKENS" \
    --timeout-s 30 "${paced_targets[@]}" >>"$RAW"

sleep 2
meta relay_rss_idle_after_kb "$(rss_kb "$RELAY_PID")"
meta relay_fds_after "$(ls "/proc/$RELAY_PID/fd" | wc -l)"
TRAFFIC_ENDED=$SECONDS

# --- instructions per relayed event under callgrind ------------------------------------------------
if [[ $CALLGRIND == 1 ]]; then
    log "callgrind: instructions per relayed event"
    CG_PORT=$(free_port)
    cat >"$WORK/callgrind.json" <<EOF
{
  "listen": "127.0.0.1:$CG_PORT",
  "hosts": { "cg": { "driver": "static", "engines": { "main": { "url": "http://127.0.0.1:$FAKE_PORT_cg" } } } },
  "limits": { "poll_interval_s": 86400 }
}
EOF
    mkdir -p "$WORK/cg-data" "$RESULTS_DIR/callgrind"
    "${RELAY_ENV[@]}" valgrind --tool=callgrind --callgrind-out-file="$RESULTS_DIR/callgrind/callgrind.out" \
        "$BIN/switchyard" --headless --config "$WORK/callgrind.json" --data-dir "$WORK/cg-data" \
        >"$WORK/cg-journal.log" 2>"$WORK/cg-valgrind.log" &
    CG_PID=$!
    PIDS+=("$CG_PID")
    wait_for_line "$WORK/cg-journal.log" 'listening on http://' 180 "$CG_PID" >/dev/null || die "the relay under callgrind did not start"
    cg_target=(--target "relay=127.0.0.1:$CG_PORT,cg-m01,$CG_PID")
    # Warm up: connections, first-use allocations, the catalog's first fetch.
    "${CLIENT[@]}" --mode throughput --reps 2 --warmup 0 --max-tokens 20 --timeout-s 120 "${cg_target[@]}" >/dev/null
    sleep 2   # the warm-up's history rows are written 250 ms after it: not in the first window
    cg_dump() { # label
        sleep 2   # the history store writes a finished request 250 ms later: let it land in this window
        callgrind_control -d "$1" "$CG_PID" >/dev/null 2>&1
        ls -t "$RESULTS_DIR"/callgrind/callgrind.out.* | head -1
    }
    cg_run() { # label max-tokens
        callgrind_control -z "$CG_PID" >/dev/null 2>&1
        local out; out=$("${CLIENT[@]}" --mode throughput --reps 1 --warmup 0 --max-tokens "$2" --timeout-s 300 "${cg_target[@]}")
        local file; file=$(cg_dump "$1")
        local ir; ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$file" | head -1)
        local events; events=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$out")
        printf '{"phase":"callgrind","label":"%s","tokens":%s,"events":%s,"ir":%s,"file":"%s"}\n' \
            "$1" "$2" "$events" "$ir" "$(basename "$file")" >>"$RAW"
    }
    cg_run short1 "$CG_SHORT"
    cg_run long1 "$CG_LONG"
    cg_run short2 "$CG_SHORT"
    cg_run long2 "$CG_LONG"
    # A burst: the fast upstream is not behind this relay, so measure batching with the paced one
    # switched to full speed through the fake's control API.
    python3 - "$FAKE_PORT_cg" <<'EOF' || log "could not switch the callgrind upstream to full speed"
import json, sys, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/__fake/config", method="POST",
                             data=json.dumps({"tokens_per_s": 0}).encode(), headers={"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=5).read()
EOF
    cg_run burst 5000
    kill -TERM "$CG_PID" 2>/dev/null || true
    wait "$CG_PID" 2>/dev/null || true
    for f in "$RESULTS_DIR"/callgrind/callgrind.out.*; do
        callgrind_annotate --inclusive=yes --threshold=99 "$f" >"$f.inclusive.txt" 2>/dev/null || true
        callgrind_annotate --inclusive=no --threshold=95 "$f" >"$f.self.txt" 2>/dev/null || true
    done
fi

# The relay returns a burst's memory after 30 s without traffic (IdleMemoryTrimmer); the callgrind
# part usually takes longer than that, so this rarely waits.
quiet_left=$((TRAFFIC_ENDED + 32 - SECONDS))
if ((quiet_left > 0)); then
    log "waiting ${quiet_left} s for the relay's quiet-time memory trim"
    sleep "$quiet_left"
fi
meta relay_rss_trimmed_kb "$(rss_kb "$RELAY_PID")"
meta load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
meta finished "$(date -u '+%Y-%m-%d %H:%M UTC')"
cp "$WORK/relay-journal.log" "$RESULTS_DIR/relay-journal.log" 2>/dev/null || true

log "writing the report"
report_args=("$RAW" "$META" "$RESULTS_DIR/results.md")
[[ $DOC == 0 ]] || report_args+=(--doc "$ROOT/docs/PERFORMANCE.md")
python3 "$ROOT/bench/report.py" "${report_args[@]}"
cat "$RESULTS_DIR/results.md"
log "raw results and profiles in $RESULTS_DIR"
