#!/usr/bin/env bash
# The soak test (issue 9): the real relay, headless, in front of two "local" hosts with two
# engines each (switchyard-fakellama processes it starts and stops itself), under mixed traffic
# with engine switches and client cuts for a fixed time; then a report with requests served,
# errors by kind, lost requests (must be 0), and the relay's RSS and fds over time.
# Not part of ctest (it takes minutes); run it by hand.
#
#   bench/soak.sh [--minutes N] [--clients N] [--sample-s N] [--tokens-per-s N] [--no-doc]
#
#   --minutes N       how long the traffic runs (default 10)
#   --clients N       concurrent clients (default 8)
#   --sample-s N      seconds between RSS/fd samples (default 10)
#   --tokens-per-s N  the fake engines' generation speed (default 100)
#   --no-doc          print the report instead of writing docs/SOAK.md
#
# Environment: BUILD_DIR (default <repo>/build; the two binaries are built there if missing),
# RESULTS_DIR (default a new temp dir, kept: config, relay log, JSON summary).
# Every process it starts is ended by PID; the relay gets SIGTERM, and the script checks that no
# engine process outlives it.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
MINUTES=10 CLIENTS=8 SAMPLE_S=10 RATE=100 DOC=1
while (($#)); do
    case "$1" in
        --minutes) MINUTES=$2; shift ;;
        --clients) CLIENTS=$2; shift ;;
        --sample-s) SAMPLE_S=$2; shift ;;
        --tokens-per-s) RATE=$2; shift ;;
        --no-doc) DOC=0 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

log() { printf '[soak %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

BIN=$BUILD_DIR/bin
if [[ ! -x $BIN/switchyard || ! -x $BIN/switchyard-fakellama ]]; then
    log "building switchyard and switchyard-fakellama in $BUILD_DIR"
    [[ -f $BUILD_DIR/build.ninja ]] || cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    ninja -C "$BUILD_DIR" switchyard switchyard-fakellama >/dev/null
fi
RESULTS_DIR=${RESULTS_DIR:-$(mktemp -d /tmp/switchyard-soak.XXXXXX)}
mkdir -p "$RESULTS_DIR"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

RELAY_PORT=$(free_port)
declare -a ENGINE_PORTS=()
engine_json() {   # port models (run in $(...): the caller records the port)
    local port=$1 models=$2 loaded=${2%%,*}
    printf '{"url":"http://127.0.0.1:%s","models":["%s"],"start_timeout_s":30,"argv":["%s","--port","%s","--models","%s","--loaded","%s","--tokens-per-s","%s","--load-ms","300","--max-models","2"]}' \
        "$port" "${models//,/\",\"}" "$BIN/switchyard-fakellama" "$port" "$models" "$loaded" "$RATE"
}
hosts=""
for h in h1 h2; do
    p1=$(free_port) p2=$(free_port)
    ENGINE_PORTS+=("$p1" "$p2")
    e1=$(engine_json "$p1" a1,a2)
    e2=$(engine_json "$p2" b1,b2)
    hosts+="${hosts:+,}\"$h\":{\"driver\":\"local\",\"engines\":{\"e1\":$e1,\"e2\":$e2}}"
done
cat >"$RESULTS_DIR/relay.json" <<EOF
{"listen":"127.0.0.1:$RELAY_PORT","state_dir":"$RESULTS_DIR/state","hosts":{$hosts},
 "waiting":{"early_200_after_s":10,"comment_every_s":15}}
EOF
"$BIN/switchyard" check-config "$RESULTS_DIR/relay.json" >/dev/null || die "the soak config is invalid"

log "relay on 127.0.0.1:$RELAY_PORT, results in $RESULTS_DIR"
XDG_DATA_HOME=$RESULTS_DIR/data XDG_CONFIG_HOME=$RESULTS_DIR/config \
    "$BIN/switchyard" --headless --config "$RESULTS_DIR/relay.json" >"$RESULTS_DIR/relay.log" 2>&1 &
RELAY_PID=$!
cleanup() {
    if kill -0 "$RELAY_PID" 2>/dev/null; then kill -TERM "$RELAY_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$RELAY_PORT/health" >/dev/null && break
    sleep 0.1
done
curl -sf "http://127.0.0.1:$RELAY_PORT/health" >/dev/null || die "the relay did not come up (see $RESULTS_DIR/relay.log)"

REPORT=$RESULTS_DIR/SOAK.md
python3 "$ROOT/bench/soak.py" --port "$RELAY_PORT" --pid "$RELAY_PID" --seconds "$((MINUTES * 60))" \
    --clients "$CLIENTS" --sample-s "$SAMPLE_S" --tokens-per-s "$RATE" \
    --json "$RESULTS_DIR/summary.json" --markdown "$REPORT"

# SIGTERM: the relay stops, and every engine it started goes with it.
engine_pids() {
    local p
    for p in "${ENGINE_PORTS[@]}"; do
        pgrep -f -- "switchyard-fakellama --port $p " || true
    done
}
before=$(engine_pids | wc -l)
kill -TERM "$RELAY_PID"
for _ in $(seq 400); do kill -0 "$RELAY_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$RELAY_PID" 2>/dev/null && die "the relay did not exit within 40 s of SIGTERM"
wait "$RELAY_PID" && status=0 || status=$?
sleep 1
left=$(engine_pids | wc -l)
switches=$(grep -c "switching to engine" "$RESULTS_DIR/relay.log" || true)
{
    echo "Engine switches during the run (journal lines \"switching to engine\"): $switches."
    echo
    echo "## Shutdown"
    echo
    echo "SIGTERM after the traffic: the relay exited with status $status; engine processes running"
    echo "before: $before, after: $left."
    echo
} >>"$REPORT"
log "relay exited with $status; engines before $before, after $left"

if [[ $DOC == 1 ]]; then
    cp "$REPORT" "$ROOT/docs/SOAK.md"
    log "report written to docs/SOAK.md"
else
    cat "$REPORT"
fi
lost=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c.get("sent",0)-c.get("completed",0)-c.get("errored",0)-c.get("cut",0))' "$RESULTS_DIR/summary.json")
[[ $lost == 0 && $left == 0 ]] || die "lost $lost requests, $left engines left running"
